"""Run scenarios against a host: gate each on the advertisement, soft-skip or (strict) fail."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from wopgen.conformance.model import Context, Failure, Scenario, Skip
from wopgen.conformance.transport import Transport
from wopgen.corpus import Corpus

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"


@dataclass(frozen=True)
class Result:
    scenario: Scenario
    status: str
    message: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.scenario.name,
            "rule": self.scenario.rule,
            "kind": self.scenario.kind,
            "rfc": self.scenario.rfc,
            "status": self.status,
            "message": self.message,
            "seconds": round(self.seconds, 4),
        }


class DiscoveryError(Exception):
    """The host's discovery document could not be read; nothing can be gated."""


def discover(transport: Transport) -> dict[str, Any]:
    try:
        reply = transport.request("GET", "/.well-known/openwop", auth=False)
    except OSError as exc:
        raise DiscoveryError(f"cannot reach {transport.description}: {exc}") from None
    if reply.status != 200 or not isinstance(reply.body, dict):
        raise DiscoveryError(f"GET /.well-known/openwop answered {reply.status}, not a discovery document")
    return reply.body


def run(
    scenarios: Iterable[Scenario],
    transport: Transport,
    corpus: Corpus,
    *,
    strict: bool = False,
    opted_out: frozenset[str] = frozenset(),
) -> list[Result]:
    """Each scenario's result. Strict mode turns every skip into a failure, except opted-out ones."""
    caps = discover(transport)
    results = []
    for scenario in scenarios:
        start = time.perf_counter()
        seen = len(getattr(transport, "internal_errors", []))
        reason = scenario.gate(caps)
        if reason is None:
            try:
                scenario.body(Context(transport, corpus, caps))
                status, message = PASSED, ""
            except Skip as skip:
                status, message = SKIPPED, str(skip)
            except Failure as failure:
                status, message = FAILED, str(failure)
            except Exception as exc:
                status, message = FAILED, f"unexpected answer: {type(exc).__name__}: {exc}"
        else:
            status, message = SKIPPED, reason
        internal = getattr(transport, "internal_errors", [])[seen:]
        if status == FAILED and internal:
            message += f" (the host reported {internal[-1]})"
        if status == SKIPPED and strict and scenario.name not in opted_out:
            status, message = FAILED, f"strict mode: {message}"
        results.append(Result(scenario, status, message, time.perf_counter() - start))
    return results


def summary(results: list[Result]) -> dict[str, int]:
    return {key: sum(1 for r in results if r.status == key) for key in (PASSED, FAILED, SKIPPED)}

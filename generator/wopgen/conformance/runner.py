"""Run scenarios against a host: gate each on the advertisement, soft-skip or (strict) fail.

Corpus scenarios never talk to the host: their results are reported apart and never count as
host passes. Every failed assertion of a scenario is kept, with its clause and the exchange it
was about. The whole run is bounded by `deadline` (a monotonic time): past it no scenario starts.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from wopgen.conformance.model import CORPUS, Context, Failure, Finding, Scenario, Skip, Unwired
from wopgen.conformance.transport import DeadlineExceeded, Transport, TransportError
from wopgen.corpus import Corpus

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"


@dataclass(frozen=True)
class Result:
    scenario: Scenario
    status: str
    message: str = ""
    seconds: float = 0.0
    findings: tuple[Finding, ...] = field(default=())
    requests: int = 0  # requests the scenario sent to the host
    note: str = ""  # a part of a passed scenario that could not run (an unwired seam, say)

    @property
    def counts_for_host(self) -> bool:
        return self.scenario.kind != CORPUS

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.scenario.name,
            "rule": self.scenario.rule,
            "kind": self.scenario.kind,
            "rfc": self.scenario.rfc,
            "status": self.status,
            "message": self.message,
            "note": self.note,
            "requests": self.requests,
            "failures": [f.to_dict() for f in self.findings],
            "seconds": round(self.seconds, 4),
        }


class DiscoveryError(Exception):
    """The host's discovery document could not be read; nothing can be gated."""


class KeyRefused(Exception):
    """The host answered 401 to the bearer key: no scenario could say anything true."""


def discover(transport: Transport) -> dict[str, Any]:
    try:
        reply = transport.request("GET", "/.well-known/openwop", auth=False)
    except (OSError, DeadlineExceeded) as exc:
        raise DiscoveryError(f"cannot reach {transport.description}: {exc}") from None
    if reply.status != 200 or not isinstance(reply.body, dict):
        cut = f" ({reply.problem})" if reply.problem else ""  # what was read of it is not all the host sent
        raise DiscoveryError(f"GET /.well-known/openwop answered {reply.status}, not a discovery document{cut}")
    return reply.body


def check_key(transport: Transport) -> None:
    """One authenticated request per key; a 401 means the key is wrong, which is the caller's error, not the host's.

    The second key (`--second-api-key`) is probed the same way: the owner-scope clause is about a
    request with a *valid* key of another scope (run-surface.md), so a 401 to it says nothing of the
    host's scoping and would otherwise read as a breach of it.
    """
    keys: list[tuple[str | None, str, str]] = [(None, "the API key", "--api-key")]
    if transport.second_key:
        keys.append((transport.second_key, "the second API key", "--second-api-key"))
    for key, what, option in keys:
        try:
            reply = transport.request("GET", f"/v1/runs/conformance-key-probe-{uuid.uuid4().hex[:12]}", key=key)
        except (TransportError, DeadlineExceeded) as exc:
            raise DiscoveryError(f"cannot reach {transport.description}: {exc}") from None
        if reply.status == 401:
            raise KeyRefused(f"{transport.description} refused {what} (HTTP 401): check {option}")


def _one(scenario: Scenario, transport: Transport, corpus: Corpus, caps: dict[str, Any]) -> Result:
    start = time.perf_counter()
    seen = len(getattr(transport, "internal_errors", []))
    reason = scenario.gate(caps)
    if reason is not None:
        return Result(scenario, SKIPPED, reason)
    ctx = Context(transport, corpus, caps, scenario.clause)
    status, message, note = PASSED, "", ""
    try:
        scenario.body(ctx)
    except Skip as skip:
        status, message = SKIPPED, str(skip)
    except Unwired as unwired:
        note = f"stopped early: {unwired}"
    except Failure:
        pass  # recorded by require(); the scenario stops here
    except DeadlineExceeded as exc:
        ctx.check(False, f"stopped: {exc}")
    except Exception as exc:  # an answer of a shape the scenario did not expect
        ctx.check(False, f"stopped on an unexpected answer: {type(exc).__name__}: {exc}")
    note = "; ".join([*ctx.notes, *([note] if note else [])])
    findings = tuple(ctx.findings)
    if findings:
        status = FAILED
        message = findings[0].message + (f" (and {len(findings) - 1} more)" if len(findings) > 1 else "")
        internal = getattr(transport, "internal_errors", [])[seen:]
        if internal:
            message += f" (the host reported {internal[-1]})"
    return Result(scenario, status, message, time.perf_counter() - start, findings, ctx.exchanges, note)


def run(
    scenarios: Iterable[Scenario],
    transport: Transport,
    corpus: Corpus,
    *,
    strict: bool = False,
    opted_out: frozenset[str] = frozenset(),
    deadline: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Result]:
    """Each scenario's result. Strict mode turns every skip into a failure, except opted-out ones and
    those of a scenario about refusing what the host does offer (`Scenario.unoffered`).
    `progress(done, total)` is told after each scenario."""
    caps = discover(transport)
    scenarios = list(scenarios)
    results = []
    for scenario in scenarios:
        if deadline is not None and time.monotonic() > deadline:
            result = Result(scenario, SKIPPED, "not run: the whole run's deadline passed")
        else:
            result = _one(scenario, transport, corpus, caps)
        offered = scenario.unoffered and scenario.gate(caps) is not None
        if result.status == SKIPPED and strict and scenario.name not in opted_out and not offered:
            result = Result(scenario, FAILED, f"strict mode: {result.message}", result.seconds, (), result.requests)
        results.append(result)
        if progress is not None:
            progress(len(results), len(scenarios))
    return results


def summary(results: list[Result]) -> dict[str, int]:
    """Host results by status, and corpus results apart (never counted as host passes)."""
    host = [r for r in results if r.counts_for_host]
    corpus = [r for r in results if not r.counts_for_host]
    counts = {key: sum(1 for r in host if r.status == key) for key in (PASSED, FAILED, SKIPPED)}
    counts["corpus-passed"] = sum(1 for r in corpus if r.status == PASSED)
    counts["corpus-failed"] = sum(1 for r in corpus if r.status == FAILED)
    return counts


def behaviour_answered(results: list[Result]) -> bool:
    """Whether any gated behaviour scenario ran and sent the host a request."""
    return any(r.scenario.kind == "behaviour" and r.requests and r.status != SKIPPED for r in results)

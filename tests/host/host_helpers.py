"""Helpers shared by the host tests (constants, requests, scripted-loop bodies)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wopgen.conformance.transport import InProcess, Reply

REPO = Path(__file__).resolve().parents[2]
KEY = "test-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
LOOP = "conformance.scripted-loop"
WORKER = "core.sample.worker"


def call(host: Any, method: str, path: str, body: Any = None) -> Any:
    """host.handle with the test key; returns the Response."""
    raw = b"" if body is None else json.dumps(body).encode()
    return host.handle(method, path, AUTH, raw)


def event(sequence: int, kind: str, **extra: Any) -> dict[str, Any]:
    """An event a host might deliver: the six envelope members, an empty payload, and `extra`."""
    return {
        "eventId": f"e{sequence}",
        "runId": "r1",
        "type": kind,
        "payload": {},
        "timestamp": "2026-01-01T00:00:00Z",
        "sequence": sequence,
        **extra,
    }


def loop_request(*turns: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"workflowId": LOOP, "inputs": {"script": {"turns": list(turns)}}, **extra}


def work(**turn: Any) -> dict[str, Any]:
    return {"decision": {"kind": "next-worker", "nextWorkerIds": [WORKER]}, **turn}


def stop(**decision: Any) -> dict[str, Any]:
    return {"decision": {"kind": "terminate", **decision}}


class Rewritten:
    """The transport of `inner` with its answers passed through `answer(method, path, reply)`."""

    def __init__(self, inner: InProcess, answer: Callable[[str, str, Reply], Reply]) -> None:
        self.inner, self.answer = inner, answer
        self.description, self.second_key = inner.description, inner.second_key
        self.refused_redirects = inner.refused_redirects

    def request(self, method: str, path: str, body: Any = None, **options: Any) -> Reply:
        return self.answer(method, path, self.inner.request(method, path, body, **options))

    def stream(self, path: str) -> Reply:
        return self.answer("STREAM", path, self.inner.stream(path))

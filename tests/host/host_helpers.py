"""Helpers shared by the host tests (constants, requests, scripted-loop bodies)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
KEY = "test-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
LOOP = "conformance.scripted-loop"
WORKER = "core.sample.worker"


def call(host: Any, method: str, path: str, body: Any = None) -> Any:
    """host.handle with the test key; returns the Response."""
    raw = b"" if body is None else json.dumps(body).encode()
    return host.handle(method, path, AUTH, raw)


def loop_request(*turns: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"workflowId": LOOP, "inputs": {"script": {"turns": list(turns)}}, **extra}


def work(**turn: Any) -> dict[str, Any]:
    return {"decision": {"kind": "next-worker", "nextWorkerIds": [WORKER]}, **turn}


def stop(**decision: Any) -> dict[str, Any]:
    return {"decision": {"kind": "terminate", **decision}}

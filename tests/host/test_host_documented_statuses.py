"""The host answers each operation only with a status the OpenAPI document `wopgen api` renders lists for it.

A generated client (openapi-python-client, openapi-generator) raises on a status its operation does not
list, or drops the answer; so a refusal the host gives must be in the document, with its envelope.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from host.host_helpers import AUTH, call
from wopgen.corpus import Corpus
from wopgen.generate.api import OPENAPI_FILE, api_documents


def _documented(corpus: Corpus, method: str, target: str) -> set[str]:
    """The statuses the rendered document lists for the operation that `method target` reaches."""
    path = target.split("?")[0]
    for template, item in api_documents(corpus)[OPENAPI_FILE]["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method.lower() in item:
            return set(item[method.lower()]["responses"])
    raise AssertionError(f"no operation for {method} {path}")


@pytest.mark.parametrize(
    ("method", "target", "headers", "body", "status"),
    [
        ("GET", "/v1/runs/{run}/events/poll?timeout=0.05", {}, b"", 200),  # `timeout` is a number of seconds
        ("GET", "/v1/runs/{run}/events/poll?timeout=soon", {}, b"", 400),
        ("GET", "/v1/runs/{run}/events/poll?timeout=-1", {}, b"", 400),
        ("GET", "/v1/runs/{run}/events/poll?lastSequence=abc", {}, b"", 400),
        ("GET", "/v1/runs/{run}/events", {"Last-Event-ID": "no-such-event"}, b"", 400),
        ("POST", "/v1/runs/{run}/cancel", {}, b"not json", 400),
        ("POST", "/v1/runs/{run}/cancel", {}, b'{"reason": 42}', 400),  # run-cancel-request: a reason is text
        ("POST", "/v1/runs/{run}/cancel", {}, b'{"reasn": "x"}', 400),  # closed, as every client-sent body
    ],
)
def test_a_refusal_is_a_status_the_document_lists(
    make_host: Any, repo_corpus: Corpus, method: str, target: str, headers: dict[str, str], body: bytes, status: int
) -> None:
    host = make_host()
    run = call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"}).body["runId"]
    target = target.replace("{run}", run)
    answer = host.handle(method, target, {**AUTH, **headers}, body)
    assert answer.status == status, answer.body
    assert str(answer.status) in _documented(repo_corpus, method, target)
    if status == 400:
        assert answer.body["error"] == "validation_error", json.dumps(answer.body)


def _documented_headers(corpus: Corpus, target: str, status: int) -> set[str]:
    for template, item in api_documents(corpus)[OPENAPI_FILE]["paths"].items():
        if template == target:
            return set(item["post"]["responses"][str(status)].get("headers", {}))
    raise AssertionError(target)


def test_the_headers_the_host_answers_with_are_documented(make_host: Any, repo_corpus: Corpus) -> None:
    """`Location` and the replay mark on a run created (and on its replay), `Retry-After` on a retry while
    the first request is answered and on a full store: each is listed under the response it comes with."""
    host = make_host(max_runs=1)
    sent = json.dumps({"workflowId": "conformance-cancellable", "inputs": {"delayMs": 30000}}).encode()
    first = host.handle("POST", "/v1/runs", {**AUTH, "Idempotency-Key": "k"}, sent)
    replay = host.handle("POST", "/v1/runs", {**AUTH, "Idempotency-Key": "k"}, sent)
    full = host.handle("POST", "/v1/runs", AUTH, sent)  # the one run kept has not finished
    assert (first.status, replay.status, full.status) == (201, 201, 503), full.body
    sent_with = {"Location", "Retry-After", "OpenWOP-Idempotent-Replay"}
    for answer in (first, replay, full):
        assert set(answer.headers) & sent_with <= _documented_headers(repo_corpus, "/v1/runs", answer.status)
    assert {"Location", "OpenWOP-Idempotent-Replay"} <= set(replay.headers) and "Retry-After" in full.headers

"""The host served over HTTP: the published openwop-client 1.8.0 works against it; errors stay envelopes."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from click.testing import CliRunner
from openwop_client import OpenwopClient, WopError
from openwop_client.types import CancelRunRequest, CreateRunRequest, ResumeRunRequest, RunConfigurable

from host.host_helpers import KEY, LOOP, REPO, call, stop, work
from wopgen.cli import cli


def test_the_published_client_works_against_the_host(served):
    client = OpenwopClient(served("full"), KEY, timeout=10)
    caps = client.discovery_capabilities()
    assert caps.protocolVersion == "1.0" and caps.limits.maxLoopIterations == 20

    created = client.runs_create(CreateRunRequest(workflowId="conformance-noop", inputs={"n": 1}, tags=["t"]))
    snapshot = client.runs_get(created.runId)
    assert (snapshot.runId, snapshot.status, snapshot.tags) == (created.runId, "completed", ["t"])
    polled = client.runs_poll_events(created.runId, last_sequence=-1)
    assert polled.isComplete and [e.type for e in polled.events] == ["run.started", "run.completed"]
    streamed = list(client.runs_events(created.runId, timeout_seconds=5))
    assert [e.sequence for e in streamed] == [e.sequence for e in polled.events]

    script = {"turns": [{"decision": {"kind": "next-worker", "nextWorkerIds": ["core.sample.worker"]}}]}
    # The client's own RunConfigurable: it arrives with every reserved key (nulls included) and an `extras` map.
    looped = client.runs_create(
        CreateRunRequest(
            workflowId=LOOP,
            inputs={"script": script},
            configurable=RunConfigurable(maxLoopIterations=5, extras={"traceLabel": "nightly"}),
        )
    )
    decided = [e for e in client.runs_events(looped.runId, timeout_seconds=5) if e.type == "runOrchestrator.decided"]
    assert [e.payload["iteration"] for e in decided] == [1, 2]

    evaluated = client.runs_create({"workflowId": "eval", "mode": "eval", "evalSuiteRef": "core.openwop.evals.sample"})
    summary = client.runs_eval_summary(evaluated.runId)
    assert summary is not None and summary.passed and summary.taskCount == 2
    assert client.runs_eval_summary(created.runId) is None  # 404: not an eval run


def test_the_client_sees_error_envelopes(served):
    url = served("no-eval")
    with pytest.raises(WopError) as caught:
        OpenwopClient(url, KEY).runs_create({"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample"})
    assert caught.value.status == 501 and caught.value.envelope.error == "capability_not_provided"
    with pytest.raises(WopError) as caught:
        OpenwopClient(url, "wrong-key").runs_get("run-1")
    assert caught.value.status == 401 and caught.value.envelope.error == "unauthenticated"


def _raw(url: str, request: bytes) -> bytes:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_malformed_and_oversized_requests_get_envelopes_not_tracebacks(served):
    url = served()
    auth = f"Authorization: Bearer {KEY}\r\nConnection: close\r\n".encode()
    body = b"x" * 5_000_000
    head = b"POST /v1/runs HTTP/1.1\r\nHost: x\r\n" + auth + f"Content-Length: {len(body)}\r\n\r\n".encode()
    oversized = _raw(url, head + body)
    assert oversized.startswith(b"HTTP/1.1 400") and b'"validation_error"' in oversized
    malformed = _raw(url, b"POST /v1/runs HTTP/1.1\r\nHost: x\r\n" + auth + b"Content-Length: 5\r\n\r\n{oops")
    assert malformed.startswith(b"HTTP/1.1 400") and b"Traceback" not in malformed
    garbage = _raw(url, b"NOT HTTP AT ALL\r\n\r\n")
    assert b"Traceback" not in garbage and b"<html" not in garbage.lower()
    unknown = _raw(url, b"BREW /pot HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert unknown.startswith(b"HTTP/1.1 404") and b'"not_found"' in unknown
    request = urllib.request.Request(url + "/.well-known/openwop")
    with urllib.request.urlopen(request, timeout=5) as answer:
        assert answer.headers["Cache-Control"] == "public, max-age=300"
        assert json.load(answer)["protocolVersion"] == "1.0"
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(url + "/v1/runs/run-1", timeout=5)
    assert caught.value.code == 401
    assert caught.value.headers["WWW-Authenticate"] == 'Bearer realm="openwop"'  # RFC 6750 challenge
    with urllib.request.urlopen(url + "/.well-known/openwop", timeout=5) as answer:
        assert "WWW-Authenticate" not in answer.headers  # only a 401 carries it


def test_serve_prints_a_generated_key_and_binds_loopback():
    env = {k: v for k, v in os.environ.items() if k != "WOPGEN_API_KEY"}
    command = [sys.executable, "-m", "wopgen", "--root", str(REPO), "host", "serve", "--port", "0", "--quiet"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        first, second = process.stdout.readline(), process.stdout.readline()
        assert first.startswith("serving profile full at http://127.0.0.1:")
        key = second.removeprefix("api key: ").strip()
        assert len(key) >= 24
        url = first.split(" at ")[1].strip()
        client = OpenwopClient(url, key, timeout=5)
        assert client.runs_create(CreateRunRequest(workflowId="conformance-noop")).status == "completed"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_serve_refuses_an_unknown_profile():
    command = [sys.executable, "-m", "wopgen", "--root", str(REPO), "host", "serve", "--profile", "nope"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2 and "--profile" in result.stderr and "Traceback" not in result.stderr


def test_the_published_client_resumes_a_suspended_loop(served):
    """runs_resume() posts to /v1/runs/{runId}:resume, the action form the 1.x client uses."""
    client = OpenwopClient(served("full"), KEY, timeout=10)
    script = {
        "turns": [
            {"decision": {"kind": "ask-user", "prompt": "Which branch?"}},
            {"decision": {"kind": "terminate", "reason": "done"}},
        ]
    }
    run = client.runs_create(CreateRunRequest(workflowId=LOOP, inputs={"script": script}))
    assert client.runs_get(run.runId).status == "waiting-input"
    resumed = client.runs_resume(run.runId, ResumeRunRequest(reason="main"))
    assert (resumed.runId, resumed.status) == (run.runId, "running")
    types = [e.type for e in client.runs_events(run.runId, timeout_seconds=5)]
    assert types[-3:] == ["run.resumed", "runOrchestrator.decided", "run.completed"]
    assert client.runs_get(run.runId).status == "completed"


def test_the_published_client_reads_the_openapi_document_workflows_and_cancels(served):
    url = served("core")
    client = OpenwopClient(url, KEY, timeout=10)
    document = client.discovery_openapi()
    assert document["openapi"].startswith("3.") and "/v1/runs/{runId}/cancel" in document["paths"]
    with urllib.request.urlopen(url + "/.well-known/openwop", timeout=5) as answer:
        listed = json.loads(answer.read())["fixtures"]
    assert "conformance-cancellable" in listed and "conformance-noop" in listed
    for fixture in listed:
        assert client.workflows_get(fixture)["id"] == fixture
    with pytest.raises(WopError) as caught:
        client.workflows_get("no-such-workflow")
    assert caught.value.status == 404

    waiting = client.runs_create(CreateRunRequest(workflowId="conformance-cancellable", inputs={"delayMs": 30000}))
    assert client.runs_get(waiting.runId).status == "running"
    cancelled = client.runs_cancel(waiting.runId, CancelRunRequest(reason="no longer needed"))
    assert (cancelled.runId, cancelled.status) == (waiting.runId, "cancelled")
    assert client.runs_get(waiting.runId).status == "cancelled"
    events = client.runs_poll_events(waiting.runId).events
    assert [e.type for e in events] == ["run.started", "run.cancelled"]
    assert events[-1].payload == {"reason": "no longer needed"}
    assert [e.type for e in client.runs_events(waiting.runId, timeout_seconds=5)][-1] == "run.cancelled"
    with pytest.raises(WopError) as caught:
        client.runs_cancel(waiting.runId)  # a run that has ended
    assert caught.value.status == 409 and caught.value.envelope.error == "conflict"


def test_a_stream_resumes_after_the_event_id_or_the_sequence_the_client_saw(served):
    """The SDKs hand a caller each event's `eventId` and `sequence`; Last-Event-ID may be either."""
    client = OpenwopClient(served("full"), KEY, timeout=10)
    run = client.runs_create(CreateRunRequest(workflowId=LOOP, inputs={"script": {"turns": [stop()]}}))
    events = client.runs_poll_events(run.runId).events
    assert len(events) > 2
    for seen in (events[1].eventId, str(events[1].sequence)):
        resumed = client.runs_events(run.runId, last_event_id=seen, timeout_seconds=5)
        assert [e.eventId for e in resumed] == [e.eventId for e in events[2:]]
    for unknown in ("run-999.e1", f"{run.runId}.e99", "soon"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            list(client.runs_events(run.runId, last_event_id=unknown, timeout_seconds=5))
        assert refused.value.code == 400


def test_a_sequence_below_minus_one_asks_for_every_event(served):
    """lastSequence=N answers the events after N: every one for any N below the first sequence."""
    client = OpenwopClient(served("full"), KEY, timeout=10)
    script = {"turns": [work(), work(), stop()]}
    run = client.runs_create(CreateRunRequest(workflowId=LOOP, inputs={"script": script}))
    every = [e.sequence for e in client.runs_poll_events(run.runId, last_sequence=-1).events]
    assert len(every) > 5
    assert [e.sequence for e in client.runs_poll_events(run.runId, last_sequence=-5).events] == every
    assert [e.sequence for e in client.runs_events(run.runId, last_event_id="-5", timeout_seconds=5)] == every
    assert [e.sequence for e in client.runs_poll_events(run.runId, last_sequence=every[0]).events] == every[1:]


def test_a_catalogue_folder_is_loaded_listed_and_served(make_host, tmp_path):
    folder = tmp_path / "catalogue"
    folder.mkdir()
    noop = json.loads((REPO / "templates/host/fixtures/conformance-noop.json").read_text())
    (folder / "acme-hello.json").write_text(json.dumps({**noop, "id": "acme-hello"}))
    other = {**noop, "id": "acme-llm", "nodes": [{"id": "ask", "typeId": "core.llm"}]}
    (folder / "acme-llm.json").write_text(json.dumps(other))
    host = make_host("core")
    assert host.load_fixtures(folder) == ["acme-hello"]  # a node type this host cannot run is not listed
    listed = call(host, "GET", "/.well-known/openwop").body["fixtures"]
    assert "acme-hello" in listed and "acme-llm" not in listed and "conformance-noop" in listed
    assert call(host, "GET", "/v1/workflows/acme-llm").body["id"] == "acme-llm"
    created = call(host, "POST", "/v1/runs", {"workflowId": "acme-hello"}).body
    assert call(host, "GET", f"/v1/runs/{created['runId']}").body["status"] == "completed"
    assert "acme-hello" not in make_host("core").profile.capabilities["fixtures"]  # other hosts are untouched
    for refused in ("acme-llm", "acme-unknown"):  # served or not, a workflow this host cannot run is refused
        answer = call(host, "POST", "/v1/runs", {"workflowId": refused})
        assert (answer.status, answer.body["error"], answer.body["details"]) == (
            400,
            "validation_error",
            {"field": "workflowId"},
        )
    assert len(host.runs) == 1  # and starts no run

    (folder / "broken.json").write_text(json.dumps({"id": "Broken"}))
    with pytest.raises(ValueError, match=r"broken\.json"):
        make_host("core").load_fixtures(folder)


@pytest.mark.parametrize("option", ["--fixtures", "--suites"])
def test_a_file_nested_too_deeply_is_a_usage_error_naming_it(tmp_path, option):
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    command = ["--root", str(REPO), "host", "serve", "--port", "0", option, str(folder)]
    result = CliRunner().invoke(cli, command, catch_exceptions=False)
    assert result.exit_code == 2, result.output
    assert f"{folder / 'deep.json'}: not " in result.output and "nested too deeply" in result.output

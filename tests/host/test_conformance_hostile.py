"""The conformance client against stub hosts on 127.0.0.1: honest counts, deadlines, budgets, no key leaks."""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from click.testing import CliRunner

from host.host_helpers import KEY, event
from wopgen.cli import cli
from wopgen.conformance.inprocess import SECOND_KEY
from wopgen.conformance.report import as_json, text
from wopgen.conformance.runner import run, summary
from wopgen.conformance.scenarios import BY_NAME, SCENARIOS
from wopgen.conformance.transport import Http, InProcess, TransportError, parse_sse

DISCOVERY = {"protocolVersion": "1.0", "supportedEnvelopes": [], "schemaVersions": {}}
LIMITS = {"clarificationRounds": 0, "schemaRounds": 0, "envelopesPerTurn": 0}
Route = Callable[[BaseHTTPRequestHandler], None]


def send_json(handler: BaseHTTPRequestHandler, status: int, body: Any) -> None:
    data = json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


class Stub:
    """A host made of `routes` ("METHOD /path" -> handler); anything else gets a bare 404."""

    def __init__(self, routes: dict[str, Route]) -> None:
        self.routes = routes
        self.seen: list[tuple[str, str, str]] = []  # method, path, Authorization header
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                stub.seen.append((self.command, self.path, self.headers.get("Authorization", "")))
                route = stub.routes.get(f"{self.command} {self.path.split('?')[0]}")
                if route is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    route(self)

            do_GET = do_POST = _any

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stub() -> Iterator[Callable[[dict[str, Route]], Stub]]:
    made: list[Stub] = []

    def build(routes: dict[str, Route]) -> Stub:
        made.append(Stub(routes))
        return made[-1]

    yield build
    for each in made:
        each.close()


def discovery_only(handler: BaseHTTPRequestHandler) -> None:
    send_json(handler, 200, DISCOVERY)


def test_a_stub_serving_only_discovery_passes_nothing_on_the_host(stub, repo_corpus):
    host = stub({"GET /.well-known/openwop": discovery_only})
    results = run(SCENARIOS, Http(host.url, KEY, timeout=2), repo_corpus)
    counts = summary(results)
    assert counts["passed"] == 0 and counts["corpus-passed"] == len([s for s in SCENARIOS if s.kind == "corpus"])
    behaviour = [r for r in results if r.scenario.kind == "behaviour"]
    assert behaviour and all(r.status == "skipped" and r.message for r in behaviour)
    assert "the host answered no behaviour request" in text(results, host.url)
    core = {r.scenario.name: r for r in results if r.scenario.kind == "core"}
    assert core["core-run-surface"].status == "failed" and len(core["core-run-surface"].findings) > 1
    assert all(":" in f.where for f in core["core-run-surface"].findings)  # each cites file:line
    assert core["core-run-cancel"].status == "skipped"  # no cancellable fixture listed

    strict = run(SCENARIOS, Http(host.url, KEY, timeout=2), repo_corpus, strict=True)
    assert all(r.status == "failed" for r in strict if r.scenario.kind == "behaviour")
    assert summary(strict)["passed"] == 0


def _never_closing_host(stub: Callable[[dict[str, Route]], Stub], stream: Route | None = None) -> Stub:
    def discovery(handler: BaseHTTPRequestHandler) -> None:
        send_json(handler, 200, {**DISCOVERY, "limits": LIMITS, "fixtures": ["conformance-noop"]})

    def create(handler: BaseHTTPRequestHandler) -> None:
        send_json(handler, 201, {"runId": "r1", "status": "completed", "eventsUrl": "/v1/runs/r1/events"})

    def snapshot(handler: BaseHTTPRequestHandler) -> None:
        send_json(handler, 200, {"runId": "r1", "workflowId": "conformance-noop", "status": "completed"})

    def poll(handler: BaseHTTPRequestHandler) -> None:
        done = "lastSequence" in handler.path
        events = [] if done else [event(0, "run.started"), event(1, "run.completed")]
        send_json(handler, 200, {"events": events, "isComplete": True})

    def heartbeats(handler: BaseHTTPRequestHandler) -> None:  # one event, then heartbeats forever
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        handler.wfile.write(f"id: 0\nevent: run.started\ndata: {json.dumps(event(0, 'run.started'))}\n\n".encode())
        while True:
            handler.wfile.write(b": keep-alive\n\n")
            handler.wfile.flush()
            time.sleep(0.05)

    return stub(
        {
            "GET /.well-known/openwop": discovery,
            "POST /v1/runs": create,
            "GET /v1/runs/r1": snapshot,
            "GET /v1/runs/r1/events/poll": poll,
            "GET /v1/runs/r1/events": stream or heartbeats,
        }
    )


def test_a_stream_that_never_closes_is_cut_at_the_deadline(stub, repo_corpus):
    host = _never_closing_host(stub)
    start = time.monotonic()
    results = run([BY_NAME["core-run-surface"]], Http(host.url, KEY, timeout=1.0), repo_corpus)
    assert time.monotonic() - start < 8
    messages = [f.message + (f.exchange.excerpt if f.exchange else "") for f in results[0].findings]
    assert any("did not reach a terminal event" in m for m in messages), messages


def _stream_then(after: Callable[[BaseHTTPRequestHandler], None]) -> Route:
    """A stream route that sends the run's two events, run.completed last, then does `after`."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        for each in (event(0, "run.started"), event(1, "run.completed")):
            handler.wfile.write(f"id: {each['sequence']}\nevent: {each['type']}\ndata: {json.dumps(each)}\n\n".encode())
        handler.wfile.flush()
        after(handler)

    return route


def _hold_silently(handler: BaseHTTPRequestHandler) -> None:
    time.sleep(3)


def _hold_with_keep_alives(handler: BaseHTTPRequestHandler) -> None:
    ends = time.monotonic() + 3
    while time.monotonic() < ends:
        handler.wfile.write(b": keep-alive\n\n")
        handler.wfile.flush()
        time.sleep(0.05)


@pytest.mark.parametrize("hold", [_hold_silently, _hold_with_keep_alives])
def test_a_stream_left_open_after_the_terminal_event_fails_sse_closes(stub, repo_corpus, hold):
    """The runner stopped reading at run.completed and closed the stream itself, so this could not fail."""
    host = _never_closing_host(stub, _stream_then(hold))
    start = time.monotonic()
    reply = Http(host.url, KEY, timeout=0.5).stream("/v1/runs/r1/events")
    assert time.monotonic() - start < 1.5  # bounded by --timeout, not by the host
    assert [e["type"] for e in reply.body] == ["run.started", "run.completed"]
    assert reply.problem == "the host did not close the stream within the request deadline after run.completed"
    (result,) = run([BY_NAME["core-run-surface"]], Http(host.url, KEY, timeout=0.5), repo_corpus)
    closes = [f for f in result.findings if f.clause == "sse-closes"]
    assert len(closes) == 1 and closes[0].where.endswith("run-surface.md:57")
    assert "did not close the stream" in closes[0].message


def _reset(handler: BaseHTTPRequestHandler) -> None:
    handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    handler.connection.close()  # an RST, not a FIN: the stream still ends


@pytest.mark.parametrize("after", [lambda handler: None, _reset])
def test_a_stream_closed_after_the_terminal_event_passes_sse_closes(stub, repo_corpus, after):
    host = _never_closing_host(stub, _stream_then(after))
    reply = Http(host.url, KEY, timeout=2).stream("/v1/runs/r1/events")
    assert (reply.problem, len(reply.body)) == ("", 2)
    (result,) = run([BY_NAME["core-run-surface"]], Http(host.url, KEY, timeout=2), repo_corpus)
    assert [f for f in result.findings if f.clause == "sse-closes"] == []


def test_an_in_process_stream_going_on_after_the_terminal_event_is_reported():
    class Answer:
        status, headers = 200, {"Content-Type": "text/event-stream"}

        def __init__(self, tail: int) -> None:
            self.tail = tail

        @property
        def stream(self) -> Iterator[bytes]:
            for each in (event(0, "run.started"), event(1, "run.completed")):
                yield f"data: {json.dumps(each)}\n\n".encode()
            yield from [b": keep-alive\n\n"] * self.tail

    class Host:
        tail = 0

        def handle(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Answer:
            return Answer(self.tail)

    host = Host()
    transport = InProcess(host, KEY, "fake")
    assert transport.stream("/v1/runs/r1/events").problem == ""
    host.tail = 10_000
    reply = transport.stream("/v1/runs/r1/events")
    assert len(reply.body) == 2 and reply.problem == "the stream went on after run.completed"


def test_the_whole_run_stops_at_its_deadline(stub, repo_corpus):
    host = _never_closing_host(stub)
    start = time.monotonic()
    transport = Http(host.url, KEY, timeout=1.0, deadline=time.monotonic() + 0.8)
    results = run(list(SCENARIOS), transport, repo_corpus, deadline=transport.deadline)
    assert time.monotonic() - start < 6
    assert any(r.message == "not run: the whole run's deadline passed" for r in results)


def test_a_flood_of_events_is_read_within_the_byte_budget_and_reported_as_an_excerpt(stub, repo_corpus):
    def flood(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        sequence = 0
        while True:
            frame = event(sequence, "node.progressed") | {"pad": "x" * 500}
            handler.wfile.write(f"data: {json.dumps(frame)}\n\n".encode())
            sequence += 1

    host = _never_closing_host(stub, flood)
    reply = Http(host.url, KEY, timeout=5.0, stream_bytes=256 * 1024).stream("/v1/runs/r1/events")
    assert "more than 262144 bytes" in reply.problem or len(reply.body) == 2000
    assert len(reply.body) <= 2000 and len(json.dumps(reply.body)) < 2_000_000
    transport = Http(host.url, KEY, timeout=5.0, stream_bytes=256 * 1024)
    results = run([BY_NAME["core-run-surface"]], transport, repo_corpus)
    streamed = [f for f in results[0].findings if f.exchange and f.exchange.path.endswith("/events")]
    assert streamed and all(len(f.exchange.excerpt) < 400 for f in streamed if f.exchange)
    assert len(as_json(results, host.url, False)) < 20_000  # excerpts, never the stream


def test_a_redirect_to_another_origin_is_refused_and_the_key_stays_home(stub, repo_corpus):
    elsewhere = stub({})

    def away(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(307)
        handler.send_header("Location", elsewhere.url + handler.path)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    host = stub({"GET /.well-known/openwop": discovery_only, "POST /v1/runs": away, "GET /v1/runs/r1": away})
    transport = Http(host.url, KEY, timeout=2)
    results = run([BY_NAME["core-run-surface"]], transport, repo_corpus)
    assert elsewhere.seen == []  # nothing, and so no key, reached the other origin
    assert transport.refused_redirects and all("another origin" in r for r in transport.refused_redirects)
    report = json.loads(as_json(results, host.url, False, transport.refused_redirects))
    assert report["refusedRedirects"] == transport.refused_redirects
    excerpts = [f["request"]["bodyExcerpt"] for f in report["scenarios"][0]["failures"] if "request" in f]
    assert any("another origin" in e for e in excerpts)


def test_a_same_origin_redirect_is_followed(stub):
    def moved(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(308)
        handler.send_header("Location", "/v1/here")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    host = stub({"GET /v1/there": moved, "GET /v1/here": lambda h: send_json(h, 200, {"ok": True})})
    reply = Http(host.url, KEY, timeout=2).request("GET", "/v1/there")
    assert (reply.status, reply.body) == (200, {"ok": True})
    assert [p for _, p, auth in host.seen] == ["/v1/there", "/v1/here"]


def test_a_wrong_api_key_is_one_clear_error(served, repo_corpus):
    result = CliRunner().invoke(
        cli, ["--root", str(repo_corpus.root), "conformance", "--url", served("core"), "--api-key", "wrong"]
    )
    assert result.exit_code == 2
    assert result.output.count("refused the API key") == 1 and "FAIL" not in result.output


@pytest.mark.parametrize(
    ("second", "said"),
    [
        ("no-such-key", "refused the second API key (HTTP 401): check --second-api-key"),
        (KEY, "Invalid value for --second-api-key: it is the --api-key"),
    ],
)
def test_a_second_api_key_that_cannot_be_of_another_owner_is_one_clear_error(served, repo_corpus, second, said):
    """A 401 to the second key was reported as the host's owner-scope breach (run-surface.md:27 is about a
    valid key of another scope); the primary key itself reads its own runs, as it should."""
    url = served("core")
    result = CliRunner().invoke(
        cli,
        [
            *("--root", str(repo_corpus.root), "conformance", "--url", url, "--api-key", KEY),
            *("--second-api-key", second, "--select", "core-run-surface"),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 2, result.output
    assert result.output.count(said) == 1 and "FAIL" not in result.output


def test_a_second_api_key_the_host_takes_runs_the_owner_scope_checks(served, repo_corpus):
    result = CliRunner().invoke(
        cli,
        [
            *("--root", str(repo_corpus.root), "conformance", "--url", served("core"), "--api-key", KEY),
            *("--second-api-key", SECOND_KEY, "--select", "core-run-surface", "--format", "json"),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    (scenario,) = json.loads(result.output)["scenarios"]
    assert scenario["status"] == "passed" and scenario["requests"] > 0


def test_cli_timeout_options_bound_a_run(stub, repo_corpus):
    host = _never_closing_host(stub)
    start = time.monotonic()
    result = CliRunner().invoke(
        cli,
        [
            *("--root", str(repo_corpus.root), "conformance", "--url", host.url, "--api-key", KEY),
            *("--timeout", "1", "--max-seconds", "2", "--format", "json"),
        ],
    )
    assert time.monotonic() - start < 8
    assert result.exit_code == 1, result.output
    assert json.loads(result.output)["summary"]["passed"] == 0


def test_a_gated_scenario_whose_seam_is_not_wired_soft_skips(stub, repo_corpus):
    def discovery(handler: BaseHTTPRequestHandler) -> None:
        model = {"supported": True, "version": 5}
        send_json(
            handler,
            200,
            {
                **DISCOVERY,
                "limits": LIMITS,
                "multiAgent": {"executionModel": model},
                "host": {"workspace": {"supported": True}},
            },
        )

    host = stub({"GET /.well-known/openwop": discovery})  # the agent-loop seam answers 404
    (result,) = run([BY_NAME["agent-loop-workspace-snapshot"]], Http(host.url, KEY, timeout=2), repo_corpus)
    assert result.status == "skipped"
    assert "/v1/host/sample/agentloop/run is not wired (HTTP 404)" in result.message


def trickle(head: bytes, unit: bytes) -> Route:
    """A route that writes `head`, then `unit` every 0.1 s: each piece comes well within a socket timeout,
    yet the answer never ends (the stub gives up after 8 s, so a client without a deadline fails, not hangs)."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.wfile.write(head)
        ends = time.monotonic() + 8
        while time.monotonic() < ends:
            handler.wfile.write(unit)
            time.sleep(0.1)

    return route


@pytest.mark.parametrize(
    ("head", "unit"),
    [
        (b"", b"H"),  # a status line that never ends
        (b"HTTP/1.1 200 OK\r\nX-A: ", b"a"),  # a header value that never ends
        (b"HTTP/1.1 200 OK\r\n", b"X-B: b\r\n"),  # headers that never end
    ],
)
def test_an_answer_trickled_a_byte_at_a_time_is_cut_at_the_request_deadline(stub, head, unit):
    host = stub({"GET /.well-known/openwop": trickle(head, unit)})
    start = time.monotonic()
    with pytest.raises(TransportError, match="did not end within the request deadline"):
        Http(host.url, KEY, timeout=0.5).request("GET", "/.well-known/openwop")
    assert time.monotonic() - start < 2


def test_a_body_trickled_a_byte_at_a_time_is_cut_at_the_request_deadline(stub):
    host = stub({"GET /slow": trickle(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n[", b" ")})
    start = time.monotonic()
    reply = Http(host.url, KEY, timeout=0.5).request("GET", "/slow")
    assert time.monotonic() - start < 2
    assert reply.status == 200 and reply.problem == "the answer did not end within the request deadline"


def test_a_host_trickling_every_answer_ends_the_run_at_max_seconds(stub, repo_corpus):
    slow = trickle(b"HTTP/1.1 200 OK\r\n", b"X-B: b\r\n")
    paths = ("POST /v1/runs", "GET /v1/runs/r1", "GET /v1/runs/r1/events/poll", "GET /v1/runs/r1/events")
    host = stub({"GET /.well-known/openwop": discovery_only} | dict.fromkeys(paths, slow))
    start = time.monotonic()
    result = CliRunner().invoke(
        cli,
        [
            *("--root", str(repo_corpus.root), "conformance", "--url", host.url, "--api-key", KEY),
            *("--timeout", "1", "--max-seconds", "2", "--format", "json"),
        ],
    )
    assert time.monotonic() - start < 5
    assert result.exit_code == 1, result.output
    scenarios = json.loads(result.output)["scenarios"]
    assert any(s["message"] == "not run: the whole run's deadline passed" for s in scenarios)


def test_a_discovery_document_trickled_for_ever_is_a_clear_usage_error(stub, repo_corpus):
    host = stub({"GET /.well-known/openwop": trickle(b"HTTP/1.1 200 OK\r\nX-A: ", b"a")})
    start = time.monotonic()
    result = CliRunner().invoke(
        cli,
        [
            *("--root", str(repo_corpus.root), "conformance", "--url", host.url, "--api-key", KEY),
            *("--timeout", "1", "--max-seconds", "5"),
        ],
    )
    assert time.monotonic() - start < 3
    assert result.exit_code == 2, result.output
    assert "cannot reach" in result.output and "did not end within the request deadline" in result.output


def _raw(body: bytes, announced: int | None = None) -> Route:
    """A route answering 200 with the bytes `body` as JSON, announced as `announced` bytes (by default
    their length), then closing the connection."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body) if announced is None else announced))
        handler.end_headers()
        handler.wfile.write(body)
        handler.close_connection = True

    return route


DEEP = b"[" * 100_000 + b"]" * 100_000  # JSON nested far deeper than the interpreter's recursion limit


def test_json_nested_too_deeply_is_an_undecodable_answer_not_a_traceback(stub, repo_corpus):
    host = stub({"GET /.well-known/openwop": _raw(DEEP)})
    reply = Http(host.url, KEY, timeout=2).request("GET", "/.well-known/openwop")
    assert reply.status == 200 and isinstance(reply.body, str) and reply.body.startswith("[[[")
    result = CliRunner().invoke(
        cli,
        ["--root", str(repo_corpus.root), "conformance", "--url", host.url, "--api-key", KEY],
        catch_exceptions=False,
    )
    assert result.exit_code == 2, result.output
    assert "GET /.well-known/openwop answered 200, not a discovery document" in result.output


def test_an_event_nested_too_deeply_is_skipped_like_any_event_that_is_not_json():
    frames = [b"data: " + DEEP + b"\n", b"\n", b'data: {"type": "run.completed"}\n', b"\n"]
    assert list(parse_sse(frames)) == [{"type": "run.completed"}]


_cut_short = _raw(b'{"protocolVersion": "1.0", "supp', announced=1000)


def _too_long(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.end_headers()
    handler.wfile.write(b'{"protocolVersion": "' + b"1" * (5 * 1024 * 1024) + b'"}')
    handler.close_connection = True


@pytest.mark.parametrize(
    ("route", "why"),
    [
        (_cut_short, "the connection closed 968 bytes before the end its Content-Length announced"),
        (_too_long, "the answer is longer than 4194304 bytes"),
    ],
)
def test_a_discovery_document_cut_short_says_why(stub, repo_corpus, route, why):
    """The answer was called "not a discovery document", as if the host had sent the wrong one."""
    host = stub({"GET /.well-known/openwop": route})
    result = CliRunner().invoke(
        cli,
        ["--root", str(repo_corpus.root), "conformance", "--url", host.url, "--api-key", KEY, "--timeout", "5"],
        catch_exceptions=False,
    )
    assert result.exit_code == 2, result.output
    assert "answered 200, not a discovery document (" in result.output and why in result.output


def test_a_body_shorter_than_its_content_length_is_reported_even_when_it_parses(stub):
    reply = Http(stub({"GET /v1/runs/x": _raw(b"{}", announced=100)}).url, KEY, timeout=2).request("GET", "/v1/runs/x")
    assert (reply.status, reply.body) == (200, {})
    assert reply.problem == "the connection closed 98 bytes before the end its Content-Length announced"


def test_nan_and_infinity_are_no_json_in_an_answer_or_an_event(stub):
    """RFC 8259 has no NaN or Infinity, though Python's reader takes them: an answer holding one is read
    as the text it is, as any other answer that is not JSON, and such an event is skipped."""
    body = b'{"a": NaN, "b": 1}'
    host = stub({"GET /.well-known/openwop": _raw(body)})
    reply = Http(host.url, KEY, timeout=2).request("GET", "/.well-known/openwop")
    assert reply.status == 200 and reply.body == body.decode()
    frames = [b'data: {"x": -Infinity}\n', b"\n", b'data: {"type": "run.completed"}\n', b"\n"]
    assert list(parse_sse(frames)) == [{"type": "run.completed"}]

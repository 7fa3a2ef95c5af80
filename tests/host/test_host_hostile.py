"""The generated host under hostile input: bounded work, owner scopes, a bounded store, strict HTTP and JSON.

Each test pins one way a client could once make the host do unbounded work, read another owner's
data, or get an answer that is not an error envelope. Time budgets are loose on purpose: they
separate "linear and capped" from "seconds per kilobyte", not one fast machine from another.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from host.host_helpers import AUTH, KEY, REPO, call, loop_request, stop, work
from wopgen.cli import cli
from wopgen.conformance import inprocess
from wopgen.conformance.inprocess import SECOND_KEY, load_package
from wopgen.conformance.scenarios.verification import PASSING, finding, gate, judged, request

SEAM = "/v1/host/sample/verification/run"
SUITE = "core.openwop.evals.sample"
OTHER = {"Authorization": f"Bearer {SECOND_KEY}"}


def cpu(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.process_time()
    value = fn()
    return value, time.process_time() - start


def as_other(host: Any, method: str, path: str, body: Any = None) -> Any:
    return host.handle(method, path, OTHER, b"" if body is None else json.dumps(body).encode())


# --- bounded work per request -------------------------------------------------------------


def test_marked_lines_grade_in_linear_time_with_few_findings(make_host):
    host = make_host()
    output = "\n".join(f"TODO step {n} is not written yet" for n in range(20_000))  # ~680 KB
    answer, seconds = cpu(lambda: call(host, "POST", SEAM, request(gate(), judged(PASSING, output=output))))
    assert answer.status == 200, answer.body
    assert seconds < 10, f"grading 20,000 marked lines took {seconds:.1f} s of CPU"
    attempt = answer.body["attempts"][0]
    found = call(host, "GET", f"/v1/runs/{answer.body['runId']}/verifications/{attempt['resultId']}").body
    marked = [f for f in found["findings"] if f["evidence"][0]["evidenceType"] == "line_reference"]
    assert len(marked) == 9  # eight lines one by one, then one finding counting the other 19,992
    assert marked[-1]["description"].startswith("19992 ") and marked[-1]["evidence"][0]["line"] == 9


def test_a_huge_turn_count_is_refused_at_once(make_host):
    answer, seconds = cpu(lambda: call(make_host(), "POST", "/v1/host/sample/agentloop/run", {"turns": 100_000}))
    assert (answer.status, answer.body["error"]) == (400, "validation_error")
    assert "maximum of 100" in json.dumps(answer.body) and seconds < 1


def test_a_script_holds_a_bounded_number_of_turns(make_host):
    host = make_host()
    assert call(host, "POST", "/v1/runs", loop_request(*[work()] * 255, stop())).status == 201
    refused = call(host, "POST", "/v1/runs", loop_request(*[work()] * 256, stop()))
    assert (refused.status, refused.body["details"]) == (400, {"field": "inputs.script.turns"})


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/host/sample/agents/eval-run", {"taskCount": 201}),
        (SEAM, request(gate(), *[judged(PASSING)] * 17)),
        (SEAM, request(gate(), judged({**PASSING, "findings": [finding("advisory")] * 17}))),
        (SEAM, request(gate(maxAttempts=17), judged(PASSING))),
        (SEAM, request(gate(quorum={"verifierCount": 17, "quorumStrategy": "any"}), judged(PASSING))),
    ],
    ids=["tasks", "attempts", "scripted-findings", "max-attempts", "verifiers"],
)
def test_every_count_a_client_controls_has_a_maximum(make_host, path, body):
    answer = call(make_host(), "POST", path, body)
    assert (answer.status, answer.body["error"]) == (400, "validation_error"), answer.body


def test_a_request_over_its_cpu_budget_gets_a_clear_error_and_its_run_fails(make_host):
    host = make_host(request_cpu_seconds=0.001)
    output = "\n".join(f"line {n} of a long answer" for n in range(30_000))
    answer = call(host, "POST", SEAM, request(gate(maxAttempts=5), judged(PASSING, output=output)))
    assert (answer.status, answer.body["error"]) == (400, "validation_error")
    assert answer.body["details"]["budgetSeconds"] == 0.001
    run_id = answer.body["details"].get("runId")
    if run_id is not None:  # the budget ran out after the run was made: it is failed, not left running
        snapshot = call(host, "GET", f"/v1/runs/{run_id}").body
        assert (snapshot["status"], snapshot["error"]["code"]) == ("failed", "budget_exceeded")
    assert call(make_host(), "POST", SEAM, request(gate(), judged(PASSING, output=output))).status == 200


class _Clocks:
    """A wall clock and a thread CPU clock the test moves by hand, counting reads of the CPU clock."""

    def __init__(self) -> None:
        self.wall, self.cpu, self.cpu_reads = 0.0, 0.0, 0

    def perf_counter(self) -> float:
        return self.wall

    def thread_time(self) -> float:
        self.cpu_reads += 1
        return self.cpu


def test_the_budget_reads_the_cpu_clock_only_once_it_could_be_used_up(module, monkeypatch):
    budget = module.budget
    clocks = _Clocks()
    monkeypatch.setattr(budget, "time", clocks)
    with budget.budget(1.0):
        reads = clocks.cpu_reads
        clocks.wall, clocks.cpu = 0.9, 0.9
        for _ in range(50):
            budget.spend()  # less than a second has passed: less than a second of CPU can have been used
        assert clocks.cpu_reads == reads
        clocks.wall, clocks.cpu = 1.5, 0.4  # a second has passed, but the thread waited most of it
        budget.spend()
        assert clocks.cpu_reads == reads + 1
        clocks.wall = 2.0  # the 0.6 s of CPU left cannot be used before 2.1
        budget.spend()
        assert clocks.cpu_reads == reads + 1
        clocks.wall, clocks.cpu = 2.2, 1.01
        with pytest.raises(budget.OverBudget):
            budget.spend()
    budget.spend()  # no budget outside the block
    assert clocks.cpu_reads == reads + 2


# --- owner scopes -----------------------------------------------------------------------------


def test_a_baseline_of_another_scope_reads_as_unknown(make_host):
    host = make_host(other_keys=[SECOND_KEY])
    mine = call(host, "POST", "/v1/runs", {"mode": "eval", "evalSuiteRef": SUITE}).body["runId"]
    ask = {"mode": "eval", "evalSuiteRef": SUITE, "configurable": {"baselineRunId": mine}}
    assert call(host, "POST", "/v1/runs", ask).status == 201  # the owner may compare with its own run
    foreign = as_other(host, "POST", "/v1/runs", ask)
    unknown = as_other(host, "POST", "/v1/runs", {**ask, "configurable": {"baselineRunId": "run-999"}})
    assert foreign.status == unknown.status == 400
    assert foreign.body == unknown.body  # nothing tells a foreign run from a missing one, no score comes back


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/host/sample/agentloop/run", {"turns": 2}),
        ("/v1/host/sample/agents/verify-run", {"simulateVerdict": "pass"}),
        ("/v1/host/sample/agents/eval-run", {}),
        (SEAM, request(gate(), judged(PASSING))),
    ],
    ids=["agentloop", "verify", "eval", "verification"],
)
def test_seam_runs_belong_to_the_key_that_started_them(make_host, path, body):
    host = make_host(other_keys=[SECOND_KEY])
    run_id = call(host, "POST", path, body).body["runId"]
    assert call(host, "GET", f"/v1/runs/{run_id}").status == 200
    foreign = as_other(host, "GET", f"/v1/runs/{run_id}")
    assert (foreign.status, foreign.body["error"]) == (404, "not_found")


RUN_OPERATIONS = [  # each operation under /v1/runs/{runId}, with what the run's owner gets from it
    ("GET", "/v1/runs/{}", 200),
    ("GET", "/v1/runs/{}/events", 200),
    ("GET", "/v1/runs/{}/events/poll?lastSequence=-1", 200),
    ("GET", "/v1/runs/{}/eval-summary", 200),
    ("GET", "/v1/runs/{}/verifications/vr-1", 404),  # the owner's run has no such result
    ("POST", "/v1/runs/{}/resume", 409),
    ("POST", "/v1/runs/{}:resume", 409),
    ("POST", "/v1/runs/{}/cancel", 409),
]


@pytest.mark.parametrize(("method", "template", "owner_status"), RUN_OPERATIONS, ids=[t for _, t, _ in RUN_OPERATIONS])
def test_a_foreign_run_answers_exactly_as_an_unknown_one(make_host, method, template, owner_status):
    """RFC 0902: no answer tells another scope whether a run id exists (same status, headers and bytes)."""
    host = make_host(other_keys=[SECOND_KEY])
    mine = call(host, "POST", "/v1/runs", {"mode": "eval", "evalSuiteRef": SUITE}).body["runId"]
    unknown_id = "run-" + "9" * len(mine.removeprefix("run-"))  # as long as a real id, so the bodies compare
    body = {} if method == "POST" else None
    foreign = as_other(host, method, template.format(mine), body)
    unknown = as_other(host, method, template.format(unknown_id), body)
    assert foreign.status == unknown.status == 404
    assert foreign.headers == unknown.headers
    assert foreign.encoded().replace(mine.encode(), unknown_id.encode()) == unknown.encoded()
    owner = call(host, method, template.format(mine), body)
    assert owner.status == owner_status  # the run is there, for its owner
    if owner.stream is not None:
        owner.stream.close()


def test_an_idempotency_key_starts_one_run_per_owner_scope(make_host):
    """operations.yaml: a retry with the same Idempotency-Key starts no second run; another body is a 409
    idempotency_key_mismatch, the code the published idempotency contract and its reference hosts use."""
    host = make_host(other_keys=[SECOND_KEY], max_runs=3)
    body = {"workflowId": "conformance-noop", "inputs": {"nonce": "a"}}

    def post(auth: dict[str, str], sent: Any, key: str = "k-1", indent: int | None = None) -> Any:
        return host.handle(
            "POST", "/v1/runs", {**auth, "Idempotency-Key": key}, json.dumps(sent, indent=indent).encode()
        )

    first = post(AUTH, body)
    again = post(AUTH, body, indent=2)  # the same JSON, spelt otherwise
    assert (first.status, again.status) == (201, 201) and again.body == first.body
    assert again.headers["OpenWOP-Idempotent-Replay"] == "true" and "OpenWOP-Idempotent-Replay" not in first.headers
    changed = post(AUTH, {**body, "inputs": {"nonce": "b"}})
    assert (changed.status, changed.body["error"]) == (409, "idempotency_key_mismatch")
    theirs = post(OTHER, body)  # the same key in another scope is another key, and tells nothing of the first
    assert theirs.status == 201 and theirs.body["runId"] != first.body["runId"]
    assert len(host.runs) == 2
    for n in range(10):  # the keys kept are bounded like the runs
        post(AUTH, body, key=f"k-{n + 2}")
    assert len(host._idempotent) <= 3


def test_a_retry_while_the_first_request_is_answered_is_told_to_wait(make_host, monkeypatch):
    """A request with a key whose first request is still being answered starts no run: 409
    idempotency_in_flight, with the seconds to wait in details.retryAfter and Retry-After."""
    host = make_host()
    sent = json.dumps({"workflowId": "conformance-noop"}).encode()
    headers = {**AUTH, "Idempotency-Key": "k-1"}
    start, during = host.start_run, []

    def start_run(body: Any, owner: Any = None) -> Any:
        during.append(host.handle("POST", "/v1/runs", headers, sent))  # the retry lands while the first runs
        return start(body, owner=owner)

    monkeypatch.setattr(host, "start_run", start_run)
    first = host.handle("POST", "/v1/runs", headers, sent)
    (retry,) = during
    assert first.status == 201 and len(host.runs) == 1
    assert (retry.status, retry.body["error"]) == (409, "idempotency_in_flight")
    assert retry.body["details"]["retryAfter"] == int(retry.headers["Retry-After"]) > 0
    monkeypatch.undo()
    again = host.handle("POST", "/v1/runs", headers, sent)  # once answered, the retry gets the first answer
    assert again.status == 201 and again.body == first.body and len(host.runs) == 1


def test_a_mutant_binds_loopback_only_and_warns(module, capsys):
    host = module.Host("mutant-auth-not-enforced", api_key=KEY)
    with pytest.raises(ValueError, match=r"127\.0\.0\.1"):
        module.make_server(host, "127.0.0.2", 0, quiet=True)  # loopback too, yet not the one address allowed
    server = module.make_server(host, "127.0.0.1", 0, quiet=True)
    server.server_close()
    warned = capsys.readouterr().err
    assert "warning: profile mutant-auth-not-enforced" in warned
    assert ".)" not in warned and "); never serve it to real clients" in warned  # one sentence, one full stop
    honest = module.make_server(module.Host("full", api_key=KEY), "127.0.0.1", 0, quiet=True)
    honest.server_close()
    assert "warning" not in capsys.readouterr().err


def test_the_cli_refuses_to_serve_a_mutant_beyond_loopback(monkeypatch):
    def interrupted(self: Any, *args: Any) -> None:
        raise KeyboardInterrupt  # a host that did start is stopped at once, so the test cannot hang

    def loaded(files: Any, package: str) -> Any:
        module = load_package(files, package)
        monkeypatch.setattr(module.server.WopServer, "serve_forever", interrupted)
        return module

    monkeypatch.setattr(inprocess, "load_package", loaded)
    args = ["--root", str(REPO), "host", "serve", "--profile", "mutant-auth-not-enforced", "--host", "127.0.0.2"]
    result = CliRunner().invoke(cli, [*args, "--port", "0", "--api-key", "k"])
    assert result.exit_code == 2 and "bind 127.0.0.1 only" in result.output


# --- a bounded run store and capped streams -----------------------------------------------------


def test_the_oldest_finished_runs_are_evicted_past_the_count(make_host):
    host = make_host(max_runs=5)
    first = host.runs[call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"}).body["runId"]]
    ids = [first.run_id] + [
        call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"}).body["runId"] for _ in range(7)
    ]
    assert [call(host, "GET", f"/v1/runs/{i}").status for i in ids] == [404] * 3 + [200] * 5
    assert first.engine is None  # no engine-run cycle keeps an evicted run's memory until a full collection
    store = call(host, "GET", "/.well-known/openwop").body["extensions"]["wopgen"]["runStore"]
    assert store["maxRuns"] == 5


def test_the_run_store_keeps_to_its_byte_budget(make_host):
    host = make_host(max_run_bytes=200_000)
    big = {"workflowId": "conformance-noop", "inputs": {"blob": "x" * 10_000}}  # ~30 KB a run: request, event, output
    ids = [call(host, "POST", "/v1/runs", big).body["runId"] for _ in range(20)]
    kept = [i for i in ids if i in host.runs]
    assert 3 <= len(kept) <= 7 and kept == ids[-len(kept) :]
    assert sum(run.weight() for run in host.runs.values()) <= 200_000


def test_a_run_is_weighed_as_it_grows(make_host, module):
    """The store weighs what a run gains after it started: its events, its output and its results."""
    runs = module.runs
    run = runs.Run("run-w", "w", {"workflowId": "w"})
    empty = run.weight()
    run.start({})
    started = run.weight()
    assert started >= empty + runs.ENVELOPE_BYTES
    run.verifications["run-w.vr1"] = {"findings": ["y" * 10_000]}
    graded = run.weight()
    assert graded >= started + 10_000
    run.complete({"blob": "z" * 10_000})  # the output, and the run.completed event that carries it
    assert run.weight() >= graded + 20_000 + runs.ENVELOPE_BYTES

    # Through the host: a gate run whose request the store keeps small, but whose events (the output) and
    # results (each verifier's findings quote the marked lines) are large.
    host = make_host(max_run_bytes=100_000)
    marked = "\n".join(f"TODO {n} " + "m" * 990 for n in range(8))
    body = request(
        gate(quorum={"verifierCount": 3, "quorumStrategy": "majority"}, maxAttempts=1), judged(output=marked)
    )
    ids = [call(host, "POST", "/v1/host/sample/verification/run", body).body["runId"] for _ in range(6)]
    kept = [i for i in ids if i in host.runs]
    one = host.runs[ids[-1]]
    # The output once in its agent.decided event, its marked lines once more in the results (the verifiers
    # quote the same lines: a line shared in memory counts once).
    assert host._weights[one.run_id] == one.weight() >= 2 * len(marked)
    assert len(kept) < len(ids) and kept == ids[-len(kept) :]
    assert sum(run.weight() for run in host.runs.values()) <= 100_000


def test_unfinished_runs_are_never_evicted_and_new_ones_wait_for_room(make_host):
    host = make_host(max_runs=2, deferred=True)
    first = call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"}).body["runId"]
    call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"})
    full = call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"})
    assert (full.status, full.body["error"]) == (503, "capacity_exhausted")
    assert full.headers["Retry-After"] == "1" and full.body["details"] == {"maxRuns": 2, "maxRunBytes": 32 * 2**20}
    host.drain()
    assert call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"}).status == 201
    assert first not in host.runs


def test_event_streams_are_capped_with_a_clear_answer(make_host):
    host = make_host(max_streams=1, deferred=True)
    run_id = call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"}).body["runId"]
    first = call(host, "GET", f"/v1/runs/{run_id}/events")
    assert first.status == 200 and first.stream is not None
    second = call(host, "GET", f"/v1/runs/{run_id}/events")
    assert (second.status, second.body["error"]) == (503, "capacity_exhausted")
    assert second.headers["Retry-After"] == "1"
    assert second.body["details"] == {"maxEventStreams": 1}
    host.drain()
    assert b"run.completed" in b"".join(first.stream)  # the stream ends with the run and frees its slot
    assert call(host, "GET", f"/v1/runs/{run_id}/events").status == 200


# --- strict JSON ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b'{"workflowId": "conformance-noop", "inputs": {"x": NaN}}',
        b'{"workflowId": "conformance-noop", "inputs": {"x": Infinity}}',
        b'{"workflowId": "conformance-noop", "inputs": {"x": -Infinity}}',
        b'{"workflowId": "conformance-noop", "inputs": {"x": 1e999}}',
        b'{"workflowId": "conformance-noop", "inputs": {"x": 1' + b"0" * 400 + b"}}",
        b'{"workflowId": "conformance-noop", "inputs": {"x": ' + b"[" * 5000 + b"]" * 5000 + b"}}",
        b'{"workflowId": "conformance-noop", "inputs": {"x": ' + b"[" * 64 + b"]" * 64 + b"}}",
    ],
    ids=["nan", "infinity", "minus-infinity", "overflowing-float", "overflowing-int", "deep-5000", "deep-66"],
)
def test_bodies_are_strict_json(make_host, raw):
    answer = make_host().handle("POST", "/v1/runs", AUTH, raw)
    assert (answer.status, answer.body["error"]) == (400, "validation_error"), answer.body
    json.loads(answer.encoded())


def test_nesting_within_the_depth_limit_is_accepted(make_host):
    raw = b'{"workflowId": "conformance-noop", "inputs": {"x": ' + b"[" * 60 + b"]" * 60 + b"}}"
    assert make_host().handle("POST", "/v1/runs", AUTH, raw).status == 201


def test_an_answer_that_cannot_be_json_is_never_sent_as_such(module):
    with pytest.raises(ValueError):
        module.Response(200, {"x": float("nan")}).encoded()


# --- strict HTTP over a socket --------------------------------------------------------------------


@pytest.fixture
def address(module: Any) -> Iterator[tuple[str, int]]:
    host = module.Host("full", api_key=KEY)
    server = module.make_server(host, "127.0.0.1", 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[:2]
    server.shutdown()
    server.server_close()


def _exchange(address: tuple[str, int], data: bytes, answers: int = 1) -> list[tuple[int, dict[str, str], Any]]:
    """Send raw bytes on one connection and read `answers` responses (status, headers, JSON body)."""
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(data)
        reader = sock.makefile("rb")
        found = []
        for _ in range(answers):
            status = int(reader.readline().split()[1])
            headers = {}
            while (line := reader.readline().decode("latin-1").strip()) != "":
                name, _, value = line.partition(":")
                headers[name.lower()] = value.strip()
            body = reader.read(int(headers["content-length"]))
            found.append((status, headers, json.loads(body)))
        return found


def _post(extra: str, body: bytes = b"") -> bytes:
    head = f"POST /v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\n{extra}\r\n"
    return head.encode() + body


def test_a_chunked_body_is_decoded_and_the_connection_stays_in_step(address):
    body = b'{"workflowId": "conformance-noop"}'
    chunked = b"".join(f"{len(part):x}\r\n".encode() + part + b"\r\n" for part in (body[:7], body[7:])) + b"0\r\n\r\n"
    after = b"GET /.well-known/openwop HTTP/1.1\r\nHost: x\r\n\r\n"
    (created, _, run), (discovered, _, caps) = _exchange(
        address, _post("Transfer-Encoding: chunked\r\n", chunked) + after, answers=2
    )
    assert (created, discovered) == (201, 200) and run["runId"] and caps["protocolVersion"] == "1.0"


@pytest.mark.parametrize(
    "headers",
    [
        "Content-Length: 2_0\r\n",
        "Content-Length: +20\r\n",
        "Content-Length: 20\r\nContent-Length: 21\r\n",
        "Content-Length: 20\r\nTransfer-Encoding: chunked\r\n",
        "Transfer-Encoding: gzip\r\n",
    ],
    ids=["underscore", "plus-sign", "two-lengths", "length-and-chunked", "other-coding"],
)
def test_ambiguous_framing_is_refused_and_the_connection_closed(address, headers):
    [(status, sent, body)] = _exchange(address, _post(headers, b'{"workflowId": "abcdefg"}'))
    assert (status, body["error"], sent.get("connection")) == (400, "validation_error", "close")


def test_a_malformed_chunk_is_refused(address):
    [(status, sent, body)] = _exchange(address, _post("Transfer-Encoding: chunked\r\n", b"zz\r\n{}\r\n0\r\n\r\n"))
    assert (status, body["error"], sent.get("connection")) == (400, "validation_error", "close")


@pytest.mark.parametrize(
    "head",
    [
        b"GET /.well-known/openwop HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n",
        b"GET /.well-known/openwop HTTP/1.1\r\nHost : x\r\n\r\n",
        b"GET /.well-known/openwop HTTP/1.1\r\nHost x\r\n\r\n",
        b"GET  /.well-known/openwop HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /.well-known/openwop HTTP/1.7\r\nHost: x\r\n\r\n",
        b"GET /.well-known/openwop HTTP/1.1\r\n" + b"X-Many: 1\r\n" * 101 + b"\r\n",
        b"GET /.well-known/openwop HTTP/1.1\r\nAccept: */*\r\n\r\n",
        b"GET /.well-known/openwop HTTP/1.0\r\nHost: x\r\nhost: y\r\n\r\n",
    ],
    ids=[
        "folded-line",
        "space-before-colon",
        "no-colon",
        "two-spaces",
        "http-1.7",
        "101-fields",
        "no-host",
        "two-hosts",
    ],
)
def test_malformed_header_sections_are_refused(address, head):
    """RFC 9112: a folded field line, whitespace between a field name and its colon, or an HTTP/1.1 request
    without exactly one Host field (section 3.2) is a 400, not a guess."""
    [(status, sent, body)] = _exchange(address, head)
    assert (status, body["error"], sent.get("connection")) == (400, "validation_error", "close")


def test_an_http_1_0_request_needs_no_host(address):
    [(status, _, body)] = _exchange(address, b"GET /.well-known/openwop HTTP/1.0\r\n\r\n")
    assert status == 200 and body["protocolVersion"]


def test_header_names_are_read_without_regard_to_case(address):
    head = f"POST /v1/runs HTTP/1.1\r\nHOST: x\r\nauthorization: Bearer {KEY}\r\ncontent-LENGTH: 33\r\n\r\n"
    [(status, _, run)] = _exchange(address, head.encode() + b'{"workflowId":"conformance-noop"}')
    assert status == 201 and run["runId"]


def test_connection_threads_are_reused(address, monkeypatch):
    """A thread costs about as much to start as a request costs to answer: no connection starts one."""
    started: list[threading.Thread] = []
    real_start = threading.Thread.start

    def counting(thread: threading.Thread) -> None:
        started.append(thread)
        real_start(thread)

    head = b"GET /.well-known/openwop HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    _exchange(address, head)  # the first connection may need a thread
    time.sleep(0.05)  # let its thread finish with the connection and wait for the next one
    monkeypatch.setattr(threading.Thread, "start", counting)
    for _ in range(10):
        [(status, _, _)] = _exchange(address, head)
        assert status == 200
        time.sleep(0.05)  # (a busy machine may still start a second thread now and then)
    assert len(started) <= 3, started  # one thread per connection would have started 10


def test_discovery_is_encoded_once(make_host):
    host = make_host()
    first, second = (call(host, "GET", "/.well-known/openwop") for _ in range(2))
    assert first.encoded() is second.encoded()  # the same bytes object: nothing re-serialised per request
    assert json.loads(first.encoded()) == first.body


def test_keep_alive_answers_do_not_stall(address):
    """One write per answer on a TCP_NODELAY socket: no ~40 ms Nagle/delayed-ACK stall per request."""
    request = b"GET /.well-known/openwop HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.create_connection(address, timeout=10) as sock:
        reader = sock.makefile("rb")
        timings = []
        for _ in range(12):
            start = time.perf_counter()
            sock.sendall(request)
            length = 0
            while (line := reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            reader.read(length)
            timings.append(time.perf_counter() - start)
    assert sorted(timings)[len(timings) // 2] < 0.03, timings


def test_the_listen_backlog_holds_the_advertised_concurrency(module):
    server = module.make_server(module.Host("full", api_key=KEY), "127.0.0.1", 0, quiet=True)
    server.server_close()
    assert server.request_queue_size >= 64

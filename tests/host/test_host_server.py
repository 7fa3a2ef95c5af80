"""The host's HTTP transport: one poller for open connections, a few workers, a thread per event stream.

These tests hold the transport to what a client relies on: pipelined requests survive the trip back
to the poller, a slow client or an open event stream never keeps a fast client waiting, a stalled
request is dropped, and closing the server ends every thread and connection it made. Time bounds are
loose (seconds): they tell "answered" from "starved until a 30 s stall timeout", nothing finer.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from host.host_helpers import KEY, call

DISCOVERY = b"GET /.well-known/openwop HTTP/1.1\r\nHost: x\r\n\r\n"
PROMPT = 5.0  # seconds: far more than an answer takes, far less than the 30 s a starved client would wait


def _create(body: bytes = b'{"workflowId": "conformance-noop"}', extra: str = "") -> bytes:
    head = f"POST /v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\nContent-Length: {len(body)}\r\n"
    return (head + extra + "\r\n").encode() + body


class Client:
    """One raw connection, reading whole responses (status, headers, body) off it."""

    def __init__(self, address: tuple[str, int], timeout: float = 10.0) -> None:
        self.sock = socket.create_connection(address, timeout=timeout)
        self.buffer = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def _fill(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise EOFError("the server closed the connection")
        self.buffer += data

    def head(self) -> tuple[int, dict[str, str]]:
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        raw, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = raw.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.lower()] = value.strip()
        return int(lines[0].split()[1]), headers

    def response(self) -> tuple[int, dict[str, str], Any]:
        status, headers = self.head()
        length = int(headers["content-length"])
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, headers, json.loads(body)

    def closed(self) -> bool:
        """Whether the server has closed this connection (EOF or a reset, nothing else pending)."""
        try:
            return self.sock.recv(65536) == b""
        except (ConnectionResetError, BrokenPipeError):
            return True

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def serve(module: Any) -> Iterator[Callable[..., tuple[Any, tuple[str, int]]]]:
    """serve(host) starts a server for `host` on 127.0.0.1: (server, address); all are closed after the test."""
    started: list[Any] = []

    def start(host: Any) -> tuple[Any, tuple[str, int]]:
        server = module.make_server(host, "127.0.0.1", 0, quiet=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
        return server, server.server_address[:2]

    yield start
    for server in started:
        server.shutdown()
        server.server_close()


@pytest.fixture
def clients() -> Iterator[Callable[..., Client]]:
    made: list[Client] = []

    def connect(address: tuple[str, int], timeout: float = 10.0) -> Client:
        made.append(Client(address, timeout))
        return made[-1]

    yield connect
    for client in made:
        client.close()


def test_pipelined_requests_are_answered_in_order(make_host, serve, clients):
    _, address = serve(make_host())
    client = clients(address)
    client.send(DISCOVERY + _create() + DISCOVERY)  # all three in one write: read together by one worker
    answers = [client.response() for _ in range(3)]
    assert [status for status, _, _ in answers] == [200, 201, 200]
    assert answers[1][2]["runId"] and answers[2][2]["protocolVersion"] == "1.0"


def test_bytes_read_past_a_request_wait_with_the_connection_in_the_poller(make_host, serve, clients):
    """Half of the next request arrives with the first: it is kept while the connection waits for the rest."""
    _, address = serve(make_host())
    client = clients(address)
    second = _create(b'{"workflowId": "conformance-noop"}')
    client.send(DISCOVERY + second[:30])
    assert client.response()[0] == 200
    time.sleep(0.2)  # the connection is back with the poller, holding the 30 bytes
    client.send(second[30:50])
    time.sleep(0.2)
    client.send(second[50:])
    status, _, run = client.response()
    assert status == 201 and run["runId"]
    client.send(DISCOVERY)
    assert client.response()[0] == 200  # still in step


def test_without_a_kernel_kept_selector_connections_come_back_through_the_poller(module, make_host, serve, clients):
    """With select() or poll() only the poller's thread registers a connection; it is woken to do so."""
    module.server._KERNEL_SELECTORS, kept = (), module.server._KERNEL_SELECTORS
    try:
        server, address = serve(make_host())
    finally:
        module.server._KERNEL_SELECTORS = kept
    assert not server._direct
    client = clients(address, timeout=PROMPT)
    for _ in range(20):
        client.send(DISCOVERY)
        assert client.response()[0] == 200
    client.send(DISCOVERY + _create()[:20])
    assert client.response()[0] == 200
    client.send(_create()[20:])
    assert client.response()[0] == 201


def test_a_request_that_expects_100_continue_gets_it_before_the_body(make_host, serve, clients):
    _, address = serve(make_host())
    client = clients(address)
    request = _create(extra="Expect: 100-continue\r\n")
    head, body = request.split(b"\r\n\r\n", 1)
    client.send(head + b"\r\n\r\n")
    assert client.head() == (100, {})
    client.send(body)
    assert client.response()[0] == 201


@pytest.mark.parametrize("length", ["1000000000", "12abc"])
def test_a_request_expecting_100_continue_is_refused_at_once_when_its_body_would_be(make_host, serve, clients, length):
    """Too large or badly framed: the final answer comes without `100 Continue` and without waiting for
    a body the client was told nothing about."""
    _, address = serve(make_host())
    client = clients(address)
    head = f"POST /v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\nContent-Length: {length}\r\n"
    client.send((head + "Expect: 100-continue\r\n\r\n").encode())
    started = time.monotonic()
    status, headers, _ = client.response()
    assert status == 400 and headers.get("connection") == "close"
    assert time.monotonic() - started < 5


def test_http_1_0_closes_unless_asked_to_keep_the_connection(make_host, serve, clients):
    _, address = serve(make_host())
    closing = clients(address)
    closing.send(b"GET /.well-known/openwop HTTP/1.0\r\n\r\n")
    status, headers, _ = closing.response()
    assert (status, headers.get("connection")) == (200, "close") and closing.closed()
    kept = clients(address)
    for _ in range(2):
        kept.send(b"GET /.well-known/openwop HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        status, headers, _ = kept.response()
        assert status == 200 and "connection" not in headers


def test_slow_clients_do_not_keep_a_fast_one_waiting(module, make_host, serve, clients):
    """Partial heads and bodies wait in the poller; chunked bodies that stall hold workers, and the pool grows."""
    server, address = serve(make_host())
    slow = []
    for n in range(20):
        client = clients(address)
        client.send(b"GET /.well-known/openwop HTTP/1.1\r\nHost: x\r\nX-Slow: " + str(n).encode())
        slow.append(client)
    body_waiting = clients(address)
    body_waiting.send(_create(b'{"workflowId": "conformance-noop"}')[:-10])
    for _ in range(module.server.WORKERS + 2):  # more stalled chunked bodies than there are workers
        client = clients(address)
        client.send(_create(b"", "Transfer-Encoding: chunked\r\n").replace(b"Content-Length: 0\r\n", b"") + b"5\r\n{")
        slow.append(client)
    time.sleep(0.3)
    fast = clients(address, timeout=PROMPT)
    for _ in range(5):
        fast.send(DISCOVERY)
        assert fast.response()[0] == 200
    assert server._alive > module.server.WORKERS  # the pool grew past the stalled workers
    body_waiting.send(_create(b'{"workflowId": "conformance-noop"}')[-10:])
    status, _, run = body_waiting.response()
    assert status == 201 and run["runId"]
    slow[0].send(b"\r\n\r\n")
    assert slow[0].response()[0] == 200


def test_a_stalled_request_is_dropped(module, make_host, serve, clients, monkeypatch):
    monkeypatch.setattr(module.server, "STALL_SECONDS", 0.5)
    _, address = serve(make_host())
    stalled = clients(address)
    stalled.send(b"GET /.well-known/openwop HTTP/1.1\r\nHost: x\r\n")
    idle = clients(address)
    idle.send(DISCOVERY)
    assert idle.response()[0] == 200
    time.sleep(2.5)  # past the stall limit and a sweep of the poller
    assert stalled.closed() and idle.closed()


class _Refusing:
    """A listening socket whose accepts fail, for `seconds`, as they do when the process has no descriptors left."""

    def __init__(self, real: socket.socket, seconds: float) -> None:
        self.real, self.until, self.calls = real, time.monotonic() + seconds, 0

    def fileno(self) -> int:
        return self.real.fileno()

    def close(self) -> None:
        self.real.close()

    def accept(self) -> tuple[socket.socket, Any]:
        self.calls += 1
        if time.monotonic() < self.until:
            raise OSError(24, "Too many open files")
        return self.real.accept()


def test_a_refused_accept_rests_the_listener_instead_of_spinning(make_host, serve, clients):
    server, address = serve(make_host())
    listener = _Refusing(server.socket, seconds=0.6)
    server.socket = listener
    client = clients(address, timeout=PROMPT)
    client.send(DISCOVERY)
    assert client.response()[0] == 200  # accepted once the refusals are over
    assert listener.calls <= 5  # a listener always ready would have been tried thousands of times


def test_an_unused_server_starts_no_thread(module, make_host):
    before = set(threading.enumerate())
    server = module.make_server(make_host(), "127.0.0.1", 0, quiet=True)
    assert set(threading.enumerate()) == before
    server.server_close()


def test_event_streams_hold_no_worker(module, make_host, serve, clients):
    host = make_host(deferred=True)  # the run stays running, so its streams stay open
    run_id = call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"}).body["runId"]
    server, address = serve(host)
    streams = []
    for _ in range(module.server.WORKERS + 2):
        client = clients(address)
        client.send(f"GET /v1/runs/{run_id}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\n\r\n".encode())
        streams.append(client)
    for client in streams:
        status, headers = client.head()
        assert status == 200 and headers["content-type"] == "text/event-stream"
    fast = clients(address, timeout=PROMPT)
    fast.send(DISCOVERY)
    assert fast.response()[0] == 200
    assert server._alive == module.server.WORKERS  # answered by the pool as it was: no worker is on a stream
    host.drain()  # the run ends, and so do its streams
    for client in streams:
        while b"run.completed" not in client.buffer:
            client._fill()
        assert client.closed()


def test_closing_the_server_ends_its_threads_and_connections(module, make_host, clients):
    before = set(threading.enumerate())
    host = make_host()
    run_id = call(host, "POST", "/v1/runs", {"workflowId": "conformance-noop"}).body["runId"]
    server = module.make_server(host, "127.0.0.1", 0, quiet=True)
    loop = threading.Thread(target=server.serve_forever, daemon=True)
    loop.start()
    address = server.server_address[:2]
    idle = clients(address)
    idle.send(DISCOVERY)
    assert idle.response()[0] == 200
    partial = clients(address)
    partial.send(b"GET /.well-known/openwop HTTP/1.1\r\n")
    chunked = clients(address)  # holds a worker, waiting for its next chunk
    chunked.send(_create(b"", "Transfer-Encoding: chunked\r\n").replace(b"Content-Length: 0\r\n", b"") + b"5\r\n{")
    stream = clients(address)
    stream.send(f"GET /v1/runs/{run_id}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\n\r\n".encode())
    assert stream.head()[0] == 200
    time.sleep(0.2)
    began = time.monotonic()
    server.shutdown()
    server.server_close()
    loop.join(PROMPT)
    assert time.monotonic() - began < PROMPT
    assert not set(threading.enumerate()) - before
    assert all(client.closed() for client in (idle, partial, chunked))
    with pytest.raises(OSError):
        socket.create_connection(address, timeout=1).close()


@pytest.mark.parametrize("pause", [False, True], ids=["cut-in-one-read", "cut-after-a-wait"])
def test_a_body_cut_short_by_a_half_close_is_never_dispatched(make_host, serve, clients, pause):
    """Content-Length promises more than arrives before the client's FIN: no run is made, no 2xx is sent."""
    host = make_host()
    _, address = serve(host)
    client = clients(address, timeout=PROMPT)
    whole = b'{"workflowId": "conformance-noop"}'
    body = whole + b" " * 50  # the bytes sent are a whole request body by themselves
    request = _create(body)
    sent = request[: len(request) - len(body) + len(whole)]  # the head and those bytes
    if pause:
        client.send(sent[:-5])
        time.sleep(0.3)  # the connection waits with the poller for the rest of the body
        client.send(sent[-5:])
    else:
        client.send(sent)
    client.sock.shutdown(socket.SHUT_WR)
    answer = b""
    while chunk := client.sock.recv(65536):
        answer += chunk
    assert not answer.startswith(b"HTTP/1.1 2")
    assert not host.runs


def test_a_large_answer_to_a_slow_but_steady_reader_is_written_whole(module, make_host, monkeypatch):
    """The stall limit bounds each wait for the client to take more, not the whole write."""
    monkeypatch.setattr(module.server, "STALL_SECONDS", 0.5)
    server = module.make_server(make_host(), "127.0.0.1", 0, quiet=True)
    ours, theirs = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
    ours.setblocking(False)
    connection = module.server._Connection(ours, ("127.0.0.1", 0), module.reader.Reader(ours, 0.5))
    data = bytes(range(256)) * 2048  # 512 KiB: read 8 KiB at a time, 0.02 s apart, it takes more than a second
    received = bytearray()

    def read_slowly() -> None:
        while len(received) < len(data):
            try:
                chunk = theirs.recv(8192)
            except OSError:  # closed under it when the write failed
                return
            if not chunk:
                return
            received.extend(chunk)
            time.sleep(0.02)

    reader = threading.Thread(target=read_slowly)
    reader.start()
    try:
        started = time.monotonic()
        server._write(connection, data)
        assert time.monotonic() - started > 0.5  # longer than the stall limit in all
        reader.join(PROMPT)
        assert bytes(received) == data
    finally:
        ours.close()
        theirs.close()
        reader.join(PROMPT)
        server.server_close()

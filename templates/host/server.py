"""HTTP/1.1 transport: one poller for every open connection, a small pool of threads to answer requests.

Everything protocol-level is in `Host.handle`, and reading a request off the wire is in `request` (over
a `reader.Reader` per connection); this module moves connections between three places and writes the
answers:

- the poller (`serve_forever`'s thread, over the `selectors` module) holds the listening socket and
  every connection waiting for its next request, however many: an idle keep-alive client, or a slow
  one whose request head or `Content-Length` body is still arriving, costs no thread. A connection
  that sent nothing for STALL_SECONDS is closed.
- once a connection's request has arrived it is queued, and the next free worker thread (oldest queue
  entry first) answers that ONE request, then hands the connection back to the poller, or straight
  back to the queue when the client has already sent more (pipelining: what was read past one
  request stays in the connection's `Reader`). With epoll or kqueue the worker registers it with the
  poller itself, the kernel adding it to the wait under way; otherwise the poller's thread does, woken
  through a socket pair. A few workers (WORKERS) answer everything, so the host does not spend its
  time on dozens of threads waking to fight over the interpreter lock.
- an event stream (SSE) is long-lived: it is written by a thread of its own, so no worker waits on it.

A worker can still wait on a client (reading a chunked body, throwing away an oversized one, writing to
a client that does not read, each wait at most STALL_SECONDS without progress), and a request can take
long, such as a long poll. When requests are queued and no worker is free, and either every worker is
waiting on a client or none has taken a request for GROW_AFTER seconds, the pool grows (up to
MAX_WORKERS); such extra workers end after EXTRA_IDLE_SECONDS without work. Bodies over the advertised
`limits.maxRequestBodyBytes` are refused without being kept; errors of the HTTP layer itself are
answered with an error envelope.

Each response goes out in one write on a socket with TCP_NODELAY, so keep-alive clients never wait on
Nagle's algorithm; the listen backlog is sized for the connections the host expects at once.
`shutdown()` stops the poller; `server_close()` closes every connection and waits up to JOIN_SECONDS
for every thread to end (a stream waiting on a quiet run ends at its next keep-alive comment).
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import queue
import selectors
import socket
import sys
import threading
import time
from email.utils import formatdate
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import Any

from .app import Host, Response
from .errors import HostError
from .reader import RECV_SIZE, Reader
from .request import (
    FIELD_COUNT_LIMIT,
    LINE_LIMIT,
    Head,
    Refused,
    body_length,
    read_chunked,
    read_head,
)

# An oversized body up to this size is read and thrown away before the 400 goes out; past it the
# connection is simply closed.
DRAIN_LIMIT = 16 * 1024 * 1024
# Connections the kernel queues before the server accepts them (the operating system may cap it).
LISTEN_BACKLOG = 1024
STALL_SECONDS = 30.0  # a client that sends nothing for this long, within a request or between two, is dropped
WORKERS = 4  # threads answering requests, however many connections are open
MAX_WORKERS = 1024  # the pool's size at most, extra workers included
GROW_AFTER = 0.25  # seconds every worker may stay on its request, with others queued, before the pool grows
EXTRA_IDLE_SECONDS = 5.0  # how long an extra worker waits for a request before it ends
ACCEPT_PAUSE_SECONDS = 0.5  # how long accepting rests once the system refuses a connection (no descriptors)
JOIN_SECONDS = 5.0  # how long `server_close` waits for its threads to end, in all
METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE"})
_SERVER = f"{BaseHTTPRequestHandler.server_version} {BaseHTTPRequestHandler.sys_version}"
_REASONS = {status.value: status.phrase for status in HTTPStatus}
_CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
# Selectors whose interest list the kernel keeps, so a thread may add to it while another waits on it.
_KERNEL_SELECTORS = tuple(
    getattr(selectors, name) for name in ("EpollSelector", "KqueueSelector") if hasattr(selectors, name)
)

# What a worker does with a connection once it has answered (or not) one request.
_WAIT = "wait"  # back to the poller, until more bytes arrive
_AGAIN = "again"  # the next request has already arrived: back to the queue
_CLOSE = "close"
_STREAMED = "streamed"  # a stream thread owns it now


_date: tuple[int, str] = (0, "")  # (second, Date header value)


def _http_date() -> str:
    """The Date header value, formatted once a second rather than once a response."""
    global _date
    now = int(time.time())
    if _date[0] != now:
        _date = (now, formatdate(now, usegmt=True))
    return _date[1]


def _send_all(sock: socket.socket, data: bytes | memoryview) -> None:
    """All of `data`, on a socket with a timeout: the timeout bounds each wait for the client to take more
    (one `send`), not the whole write as it does for `sendall`, so a large answer to a slow reader is fine."""
    view = memoryview(data)
    while view:
        view = view[sock.send(view) :]


class _Connection:
    """One client connection, and the request head whose body it is still waiting for."""

    __slots__ = ("address", "head", "length", "reader", "since", "sock")

    def __init__(self, sock: socket.socket, address: Any, reader: Reader) -> None:
        self.sock = sock
        self.address = address
        self.reader = reader
        self.since = time.monotonic()  # when a byte last arrived, or the last answer went out
        self.head: Head | None = None  # a head read, whose body has not all arrived
        self.length = 0  # that body's size


class WopServer:
    """The listening socket, the poller of open connections, and the worker threads that answer them."""

    request_queue_size = LISTEN_BACKLOG

    def __init__(self, host: Host, address: tuple[str, int], quiet: bool = False) -> None:
        self.host = host
        self.quiet = quiet
        self.socket = socket.create_server(address, backlog=LISTEN_BACKLOG)
        self.socket.setblocking(False)
        self.server_address: tuple[str, int] = self.socket.getsockname()[:2]
        self._wake_in, self._wake_out = socket.socketpair()
        self._wake_in.setblocking(False)
        self._wake_out.setblocking(False)
        self._wake_pending = False
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.socket, selectors.EVENT_READ, None)
        self._selector.register(self._wake_in, selectors.EVENT_READ, self._wake_in)
        self._ready: queue.SimpleQueue[_Connection | None] = queue.SimpleQueue()  # FIFO, for the workers
        # A selector whose interest list the kernel keeps (epoll, kqueue) takes a connection back from the
        # worker that answered it, while the poller waits; another (select, poll) only in the poller's thread.
        self._direct = isinstance(self._selector, _KERNEL_SELECTORS)
        self._returns: queue.SimpleQueue[_Connection] = queue.SimpleQueue()  # for the poller to register
        self._waiting: dict[_Connection, None] = {}  # the connections registered with the poller
        self._open: set[_Connection] = set()
        self._lock = threading.Lock()  # guards the counts below and the thread sets
        self._alive = self._idle = self._blocked = 0  # workers: started, waiting for a request, waiting on a client
        self._last_take = time.monotonic()  # when a worker last took a request
        self._workers: set[threading.Thread] = set()
        self._streams: set[threading.Thread] = set()
        self._stopping = False
        self._closed = False
        self._loop_done = threading.Event()
        self._loop_done.set()
        self._accept_paused = 0.0  # when accepting, refused by the system, may be tried again (0: not paused)
        self._pool_started = False

    # --- the poller ---------------------------------------------------------------------------------

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Accept and answer connections until `shutdown()` (from another thread) or an interrupt."""
        if self._closed:
            return
        self._loop_done.clear()
        if not self._pool_started:  # the pool starts with the first call, so an unused server has no threads
            self._pool_started = True
            for _ in range(WORKERS):
                self._spawn(extra=False)
        try:
            swept = time.monotonic()
            while not self._stopping:
                timeout = 0.05 if self._ready.qsize() or self._accept_paused else poll_interval
                for key, _ in self._selector.select(timeout):
                    if key.data is None:
                        self._accept()
                    elif key.data is self._wake_in:
                        with contextlib.suppress(BlockingIOError, InterruptedError):
                            self._wake_in.recv(4096)
                        self._wake_pending = False  # after the read: a wake sent from now on is seen
                    else:
                        self._dispatch(key.data)
                self._take_returns()
                now = time.monotonic()
                if self._accept_paused and now >= self._accept_paused:
                    self._accept_paused = 0.0
                    self._selector.register(self.socket, selectors.EVENT_READ, None)
                self._grow(now)
                if now - swept >= 1.0:
                    self._sweep(now)
                    swept = now
        finally:
            self._stopping = False
            self._loop_done.set()

    def _accept(self) -> None:
        for _ in range(64):
            try:
                sock, address = self.socket.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # out of file descriptors, say: the backlog keeps the client waiting
                self._log(f"cannot accept a connection: {exc}; trying again in {ACCEPT_PAUSE_SECONDS} s")
                self._selector.unregister(self.socket)  # rather than a busy loop on a listener always ready
                self._accept_paused = time.monotonic() + ACCEPT_PAUSE_SECONDS
                return
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            connection = _Connection(sock, address, Reader(sock, STALL_SECONDS, self._waiting_on_client))
            self._open.add(connection)
            self._ready.put(connection)  # its request has often arrived with it; if not, it comes back

    def _dispatch(self, connection: _Connection) -> None:
        self._selector.unregister(connection.sock)
        self._waiting.pop(connection, None)
        self._ready.put(connection)

    def _park(self, connection: _Connection) -> None:
        """Register `connection` with the poller, to wait for its next bytes."""
        self._waiting[connection] = None
        try:
            self._selector.register(connection.sock, selectors.EVENT_READ, connection)
        except Exception:  # the server closed meanwhile
            self._waiting.pop(connection, None)
            self._close(connection)

    def _take_returns(self) -> None:
        while True:
            try:
                self._park(self._returns.get_nowait())
            except queue.Empty:
                return

    def _sweep(self, now: float) -> None:
        """Close the connections that sent nothing for STALL_SECONDS."""
        for connection in [c for c in list(self._waiting) if now - c.since > STALL_SECONDS]:
            try:
                self._selector.unregister(connection.sock)
            except KeyError:  # not registered yet: the next sweep
                continue
            self._waiting.pop(connection, None)
            if connection.head is not None or connection.reader.pending():
                self._log(f"{connection.address[0]} request timed out")
            self._close(connection)

    def _grow(self, now: float) -> None:
        """One more worker when requests wait and every worker is held by a client or a long request."""
        queued = self._ready.qsize()
        if not queued or self._idle or self._alive >= MAX_WORKERS:
            return
        if self._blocked >= self._alive:
            for _ in range(min(queued, MAX_WORKERS - self._alive)):
                self._spawn(extra=True)
        elif now - self._last_take > GROW_AFTER:
            self._spawn(extra=True)

    def _wake(self) -> None:
        if not self._wake_pending:
            self._wake_pending = True
            with contextlib.suppress(OSError):
                self._wake_out.send(b"\0")

    # --- the workers --------------------------------------------------------------------------------

    def _spawn(self, extra: bool) -> None:
        thread = threading.Thread(target=self._work, args=(extra,), name="wop-worker", daemon=True)
        with self._lock:
            self._alive += 1
            self._workers.add(thread)
        try:
            thread.start()
        except RuntimeError:  # no more threads to be had: the pool stays as it is
            with self._lock:
                self._alive -= 1
                self._workers.discard(thread)

    def _work(self, extra: bool) -> None:
        try:
            while True:
                with self._lock:
                    self._idle += 1
                try:
                    connection = self._ready.get(timeout=EXTRA_IDLE_SECONDS) if extra else self._ready.get()
                except queue.Empty:
                    return
                finally:
                    with self._lock:
                        self._idle -= 1
                if connection is None:
                    return
                self._last_take = time.monotonic()
                self._answer(connection)
        finally:
            with self._lock:
                self._alive -= 1
                self._workers.discard(threading.current_thread())

    def _waiting_on_client(self, waiting: bool) -> None:
        with self._lock:
            self._blocked += 1 if waiting else -1
        if waiting and self._ready.qsize():
            self._wake()  # the poller decides whether the pool must grow

    def _answer(self, connection: _Connection) -> None:
        try:
            outcome = self._serve_one(connection)
        except TimeoutError:
            self._log(f"{connection.address[0]} request timed out")
            outcome = _CLOSE
        except Exception as exc:  # the connection broke mid-request: one line on stderr, no traceback
            self._log(f"{connection.address[0]}: connection error: {exc!r}")
            outcome = _CLOSE
        if outcome == _AGAIN and not self._closed:
            self._ready.put(connection)
        elif outcome in (_WAIT, _AGAIN):
            if self._closed:
                self._close(connection)
            elif self._direct:
                self._park(connection)  # no need to wake the poller: the kernel adds it to the wait
            else:
                self._returns.put(connection)
                self._wake()
        elif outcome == _CLOSE:
            self._close(connection)

    def _serve_one(self, connection: _Connection) -> str:
        """Answer the connection's next request if it has arrived; what to do with the connection next."""
        reader = connection.reader
        head = connection.head
        # A waiting head takes one more chunk of whatever has come; a waiting body, up to its length.
        if reader.fill(reader.pending() + RECV_SIZE if head is None else connection.length):
            connection.since = time.monotonic()
        limit = self.host.profile.max_body_bytes
        if head is None:
            if not reader.head_ready(LINE_LIMIT, FIELD_COUNT_LIMIT + 1):
                return _CLOSE if reader.eof else _WAIT
            try:
                head = read_head(reader)
            except Refused as exc:
                self._refuse(connection, str(exc))
                return _CLOSE
            if head is None:
                return _CLOSE
            if head.method not in METHODS:  # there is no such operation; the body is not read
                self._refuse(connection, f"no operation {head.method} {head.target}", head, "not_found")
                return _CLOSE
            try:
                length = body_length(head.headers)
                if length is not None and length > limit:
                    if not head.expects_continue:  # the body is on its way: read, so the client reads the answer
                        reader.discard(min(length, DRAIN_LIMIT))
                    raise Refused(f"the body must be 0 to {limit} bytes")
                if head.expects_continue:  # only once the body's framing and size are known to be acceptable
                    self._write(connection, _CONTINUE)
                if length is None:
                    body = read_chunked(reader, limit)
                else:
                    reader.fill(length)
                    if reader.pending() < length:
                        if reader.eof:  # the client stopped sending: a short body is never dispatched
                            return _CLOSE
                        connection.head, connection.length = head, length  # the poller waits for the rest
                        return _WAIT
                    body = reader.read(length)
            except Refused as exc:
                self._refuse(connection, str(exc), head)
                return _CLOSE
        else:
            if reader.pending() < connection.length:
                return _CLOSE if reader.eof else _WAIT  # a short body is never dispatched
            connection.head = None
            body = reader.read(connection.length)
        response = self.host.handle(head.method, head.target, dict(head.headers.items()), body)
        if response.stream is not None:
            self._stream(connection, head, response)
            return _STREAMED
        keep_alive = head.keep_alive
        self._write(connection, self._encode(connection, response, head, keep_alive))
        connection.since = time.monotonic()
        if not keep_alive:
            return _CLOSE
        if reader.pending():
            return _AGAIN
        return _CLOSE if reader.eof else _WAIT

    def _encode(self, connection: _Connection, response: Response, head: Head, keep_alive: bool) -> bytes:
        try:
            data = response.encoded()
        except ValueError:  # a value JSON cannot carry: a host bug, never sent as a non-JSON token
            error = HostError("internal_error", "the host failed to encode its answer")
            response, data = Response(error.status, error.envelope()), json.dumps(error.envelope()).encode()
        headers = {**response.headers, "Content-Type": "application/json", "Content-Length": str(len(data))}
        if not keep_alive:
            headers["Connection"] = "close"
        return self._head(connection, response.status, headers, head.line) + data

    def _refuse(self, connection: _Connection, message: str, head: Head | None = None, code: str = "") -> None:
        """The HTTP layer's own errors, as envelopes (never an HTML page); the connection closes after."""
        error = HostError(code or "validation_error", message)
        data = json.dumps(error.envelope()).encode("utf-8")
        headers = {"Content-Type": "application/json", "Content-Length": str(len(data)), "Connection": "close"}
        line = head.line if head is not None else ""
        sent = self._head(connection, error.status, headers, line)
        self._write(connection, sent + (b"" if head is not None and head.method == "HEAD" else data))

    def _head(self, connection: _Connection, status: int, headers: dict[str, str], line: str) -> bytes:
        """The status line and headers of a response, as bytes (written together with the body), logged."""
        lines = [f"HTTP/1.1 {status} {_REASONS.get(status, '')}", f"Server: {_SERVER}", f"Date: {_http_date()}"]
        lines.extend(f"{name}: {value}" for name, value in headers.items())
        if not self.quiet:
            self._log(f'{connection.address[0]} "{line}" {status} -')
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1", "strict")

    def _write(self, connection: _Connection, data: bytes) -> None:
        """All of `data`; waiting (counted as waiting on the client) only when the socket's buffer is full."""
        try:
            sent = connection.sock.send(data)
        except BlockingIOError:
            sent = 0
        if sent == len(data):
            return
        self._waiting_on_client(True)
        try:
            connection.sock.settimeout(STALL_SECONDS)
            _send_all(connection.sock, memoryview(data)[sent:])
        finally:
            connection.sock.setblocking(False)
            self._waiting_on_client(False)

    # --- event streams ------------------------------------------------------------------------------

    def _stream(self, connection: _Connection, head: Head, response: Response) -> None:
        headers = {**response.headers, "Connection": "close"}
        start = self._head(connection, response.status, headers, head.line)
        thread = threading.Thread(
            target=self._write_stream, args=(connection, start, response), name="wop-stream", daemon=True
        )
        with self._lock:
            self._streams.add(thread)
        try:
            thread.start()
        except RuntimeError:  # no thread to be had: the stream's slot is freed, the connection closed
            with self._lock:
                self._streams.discard(thread)
            close = getattr(response.stream, "close", None)
            if close is not None:
                close()
            raise

    def _write_stream(self, connection: _Connection, start: bytes, response: Response) -> None:
        stream = response.stream
        assert stream is not None
        try:
            connection.sock.settimeout(STALL_SECONDS)
            _send_all(connection.sock, start)
            for chunk in stream:
                _send_all(connection.sock, chunk)
        except OSError:  # the client went away, or the server is closing
            pass
        except Exception as exc:
            self._log(f"{connection.address[0]}: event stream error: {exc!r}")
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
            self._close(connection)
            with self._lock:
                self._streams.discard(threading.current_thread())

    # --- ending -------------------------------------------------------------------------------------

    def _close(self, connection: _Connection) -> None:
        self._open.discard(connection)
        with contextlib.suppress(OSError):
            connection.sock.shutdown(socket.SHUT_WR)  # the answer is sent before the end of the stream
        with contextlib.suppress(OSError):
            connection.sock.close()

    def shutdown(self) -> None:
        """Stop `serve_forever` and wait until it has returned (call it from another thread)."""
        self._stopping = True
        self._wake()
        self._loop_done.wait()

    def server_close(self) -> None:
        """Stop listening, close every connection and end every thread of this server."""
        if self._closed:
            return
        self._closed = True
        if not self._loop_done.is_set():
            self.shutdown()
        with contextlib.suppress(OSError):
            self.socket.close()
        with self._lock:
            workers, streams = list(self._workers), list(self._streams)
        for connection in list(self._open):  # wakes a thread waiting on its client, if one is
            with contextlib.suppress(OSError):
                connection.sock.shutdown(socket.SHUT_RDWR)
        for _ in workers:
            self._ready.put(None)
        deadline = time.monotonic() + JOIN_SECONDS
        for thread in workers + streams:
            thread.join(max(0.0, deadline - time.monotonic()))
        for connection in list(self._open):  # waiting in the poller or the queue, or let go by a thread
            self._close(connection)
        self._waiting.clear()
        self._selector.close()
        self._wake_in.close()
        self._wake_out.close()

    def _log(self, line: str) -> None:
        if not self.quiet:
            sys.stderr.write(line + "\n")


def _loopback(bind: str) -> bool:
    try:
        return ipaddress.ip_address(bind) == ipaddress.ip_address("127.0.0.1")
    except ValueError:
        return False


def make_server(host: Host, bind: str = "127.0.0.1", port: int = 0, quiet: bool = False) -> WopServer:
    """A server for `host` on `bind:port` (port 0 picks a free one; see `server.server_address`).

    A mutant profile breaks a promise on purpose, some of them a security one (no authentication,
    leaking content): it is served on 127.0.0.1 only, and says so on stderr.
    """
    if host.profile.mutant:
        if not _loopback(bind):
            raise ValueError(
                f"profile {host.profile.name} is a deliberately defective test double: bind 127.0.0.1 only"
            )
        sys.stderr.write(
            f"warning: profile {host.profile.name} is a deliberately defective test double "
            f"({host.profile.description.rstrip('.')}); never serve it to real clients\n"
        )
    return WopServer(host, (bind, port), quiet)

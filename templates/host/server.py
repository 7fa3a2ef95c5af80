"""HTTP transport over the standard library's ThreadingHTTPServer: one thread per connection.

Everything protocol-level is in `Host.handle`; this module only moves bytes, strictly. Bodies over
the advertised `limits.maxRequestBodyBytes` are refused without being kept; a body is framed by
exactly one `Content-Length` of digits only, or by `Transfer-Encoding: chunked` (decoded here,
within the same bound); anything else that would leave the framing ambiguous (both headers, two
lengths, another transfer coding) is refused and the connection closed. Errors of the HTTP layer
itself (a malformed request line, an unsupported method) are answered with an error envelope too.

Each response goes out in one write on a socket with TCP_NODELAY, so keep-alive clients never wait
on Nagle's algorithm; the listen backlog is sized for the connections the host expects at once.
The request line and header fields are read here too (RFC 9112), without the e-mail parser the
standard handler uses, which cost about half of each request's CPU time; what is malformed (a
folded line, a field name with spaces, a version other than HTTP/1.0 or 1.1) is refused with 400.
"""

from __future__ import annotations

import ipaddress
import json
import queue
import re
import sys
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .app import Host, Response
from .errors import HostError

# An oversized body up to this size is read and thrown away before the 400 goes out; past it the
# connection is simply closed.
DRAIN_LIMIT = 16 * 1024 * 1024
# Connections the kernel queues before the server accepts them (the operating system may cap it).
LISTEN_BACKLOG = 1024
IDLE_THREAD_SECONDS = 30.0  # how long a connection thread waits for another connection before it ends
_DIGITS = re.compile(r"[0-9]{1,18}")
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,8})(;[^\r\n]*)?\r?\n")
_LINE_LIMIT = 8192
_HEADER_LINE_LIMIT = 65536  # one header field line, in bytes
_HEADER_COUNT_LIMIT = 100  # header fields in one request
_FIELD_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_VERSION = re.compile(r"HTTP/(\d)\.(\d)")


class Headers:
    """A request's header fields in arrival order; names compare without regard to case."""

    def __init__(self, fields: list[tuple[str, str]]) -> None:
        self._fields = fields

    def get(self, name: str, default: str | None = None) -> str | None:
        """The first value of `name`, or `default`."""
        found = self.get_all(name)
        return found[0] if found else default

    def get_all(self, name: str) -> list[str] | None:
        """Every value of `name` in arrival order, or None when there is none."""
        lowered = name.lower()
        found = [value for key, value in self._fields if key.lower() == lowered]
        return found or None

    def items(self) -> list[tuple[str, str]]:
        return list(self._fields)


_date: tuple[int, str] = (0, "")  # (second, Date header value)


def _http_date() -> str:
    """The Date header value, formatted once a second rather than once a response."""
    global _date
    now = int(time.time())
    if _date[0] != now:
        _date = (now, formatdate(now, usegmt=True))
    return _date[1]


class _Refused(Exception):
    """A request whose framing cannot be trusted: answered with a 400 and the connection closed."""


class _Handler(BaseHTTPRequestHandler):
    server: WopServer
    raw_requestline: bytes  # set by the base class before parse_request
    protocol_version = "HTTP/1.1"
    timeout = 30  # seconds a connection may stall (a body that never arrives) before it is dropped
    disable_nagle_algorithm = True

    def parse_request(self) -> bool:
        """Read the request line and header fields (after `raw_requestline`); False once an error is sent.

        Sets what the base class would: `command`, `path`, `request_version`, `headers` and
        `close_connection` (HTTP/1.1 keeps the connection unless `Connection: close`; 1.0 closes it
        unless `Connection: keep-alive`).
        """
        self.command = ""
        self.request_version = "HTTP/0.9"
        self.close_connection = True
        self.requestline = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
        words = self.requestline.split(" ")
        version = _VERSION.fullmatch(words[-1]) if len(words) == 3 else None
        if not self.requestline:
            return False
        if len(words) != 3 or not words[0] or not words[1] or version is None:
            self.send_error(400, f"a request line is METHOD TARGET HTTP/1.1, not {self.requestline[:100]!r}")
            return False
        if (version[1], version[2]) not in (("1", "0"), ("1", "1")):
            self.send_error(400, f"this host speaks HTTP/1.0 and HTTP/1.1, not {words[2][:20]}")
            return False
        self.command, self.path, self.request_version = words
        if self.path.startswith("//"):
            self.path = "/" + self.path.lstrip("/")
        fields: list[tuple[str, str]] = []
        while True:
            line = self.rfile.readline(_HEADER_LINE_LIMIT + 1)
            if not line:
                return False  # the client went away in the middle of its headers
            if len(line) > _HEADER_LINE_LIMIT:
                self.send_error(431, "a header field line is too long")
                return False
            if line in (b"\r\n", b"\n"):
                break
            if len(fields) >= _HEADER_COUNT_LIMIT:
                self.send_error(431, f"more than {_HEADER_COUNT_LIMIT} header fields")
                return False
            name, colon, value = str(line, "iso-8859-1").partition(":")
            if not colon or not _FIELD_NAME.fullmatch(name):
                self.send_error(400, "a header field is malformed (folded, no colon, or a name with spaces)")
                return False
            fields.append((name, value.strip(" \t\r\n")))
        self.headers = Headers(fields)  # type: ignore[assignment]
        connection = (self.headers.get("Connection") or "").lower()
        if connection == "close":
            self.close_connection = True
        elif self.request_version == "HTTP/1.1" or connection == "keep-alive":
            self.close_connection = False
        expects = (self.headers.get("Expect") or "").lower() == "100-continue"
        return not (expects and self.request_version == "HTTP/1.1" and not self.handle_expect_100())

    def _serve(self) -> None:
        host = self.server.host
        try:
            body = self._read_body(host.profile.max_body_bytes)
        except _Refused as exc:
            self.close_connection = True
            self._send(Response(400, HostError("validation_error", str(exc)).envelope()))
            return
        self._send(host.handle(self.command, self.path, dict(self.headers.items()), body))

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

    def _read_body(self, limit: int) -> bytes:
        lengths = self.headers.get_all("Content-Length") or []
        codings = [c.strip().lower() for v in self.headers.get_all("Transfer-Encoding") or [] for c in v.split(",")]
        if codings:
            if lengths:
                raise _Refused("send either Content-Length or Transfer-Encoding, not both")
            if codings != ["chunked"]:
                raise _Refused("the only transfer coding this host reads is chunked")
            return self._read_chunked(limit)
        if len(lengths) > 1:
            raise _Refused("send one Content-Length header, not several")
        if not lengths:
            return b""
        if not _DIGITS.fullmatch(lengths[0].strip()):
            raise _Refused("Content-Length must be a decimal number of bytes")
        length = int(lengths[0])
        if length > limit:
            self._discard(min(length, DRAIN_LIMIT))  # so the client reads the answer, not a reset
            raise _Refused(f"the body must be 0 to {limit} bytes")
        return self.rfile.read(length) if length else b""

    def _read_chunked(self, limit: int) -> bytes:
        """The body of a chunked request (RFC 9112 section 7.1), refused once it passes `limit` bytes."""
        parts: list[bytes] = []
        size = 0
        while True:
            match = _CHUNK_SIZE.fullmatch(self.rfile.readline(_LINE_LIMIT))
            if match is None:
                raise _Refused("a chunk size line is malformed")
            length = int(match.group(1), 16)
            if length == 0:
                break
            size += length
            if size > limit:
                raise _Refused(f"the body must be 0 to {limit} bytes")
            data = self.rfile.read(length)
            if len(data) != length or self.rfile.readline(_LINE_LIMIT) not in (b"\r\n", b"\n"):
                raise _Refused("a chunk is shorter than its size or not followed by CRLF")
            parts.append(data)
        for _ in range(64):  # trailer fields, up to the empty line
            line = self.rfile.readline(_LINE_LIMIT)
            if line in (b"\r\n", b"\n"):
                return b"".join(parts)
            if not line.endswith(b"\n"):
                break
        raise _Refused("the chunked body does not end with an empty line")

    def _discard(self, length: int) -> None:
        while length > 0:
            chunk = self.rfile.read(min(length, 65536))
            if not chunk:
                return
            length -= len(chunk)

    def _head(self, status: int, headers: dict[str, str]) -> bytes:
        """The status line and headers of a response, as bytes (written together with the body)."""
        lines = [f"{self.protocol_version} {status} {self.responses.get(status, ('',))[0]}"]
        lines.append(f"Server: {self.version_string()}")
        lines.append(f"Date: {_http_date()}")
        lines.extend(f"{name}: {value}" for name, value in headers.items())
        self.log_request(status)
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1", "strict")

    def _send(self, response: Response) -> None:
        if response.stream is not None:
            self.close_connection = True
            try:
                self.wfile.write(self._head(response.status, {**response.headers, "Connection": "close"}))
                for chunk in response.stream:
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError, TimeoutError):
                return
            finally:
                close = getattr(response.stream, "close", None)
                if close is not None:
                    close()
            return
        try:
            data = response.encoded()
        except ValueError:  # a value JSON cannot carry: a host bug, never sent as a non-JSON token
            error = HostError("internal_error", "the host failed to encode its answer")
            response, data = Response(error.status, error.envelope()), json.dumps(error.envelope()).encode()
        headers = {**response.headers, "Content-Type": "application/json", "Content-Length": str(len(data))}
        if self.close_connection:
            headers["Connection"] = "close"
        self.wfile.write(self._head(response.status, headers) + data)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The HTTP layer's own errors, as envelopes (never the default HTML page)."""
        if code == 501:  # a method the server has no handler for: there is no such operation
            error = HostError("not_found", f"no operation {self.command} {self.path}")
        else:
            error = HostError("validation_error" if code < 500 else "internal_error", message or "bad request")
        self.close_connection = True
        data = json.dumps(error.envelope()).encode("utf-8")
        headers = {"Content-Type": "application/json", "Content-Length": str(len(data)), "Connection": "close"}
        self.wfile.write(self._head(error.status, headers) + (b"" if self.command == "HEAD" else data))

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")


class WopServer(ThreadingHTTPServer):
    """One thread per open connection, as the standard server has it, but threads are kept and reused.

    Starting a thread cost about as much CPU time as answering a request; a connection is handed to an
    idle thread when there is one, and a thread idle for IDLE_THREAD_SECONDS ends.
    """

    daemon_threads = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, host: Host, address: tuple[str, int], quiet: bool = False) -> None:
        self.host = host
        self.quiet = quiet
        self._handoff: queue.SimpleQueue[tuple[Any, Any]] = queue.SimpleQueue()
        self._idle = 0  # threads waiting on _handoff, counted under _pool
        self._pool = threading.Lock()
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._pool:
            if self._idle:
                self._idle -= 1
                self._handoff.put((request, client_address))
                return
        threading.Thread(target=self._work, args=((request, client_address),), daemon=True).start()

    def _work(self, job: tuple[Any, Any]) -> None:
        while True:
            self.process_request_thread(*job)  # answers the connection until it closes, then shuts it down
            with self._pool:
                self._idle += 1
            try:
                job = self._handoff.get(timeout=IDLE_THREAD_SECONDS)
            except queue.Empty:
                with self._pool:
                    try:  # a connection handed over just as the wait ended is still this thread's
                        job = self._handoff.get_nowait()
                    except queue.Empty:
                        self._idle -= 1
                        return

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection broke mid-request: one line on stderr, no traceback."""
        if not self.quiet:
            sys.stderr.write(f"{client_address[0]}: connection error: {sys.exc_info()[1]}\n")


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
            f"({host.profile.description}); never serve it to real clients\n"
        )
    return WopServer(host, (bind, port), quiet)

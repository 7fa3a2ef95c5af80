"""How the runner talks to a host: in-process (a generated Host object) or over HTTP (any host).

Both answer `request(...) -> Reply` and `stream(...) -> [event]`, so every scenario runs unchanged
against either. Over HTTP every exchange is bounded: a deadline per request, a byte budget per
answer, a time and byte budget per event stream (which also stops at the run's terminal event),
and a deadline for the whole run. A redirect is followed only within the origin of `--url`; a
redirect to another origin is refused, so the bearer key never leaves the host it was given for.
"""

from __future__ import annotations

import http.client
import io
import json
import socket
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol
from urllib.parse import urljoin, urlsplit

from wopgen.corpus.documents import json_value

TERMINAL_EVENTS = frozenset({"run.completed", "run.failed", "run.cancelled"})
EXCERPT = 240  # characters of a body kept in a report
MAX_BODY_BYTES = 4 * 1024 * 1024  # an answer longer than this is cut and reported as such
MAX_STREAM_BYTES = 2 * 1024 * 1024
MAX_STREAM_EVENTS = 2_000
MAX_REDIRECTS = 3
AFTER_TERMINAL_CHUNKS = 64  # chunks an in-process stream may still yield after its terminal event
LATE = "the answer did not end within the request deadline"


@dataclass(frozen=True)
class Reply:
    status: int  # 0 when no HTTP answer came (refused connection, deadline, cut stream, refused redirect)
    body: Any
    headers: dict[str, str] = field(default_factory=dict)
    problem: str = ""  # what went wrong on the wire when status is 0 (or the answer was cut)

    def excerpt(self) -> str:
        if self.problem and self.status == 0:
            return self.problem
        text = self.body if isinstance(self.body, str) else json.dumps(self.body, sort_keys=True, default=str)
        return text if len(text) <= EXCERPT else text[:EXCERPT] + "..."


@dataclass(frozen=True)
class Exchange:
    """One request the runner sent and what came back, as a report shows it."""

    method: str
    path: str
    status: int
    excerpt: str

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "path": self.path, "status": self.status, "bodyExcerpt": self.excerpt}


class DeadlineExceeded(Exception):
    """The whole run's deadline passed: no further request is sent."""


class Transport(Protocol):
    description: str
    second_key: str | None  # a bearer key of another owner scope, for the owner-scope checks; None when unknown
    refused_redirects: list[str]

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        auth: bool = True,
        key: str | None = None,
    ) -> Reply: ...

    def stream(self, path: str) -> Reply: ...


def _decode(data: bytes) -> Any:
    """The JSON of an answer, or its text when it is not JSON the client can read.

    JSON nested deeper than the interpreter's recursion limit raises RecursionError, not ValueError;
    it is as unreadable as any other invalid answer.
    """
    if not data:
        return None
    try:
        return json_value(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return data.decode("utf-8", errors="replace")


def _encode(body: Any, raw: bytes | None) -> bytes:
    if raw is not None:
        return raw
    return b"" if body is None else json.dumps(body).encode("utf-8")


def parse_sse(lines: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    """Events of a server-sent event stream: one JSON event per `data`, or a JSON array for `batch`."""
    name, data = "message", list[str]()
    for raw in lines:
        line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        if line == "":
            if data:
                try:
                    decoded = json_value("\n".join(data))
                except (ValueError, RecursionError):  # not JSON, or nested too deeply to read
                    decoded = None
                if name == "batch" and isinstance(decoded, list):
                    yield from (e for e in decoded if isinstance(e, dict))
                elif isinstance(decoded, dict):
                    yield decoded
            name, data = "message", list[str]()
            continue
        if line.startswith(":"):
            continue
        key, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if key == "event":
            name = value
        elif key == "data":
            data.append(value)


def _lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line + b"\n"
    if buffer:
        yield buffer
    yield b"\n"


def until_terminal(events: Iterable[dict[str, Any]], limit: int = MAX_STREAM_EVENTS) -> list[dict[str, Any]]:
    """The events up to and including the run's terminal event, at most `limit` of them."""
    kept: list[dict[str, Any]] = []
    for event in events:
        kept.append(event)
        if event.get("type") in TERMINAL_EVENTS or len(kept) >= limit:
            break
    return kept


class InProcess:
    """Drives a generated `Host` object directly, through the same `handle` the HTTP server calls."""

    def __init__(self, host: Any, api_key: str, description: str, second_key: str | None = None) -> None:
        self.host = host
        self.api_key = api_key
        self.description = description
        self.second_key = second_key
        self.refused_redirects: list[str] = []
        self.internal_errors: list[str] = []  # what the host reported instead of a traceback
        host.on_error = lambda exc: self.internal_errors.append(f"{type(exc).__name__}: {exc}")

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        auth: bool = True,
        key: str | None = None,
    ) -> Reply:
        headers = {"Authorization": f"Bearer {key or self.api_key}"} if auth else {}
        response = self.host.handle(method, path, headers, _encode(body, raw))
        if response.stream is not None:
            chunks = iter(response.stream)
            events = until_terminal(parse_sse(_lines(chunks)))
            problem = ""
            ended = events[-1].get("type") if events else None
            # the stream MUST end after the terminal event: a few chunks more at most (no clock in-process)
            if ended in TERMINAL_EVENTS and next(islice(chunks, AFTER_TERMINAL_CHUNKS, None), None) is not None:
                problem = f"the stream went on after {ended}"
            return Reply(response.status, events, dict(response.headers), problem)
        return Reply(response.status, _decode(response.encoded()), dict(response.headers))

    def stream(self, path: str) -> Reply:
        return self.request("GET", path)


class TransportError(OSError):
    """The host could not be talked to over HTTP at all (an OSError, like a refused connection)."""


class _DeadlineReader(io.RawIOBase):
    """The socket's own reader, with the socket timeout cut before each receive to the time left until `ends`.

    A socket timeout bounds one receive only: a host that sends a byte just within it, again and
    again, would hold a status line, a header or a body open for ever. A read that would end past
    `ends` raises TimeoutError, as a socket timeout does, and says which deadline it was.
    """

    def __init__(self, raw: io.RawIOBase, sock: socket.socket, ends: float) -> None:
        super().__init__()
        self.raw = raw
        self.sock = sock
        self.ends = ends

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        left = self.ends - time.monotonic()
        if left <= 0:
            raise TimeoutError(LATE)
        self.sock.settimeout(left)
        try:
            return self.raw.readinto(buffer)
        except TimeoutError:
            raise TimeoutError(LATE) from None

    def close(self) -> None:
        self.raw.close()
        super().close()


def _response_class(ends: float) -> type[http.client.HTTPResponse]:
    """An HTTPResponse that reads its status line, headers and body through a `_DeadlineReader`."""

    class Bounded(http.client.HTTPResponse):
        def __init__(self, sock: socket.socket, *args: Any, **kwargs: Any) -> None:
            super().__init__(sock, *args, **kwargs)
            # detach, not close: the socket's reader keeps the socket open for the body once the
            # connection lets go of it (http.client closes the connection after `Connection: close`)
            self.fp = io.BufferedReader(_DeadlineReader(self.fp.detach(), sock, ends))

    return Bounded


def _origin(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, (parts.hostname or "").lower(), port


class Http:
    """Drives any host over HTTP with the bearer key, as an OpenWOP v1 client does, within budgets.

    `timeout` bounds each request (connect, headers and body together) and each stream read;
    `deadline` is the monotonic time after which no request is sent at all.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        timeout: float = 5.0,
        second_key: str | None = None,
        deadline: float | None = None,
        stream_bytes: int = MAX_STREAM_BYTES,
    ) -> None:
        self.base = base_url.rstrip("/")
        try:
            self.origin = _origin(self.base)
        except ValueError:  # a URL the client cannot parse: every request fails as a transport error
            self.origin = ("", "", 0)
        self.api_key = api_key
        self.second_key = second_key
        self.timeout = timeout
        self.deadline = deadline
        self.stream_bytes = stream_bytes
        self.description = self.base
        self.refused_redirects: list[str] = []

    # --- the wire ---------------------------------------------------------------------------------

    def _budget(self) -> float:
        """Seconds this request may take: the per-request timeout, cut at the whole run's deadline."""
        if self.deadline is None:
            return self.timeout
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise DeadlineExceeded("the whole run's deadline passed")
        return min(self.timeout, left)

    def _connect(self, url: str, ends: float) -> http.client.HTTPConnection:
        """A connection whose connect and send take at most the time left, and whose answer ends by `ends`."""
        scheme, host, port = _origin(url)
        kind = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
        connection = kind(host, port, timeout=max(0.05, ends - time.monotonic()))
        connection.response_class = _response_class(ends)
        return connection

    def _send(
        self, method: str, path: str, data: bytes | None, headers: dict[str, str]
    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse, float]:
        """Open `path` and follow same-origin redirects; a redirect elsewhere is refused (TransportError)."""
        seconds = self._budget()
        ends = time.monotonic() + seconds
        url = self.base + path
        for _ in range(MAX_REDIRECTS + 1):
            try:
                connection = self._connect(url, ends)
                target = urlsplit(url)
                connection.request(
                    method, (target.path or "/") + (f"?{target.query}" if target.query else ""), data, headers
                )
                answer = connection.getresponse()
            except (OSError, http.client.HTTPException, ValueError) as exc:
                raise TransportError(f"{type(exc).__name__}: {exc}") from None
            location = answer.getheader("Location")
            if answer.status not in (301, 302, 303, 307, 308) or not location:
                return connection, answer, ends
            connection.close()
            following = urljoin(url, location)
            if _origin(following) != self.origin:
                refused = f"{method} {path} redirected to {following} (another origin): not followed, key not sent"
                self.refused_redirects.append(refused)
                raise TransportError(refused)
            url = following
            if answer.status == 303:
                method, data = "GET", None
        raise TransportError(f"{method} {path}: more than {MAX_REDIRECTS} redirects")

    @staticmethod
    def _read(answer: http.client.HTTPResponse, ends: float, limit: int) -> tuple[bytes, str]:
        """At most `limit` bytes of the body, read before `ends`; the second value says why reading stopped early."""
        chunks: list[bytes] = []
        size = 0
        while True:
            if time.monotonic() > ends:
                return b"".join(chunks), LATE
            try:
                chunk = answer.read1(65536)
            except TimeoutError:
                return b"".join(chunks), LATE
            except (OSError, http.client.HTTPException) as exc:
                return b"".join(chunks), f"{type(exc).__name__}: {exc}"
            if not chunk:
                # read1 ends quietly where the connection closed: what the Content-Length still
                # announces (http.client counts it down) never came
                missing = answer.length or 0
                cut = f"the connection closed {missing} bytes before the end its Content-Length announced"
                return b"".join(chunks), cut if missing else ""
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                return b"".join(chunks)[:limit], f"the answer is longer than {limit} bytes"

    def _headers(self, auth: bool, key: str | None, accept: str) -> dict[str, str]:
        headers = {"Accept": accept, "Connection": "close"}
        if auth:
            headers["Authorization"] = f"Bearer {key or self.api_key}"
        return headers

    # --- the Transport protocol -----------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        auth: bool = True,
        key: str | None = None,
    ) -> Reply:
        headers = self._headers(auth, key, "application/json")
        data = _encode(body, raw) if (body is not None or raw is not None) else None
        if data is not None:
            headers["Content-Type"] = "application/json"
        connection, answer, ends = self._send(method, path, data, headers)
        try:
            content, problem = self._read(answer, ends, MAX_BODY_BYTES)
        finally:
            connection.close()
        return Reply(answer.status, _decode(content), dict(answer.getheaders()), problem)

    def stream(self, path: str) -> Reply:
        """The events of an SSE stream up to the run's terminal event, and whether the host then closed it.

        A host MUST end the stream after the terminal event (run-surface.md): once it came, the rest
        is read (and dropped) until the host closes the connection; a stream still open when the
        request deadline (`--timeout`) passes, or still sending past the byte budget, is reported in
        `problem`. Without a terminal event, reading stops at the deadline or the budget as well.
        """
        headers = self._headers(True, None, "text/event-stream")
        connection, answer, ends = self._send("GET", path, None, headers)
        events: list[dict[str, Any]] = []
        problem = ""
        ended = ""  # the terminal event, once it came
        try:
            if answer.status != 200:
                content, _ = self._read(answer, ends, MAX_BODY_BYTES)
                return Reply(answer.status, _decode(content), dict(answer.getheaders()))
            budget = [self.stream_bytes]

            def late() -> str:
                if ended:
                    return f"the host did not close the stream within the request deadline after {ended}"
                return "the stream did not reach a terminal event within the request deadline"

            def chunks() -> Iterator[bytes]:
                nonlocal problem
                while True:
                    if time.monotonic() > ends:
                        problem = late()
                        return
                    try:
                        chunk = answer.read1(4096)
                    except TimeoutError:
                        problem = late()
                        return
                    except (OSError, http.client.HTTPException) as exc:
                        if not ended:  # after the terminal event, a reset still ends the stream
                            problem = f"{type(exc).__name__}: {exc}"
                        return
                    if not chunk:
                        return
                    budget[0] -= len(chunk)
                    if budget[0] < 0:
                        problem = (
                            f"the stream sent more than {self.stream_bytes} bytes and was not closed after {ended}"
                            if ended
                            else f"the stream sent more than {self.stream_bytes} bytes without a terminal event"
                        )
                        return
                    yield chunk

            source = chunks()
            events = until_terminal(parse_sse(_lines(source)))
            if events and events[-1].get("type") in TERMINAL_EVENTS and not problem:
                ended = str(events[-1]["type"])
                for _ in source:  # what follows the terminal event, until the host closes the stream
                    pass
        finally:
            connection.close()
        return Reply(answer.status, events, dict(answer.getheaders()), problem)

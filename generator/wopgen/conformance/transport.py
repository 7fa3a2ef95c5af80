"""How the runner talks to a host: in-process (a generated Host object) or over HTTP (any host).

Both answer `request(...) -> Reply` and `stream(...) -> [event]`, so every scenario runs unchanged
against either.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


class Transport(Protocol):
    description: str
    second_key: str | None  # a bearer key of another owner scope, for the 403 checks; None when unknown

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

    def stream(self, path: str) -> list[dict[str, Any]]: ...


def _decode(data: bytes) -> Any:
    if not data:
        return None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
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
                    decoded = json.loads("\n".join(data))
                except ValueError:
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


class InProcess:
    """Drives a generated `Host` object directly, through the same `handle` the HTTP server calls."""

    def __init__(self, host: Any, api_key: str, description: str, second_key: str | None = None) -> None:
        self.host = host
        self.api_key = api_key
        self.description = description
        self.second_key = second_key
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
            return Reply(response.status, list(parse_sse(_lines(response.stream))), dict(response.headers))
        return Reply(response.status, _decode(response.encoded()), dict(response.headers))

    def stream(self, path: str) -> list[dict[str, Any]]:
        reply = self.request("GET", path)
        return list(reply.body) if isinstance(reply.body, list) else []


class TransportError(OSError):
    """The host could not be talked to over HTTP at all (an OSError, like a refused connection)."""


class Http:
    """Drives any host over HTTP with the bearer key, as an OpenWOP v1 client does."""

    def __init__(self, base_url: str, api_key: str, timeout: float = 20.0, second_key: str | None = None) -> None:
        self.base = base_url.rstrip("/")
        self.api_key = api_key
        self.second_key = second_key
        self.timeout = timeout
        self.description = self.base

    def _open(self, method: str, path: str, data: bytes | None, headers: dict[str, str]) -> Any:
        try:
            request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
            return urllib.request.urlopen(request, timeout=self.timeout)
        except (ValueError, http.client.HTTPException) as exc:
            # A URL the client cannot parse (bad IPv6 literal, port) or a reply that is not HTTP:
            # a transport failure like a refused connection, not a crash.
            raise TransportError(f"{type(exc).__name__}: {exc}") from None

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
        headers = {"Accept": "application/json"}
        data = _encode(body, raw) if (body is not None or raw is not None) else None
        if data is not None:
            headers["Content-Type"] = "application/json"
        if auth:
            headers["Authorization"] = f"Bearer {key or self.api_key}"
        try:
            with self._open(method, path, data, headers) as answer:
                return Reply(answer.status, _decode(answer.read()), dict(answer.headers.items()))
        except urllib.error.HTTPError as error:
            return Reply(error.code, _decode(error.read()), dict(error.headers.items()) if error.headers else {})
        except http.client.HTTPException as exc:  # e.g. a reply cut short while it was read
            raise TransportError(f"{type(exc).__name__}: {exc}") from None

    def stream(self, path: str) -> list[dict[str, Any]]:
        headers = {"Accept": "text/event-stream", "Authorization": f"Bearer {self.api_key}"}
        try:
            with self._open("GET", path, None, headers) as answer:
                return list(parse_sse(answer))
        except http.client.HTTPException as exc:
            raise TransportError(f"{type(exc).__name__}: {exc}") from None

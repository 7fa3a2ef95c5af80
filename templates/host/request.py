"""One HTTP/1.1 request read off a connection, strictly (RFC 9112): its head, then how its body is framed.

The request line and header fields are parsed here, without the e-mail parser the standard library's
handler uses (it cost about half of each request's CPU time); what is malformed (a folded line, a field
name with spaces, a version other than HTTP/1.0 or 1.1, a line or a field count over its limit) is
`Refused`, and so is an HTTP/1.1 request without exactly one `Host` field. A body is framed by exactly
one `Content-Length` of digits only, or by `Transfer-Encoding: chunked` (decoded here, within the
caller's bound); anything that would leave the framing ambiguous (both headers, two lengths, another
transfer coding) is `Refused` too. A refusal is answered with a 400 envelope and the connection
closed, since what follows it cannot be trusted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .reader import Reader

LINE_LIMIT = 65536  # the request line, or one header field line, in bytes
FIELD_COUNT_LIMIT = 100  # header fields in one request
_DIGITS = re.compile(r"[0-9]{1,18}")
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,8})(;[^\r\n]*)?\r?\n")
_CHUNK_LINE_LIMIT = 8192
_FIELD_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_VERSION = re.compile(r"HTTP/(\d)\.(\d)")


class Refused(Exception):
    """A request this host will not read on: answered with a 400 and the connection closed."""


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


@dataclass
class Head:
    """A request line and its header fields."""

    method: str
    target: str
    version: str
    headers: Headers
    line: str  # the request line as sent, for the log

    @property
    def keep_alive(self) -> bool:
        """HTTP/1.1 keeps the connection unless `Connection: close`; 1.0 closes it unless `Connection: keep-alive`."""
        connection = (self.headers.get("Connection") or "").lower()
        return connection != "close" and (self.version == "HTTP/1.1" or connection == "keep-alive")

    @property
    def expects_continue(self) -> bool:
        """An HTTP/1.1 client waiting for `100 Continue` before it sends the body."""
        return self.version == "HTTP/1.1" and (self.headers.get("Expect") or "").lower() == "100-continue"


def read_head(reader: Reader) -> Head | None:
    """The next request head, or None when there is none to answer (the client left, or sent an empty line)."""
    raw = reader.readline(LINE_LIMIT + 1)
    if len(raw) > LINE_LIMIT:
        raise Refused("the request line is too long")
    line = str(raw, "iso-8859-1").rstrip("\r\n")
    if not line:
        return None
    words = line.split(" ")
    version = _VERSION.fullmatch(words[-1]) if len(words) == 3 else None
    if len(words) != 3 or not words[0] or not words[1] or version is None:
        raise Refused(f"a request line is METHOD TARGET HTTP/1.1, not {line[:100]!r}")
    if (version[1], version[2]) not in (("1", "0"), ("1", "1")):
        raise Refused(f"this host speaks HTTP/1.0 and HTTP/1.1, not {words[2][:20]}")
    method, target, protocol = words
    if target.startswith("//"):
        target = "/" + target.lstrip("/")
    fields: list[tuple[str, str]] = []
    while True:
        field_line = reader.readline(LINE_LIMIT + 1)
        if not field_line:
            return None  # the client went away in the middle of its headers
        if len(field_line) > LINE_LIMIT:
            raise Refused("a header field line is too long")
        if field_line in (b"\r\n", b"\n"):
            hosts = sum(1 for name, _ in fields if name.lower() == "host")
            if hosts > 1 or (hosts == 0 and protocol == "HTTP/1.1"):  # RFC 9112, section 3.2
                raise Refused("an HTTP/1.1 request carries exactly one Host header field")
            return Head(method, target, protocol, Headers(fields), line)
        if len(fields) >= FIELD_COUNT_LIMIT:
            raise Refused(f"more than {FIELD_COUNT_LIMIT} header fields")
        name, colon, value = str(field_line, "iso-8859-1").partition(":")
        if not colon or not _FIELD_NAME.fullmatch(name):
            raise Refused("a header field is malformed (folded, no colon, or a name with spaces)")
        fields.append((name, value.strip(" \t\r\n")))


def body_length(headers: Headers) -> int | None:
    """The body's size by its one `Content-Length` (0 without one), or None for a chunked body."""
    lengths = headers.get_all("Content-Length") or []
    codings = [c.strip().lower() for v in headers.get_all("Transfer-Encoding") or [] for c in v.split(",")]
    if codings:
        if lengths:
            raise Refused("send either Content-Length or Transfer-Encoding, not both")
        if codings != ["chunked"]:
            raise Refused("the only transfer coding this host reads is chunked")
        return None
    if len(lengths) > 1:
        raise Refused("send one Content-Length header, not several")
    if not lengths:
        return 0
    if not _DIGITS.fullmatch(lengths[0].strip()):
        raise Refused("Content-Length must be a decimal number of bytes")
    return int(lengths[0])


def read_chunked(reader: Reader, limit: int) -> bytes:
    """The body of a chunked request (RFC 9112 section 7.1), refused once it passes `limit` bytes."""
    parts: list[bytes] = []
    size = 0
    while True:
        match = _CHUNK_SIZE.fullmatch(reader.readline(_CHUNK_LINE_LIMIT))
        if match is None:
            raise Refused("a chunk size line is malformed")
        length = int(match.group(1), 16)
        if length == 0:
            break
        size += length
        if size > limit:
            raise Refused(f"the body must be 0 to {limit} bytes")
        data = reader.read(length)
        if len(data) != length or reader.readline(_CHUNK_LINE_LIMIT) not in (b"\r\n", b"\n"):
            raise Refused("a chunk is shorter than its size or not followed by CRLF")
        parts.append(data)
    for _ in range(64):  # trailer fields, up to the empty line
        line = reader.readline(_CHUNK_LINE_LIMIT)
        if line in (b"\r\n", b"\n"):
            return b"".join(parts)
        if not line.endswith(b"\n"):
            break
    raise Refused("the chunked body does not end with an empty line")

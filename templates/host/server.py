"""HTTP transport over the standard library's ThreadingHTTPServer: one thread per connection.

Everything protocol-level is in `Host.handle`; this module only moves bytes. Bodies over the
advertised `limits.maxRequestBodyBytes` are refused without being kept; errors of the HTTP layer
itself (a malformed request line, an unsupported method) are answered with an error envelope too.
"""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .app import Host, Response
from .errors import HostError

# An oversized body up to this size is read and thrown away before the 400 goes out; past it the
# connection is simply closed.
DRAIN_LIMIT = 16 * 1024 * 1024


class _Handler(BaseHTTPRequestHandler):
    server: WopServer
    protocol_version = "HTTP/1.1"
    timeout = 30  # seconds a connection may stall (a body that never arrives) before it is dropped

    def _serve(self) -> None:
        host = self.server.host
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > host.profile.max_body_bytes:
            self.close_connection = True
            self._discard(min(length, DRAIN_LIMIT))  # so the client reads the answer, not a reset
            error = HostError("validation_error", f"the body must be 0 to {host.profile.max_body_bytes} bytes")
            self._send(Response(error.status, error.envelope()))
            return
        body = self.rfile.read(length) if length else b""
        self._send(host.handle(self.command, self.path, dict(self.headers.items()), body))

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

    def _discard(self, length: int) -> None:
        while length > 0:
            chunk = self.rfile.read(min(length, 65536))
            if not chunk:
                return
            length -= len(chunk)

    def _send(self, response: Response) -> None:
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        if response.stream is not None:
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                for chunk in response.stream:
                    self.wfile.write(chunk)
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return
            return
        data = response.encoded()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The HTTP layer's own errors, as envelopes (never the default HTML page)."""
        if code == 501:  # a method the server has no handler for: there is no such operation
            error = HostError("not_found", f"no operation {self.command} {self.path}")
        else:
            error = HostError("validation_error" if code < 500 else "internal_error", message or "bad request")
        self.close_connection = True
        data = json.dumps(error.envelope()).encode("utf-8")
        self.send_response(error.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")


class WopServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: Host, address: tuple[str, int], quiet: bool = False) -> None:
        self.host = host
        self.quiet = quiet
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection broke mid-request: one line on stderr, no traceback."""
        if not self.quiet:
            sys.stderr.write(f"{client_address[0]}: connection error: {sys.exc_info()[1]}\n")


def make_server(host: Host, bind: str = "127.0.0.1", port: int = 0, quiet: bool = False) -> WopServer:
    """A server for `host` on `bind:port` (port 0 picks a free one; see `server.server_address`)."""
    return WopServer(host, (bind, port), quiet)

"""A byte reader over one non-blocking client socket, whose buffer the server can look into.

The server answers one request of a connection at a time and hands the connection back to its poller
in between, so whatever a client sent past the current request (pipelined requests) must stay with
the connection: it stays in this reader's buffer, and `pending()` says whether there is any. `fill(want)`
takes what the kernel already holds without waiting; `readline(limit)` and `read(n)` wait for more
when they must, each wait bounded by `stall_seconds` without a byte arriving (a `TimeoutError`).
"""

from __future__ import annotations

import socket
from collections.abc import Callable

RECV_SIZE = 65536


class Reader:
    """Buffered reads from `sock`, which stays in non-blocking mode between calls.

    `on_wait(True)` is called before the reader blocks waiting on the client and `on_wait(False)` after,
    so the server can tell how many of its threads a slow client holds.
    """

    def __init__(
        self, sock: socket.socket, stall_seconds: float, on_wait: Callable[[bool], None] | None = None
    ) -> None:
        self._sock = sock
        self._buffer = bytearray()
        self._start = 0  # where the unread bytes begin in _buffer
        self._scanned = 0  # head_ready: where the line it has not scanned yet begins
        self._lines = 0  # head_ready: the whole lines it has scanned
        self.stall_seconds = stall_seconds
        self.eof = False  # the client has closed its side
        self._on_wait = on_wait

    def pending(self) -> int:
        """How many bytes were received and not read yet."""
        return len(self._buffer) - self._start

    def fill(self, want: int) -> int:
        """Take what the kernel already holds for this socket, without waiting, until `want` bytes are
        pending (so a client sending fast cannot make the buffer grow past what is asked for); how many came.
        """
        got = 0
        while not self.eof and self.pending() < want:
            try:
                data = self._sock.recv(RECV_SIZE)
            except (BlockingIOError, InterruptedError):
                break
            self._append(data)
            got += len(data)
            if len(data) < RECV_SIZE:
                break
        return got

    def head_ready(self, line_limit: int, lines_limit: int) -> bool:
        """Whether the next request head has all arrived (up to its empty line), or is already so long
        that reading it must fail: a line over `line_limit` bytes, or more than `lines_limit` lines.

        An empty first line counts as a whole (empty) head. Each byte is scanned once however slowly
        the head arrives: the scan goes on where the last call stopped.
        """
        at = max(self._scanned, self._start)
        while True:
            newline = self._buffer.find(b"\n", at)
            if newline < 0:
                self._scanned = at
                return len(self._buffer) - at > line_limit
            if newline + 1 - at > line_limit:
                return True
            if newline == at or (newline == at + 1 and self._buffer[at] == 13):
                return True  # the empty line that ends a head
            self._lines += 1
            if self._lines > lines_limit:
                return True
            at = newline + 1

    def readline(self, limit: int) -> bytes:
        """The next line with its LF, or the first `limit` bytes when the line is longer; what is left at EOF."""
        searched = self._start
        while True:
            newline = self._buffer.find(b"\n", searched, self._start + limit)
            if newline >= 0:
                return self._take(newline + 1 - self._start)
            if self.pending() >= limit or self.eof:
                return self._take(min(limit, self.pending()))
            searched = len(self._buffer)
            self._wait()

    def read(self, size: int) -> bytes:
        """The next `size` bytes, or fewer when the client closes its side first."""
        while self.pending() < size and not self.eof:
            self._wait()
        return self._take(min(size, self.pending()))

    def discard(self, size: int) -> int:
        """Read and throw away up to `size` bytes without keeping them; how many were thrown away."""
        thrown = 0
        while thrown < size:
            if not self.pending():
                if self.eof:
                    break
                self._wait()
            thrown += len(self._take(min(size - thrown, self.pending())))
        return thrown

    def _take(self, size: int) -> bytes:
        data = bytes(self._buffer[self._start : self._start + size])
        self._start += size
        self._scanned = self._lines = 0  # a head is being read: the next one is scanned afresh
        if self._start == len(self._buffer):
            self._buffer.clear()
            self._start = 0
        elif self._start > RECV_SIZE:
            del self._buffer[: self._start]
            self._start = 0
        return data

    def _append(self, data: bytes) -> None:
        if data:
            self._buffer += data
        else:
            self.eof = True

    def _wait(self) -> None:
        """Block until more bytes arrive: at most `stall_seconds` (TimeoutError), or EOF."""
        if self.fill(self.pending() + 1) or self.eof:
            return
        if self._on_wait is not None:
            self._on_wait(True)
        try:
            self._sock.settimeout(self.stall_seconds)
            try:
                self._append(self._sock.recv(RECV_SIZE))
            finally:
                self._sock.setblocking(False)
        finally:
            if self._on_wait is not None:
                self._on_wait(False)

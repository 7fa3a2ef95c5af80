"""Benchmark: `wopgen host serve` under concurrent load, on loopback only.

The host runs in its own process (`wopgen host serve --port 0`), so its resident memory can be read
from /proc and the clients' threads do not share its interpreter lock. For each operation
(discovery, run creation, event poll), each number of concurrent clients (1, 16, 64) and each
connection mode (keep-alive, or `Connection: close` with a new connection per request) it reports
requests per second, p50 and p99 latency in milliseconds, and how many requests got no answer or an
unexpected status. The baseline, measured in the same run, is the same cell with `Connection:
close`: keep-alive should never be slower than half of it.

Then it creates runs (10,000 by default, 16 clients, keep-alive) and reports the host's RSS before
and after next to the run store's byte budget, and does the same with runs of 100 KB inputs.
Everything is bounded: a fixed number of requests per cell, a socket timeout, and the host process
is stopped at the end.

    python benchmarks/host_load.py [--requests 400] [--runs 10000] [--big-runs 1000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KEY = "load-key"
AUTH = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
TIMEOUT = 30.0


@dataclass
class Cell:
    """What one (operation, clients, mode) cell measured."""

    latencies: list[float] = field(default_factory=list)
    failures: int = 0
    seconds: float = 0.0

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else float("nan")

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0


@contextmanager
def served(*options: str) -> Iterator[tuple[int, int]]:
    """A `wopgen host serve` process on 127.0.0.1: (port, pid)."""
    command = [sys.executable, "-m", "wopgen", "--root", str(ROOT), "host", "serve", "--port", "0", "--quiet"]
    process = subprocess.Popen(
        [*command, "--api-key", KEY, *options], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if match is None:
            raise SystemExit(f"the host did not start: {line!r}")
        yield int(match.group(1)), process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _request(method: str, path: str, body: bytes | None, keep_alive: bool) -> bytes:
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in AUTH.items())]
    head.append(f"Content-Length: {len(body or b'')}")
    if not keep_alive:
        head.append("Connection: close")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + (body or b"")


def _answer(reader: Any) -> tuple[int, bool]:
    """The status of one response read off `reader`, and whether the host closes the connection after it."""
    status_line = reader.readline()
    if not status_line:
        raise ConnectionResetError("the host closed the connection")
    status, length, closing = int(status_line.split()[1]), 0, False
    while (line := reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
        elif name.lower() == b"connection":
            closing = value.strip().lower() == b"close"
    reader.read(length)
    return status, closing


def load(port: int, method: str, paths: list[str], body: bytes | None, clients: int, keep_alive: bool) -> Cell:
    """`len(paths)` requests spread over `clients` threads; each thread keeps or renews its connection.

    The clients speak HTTP/1.1 over plain sockets with requests prepared in advance, so what is
    measured is the host, not a client library's header parsing.
    """
    cell = Cell()
    lock = threading.Lock()
    todo = iter(paths)
    expected = 201 if method == "POST" else 200
    prepared = {path: _request(method, path, body, keep_alive) for path in set(paths)}

    def client() -> None:
        sock: socket.socket | None = None
        reader: Any = None
        while True:
            with lock:
                path = next(todo, None)
            if path is None:
                break
            start = time.perf_counter()
            try:
                if sock is None:
                    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    reader = sock.makefile("rb")
                sock.sendall(prepared[path])
                status, closing = _answer(reader)
                ok = status == expected
                if closing or not keep_alive:
                    reader.close()
                    sock.close()
                    sock = None
            except OSError:
                ok = False
                if sock is not None:
                    sock.close()
                sock = None
            elapsed = time.perf_counter() - start
            with lock:
                if ok:
                    cell.latencies.append(elapsed)
                else:
                    cell.failures += 1
        if sock is not None:
            sock.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cell.seconds = time.perf_counter() - began
    return cell


def create_run(port: int, body: dict[str, object]) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    connection.request("POST", "/v1/runs", body=json.dumps(body).encode(), headers=AUTH)
    reply = connection.getresponse()
    answer = json.loads(reply.read())
    connection.close()
    return str(answer["runId"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=400, help="requests per cell (default 400)")
    parser.add_argument("--runs", type=int, default=10_000, help="runs created for the memory figure")
    parser.add_argument("--big-runs", type=int, default=1000, help="runs of 100 KB inputs for the memory figure")
    parser.add_argument("--clients", default="1,16,64", help="concurrent clients per cell")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    create = json.dumps({"workflowId": "load", "inputs": {"n": 1}}).encode()

    with served() as (port, pid):
        operations = {
            "discovery": ("GET", "/.well-known/openwop", None),
            "create": ("POST", "/v1/runs", create),
            "poll": ("GET", "/v1/runs/{runId}/events/poll?lastSequence=-1", None),
        }
        print(f"host_load: {args.requests} requests per cell, host pid {pid}, 127.0.0.1:{port}")
        print(f"{'operation':<10} {'clients':>7} {'mode':<10} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'failed':>6}")
        worst_ratio = 0.0
        unanswered = 0
        for name, (method, path, body) in operations.items():
            for clients in counts:
                cells = {}
                for keep_alive in (True, False):
                    # a run made just before the cell, so the store has not evicted it
                    target = path.format(runId=create_run(port, {"workflowId": "load"}))
                    cell = load(port, method, [target] * args.requests, body, clients, keep_alive)
                    cells[keep_alive] = cell
                    unanswered += cell.failures
                    mode = "keep-alive" if keep_alive else "close"
                    print(
                        f"{name:<10} {clients:>7} {mode:<10} {cell.rate:>8.0f} {cell.percentile(0.5):>8.1f} "
                        f"{cell.percentile(0.99):>8.1f} {cell.failures:>6}"
                    )
                if cells[True].rate:
                    worst_ratio = max(worst_ratio, cells[False].rate / cells[True].rate)
        print(f"requests without a correct answer: {unanswered}")
        print(f"worst close/keep-alive throughput ratio: {worst_ratio:.2f} (keep-alive within 2x: {worst_ratio <= 2})")

    budget_bytes = 32 * 1024 * 1024
    for label, runs, inputs in (
        ("small runs", args.runs, {"n": 1}),
        ("100 KB runs", args.big_runs, {"blob": "x" * 100_000}),
    ):
        with served("--max-run-bytes", str(budget_bytes)) as (port, pid):
            create_run(port, {"workflowId": "warm-up"})
            before = rss_mb(pid)
            body = json.dumps({"workflowId": "load", "inputs": inputs}).encode()
            start = time.perf_counter()
            cell = load(port, "POST", ["/v1/runs"] * runs, body, 16, True)
            seconds = time.perf_counter() - start
            after = rss_mb(pid)
            print(
                f"{label}: {runs} created in {seconds:.1f} s ({cell.failures} failed); RSS {before:.1f} MB -> "
                f"{after:.1f} MB (+{after - before:.1f} MB; run store budget {budget_bytes / 2**20:.0f} MiB, "
                f"{1000} runs)"
            )


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()

"""Benchmark: `wopgen host serve` under concurrent load, on loopback only.

The host runs in its own process (`wopgen host serve --port 0`), so its resident memory can be read
from /proc; the clients are non-blocking sockets multiplexed in one thread of this process, so a
latency measures the host, not the load generator's threads waiting for their interpreter lock.

For each operation (discovery, run creation, event poll), each number of concurrent clients (1, 16,
64) and each connection mode (keep-alive, or `Connection: close` with a new connection per request)
it reports requests per second, p50 and p99 latency in milliseconds, and requests that got no answer
or an unexpected status:

- closed loop: each client sends its next request as soon as it has an answer, so the host is
  saturated and no mean latency can be below clients / throughput (Little's law); that floor is
  printed beside the percentiles, and so is the host's CPU time per request (read from /proc), its
  cost whatever else the machine runs. The two modes take turns in rounds within a cell, and the
  baseline of the keep-alive figures is the close figures measured in the same rounds: keep-alive
  should never be more than 2x slower, by p50 latency and by host CPU per request (mean throughput
  on a shared machine mostly measures the machine's other work, so it is printed, not judged).
- paced: 64 clients each send a request every 1/--pace seconds on a fixed schedule, the latency
  counted from when the request was due; this is the p99 a client sees at that load, held to 50 ms.
  `lag p99` is how late the load generator itself sent (a loaded machine delays it too).

Then one keep-alive client creates 2,500 runs in a store capped at 500 (a create must cost the
host the same CPU time while the store evicts as while it fills), and it creates runs (10,000 by default, 16
clients) and reports the host's RSS before and after next to the run store's byte budget, and the
same with runs of 100 KB inputs. It ends with one `ok`/`FAIL` line per target and exits 1 when one
fails. Everything is bounded: a fixed number of requests per cell, a timeout per request, and the
host process is stopped at the end.

    python benchmarks/host_load.py [--requests 1000] [--runs 10000] [--big-runs 1000] [--pace 5]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import selectors
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEY = "load-key"
AUTH = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
TIMEOUT = 30.0
ROUNDS = 4  # turns each connection mode takes within one cell


@dataclass
class Cell:
    """What one (operation, clients, mode) cell measured."""

    latencies: list[float] = field(default_factory=list)
    failures: int = 0
    seconds: float = 0.0
    host_cpu: float = 0.0  # CPU seconds the host process spent meanwhile (user and system)
    lags: list[float] = field(default_factory=list)  # paced: how late the load generator sent each request

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else float("nan")

    def add(self, other: Cell) -> None:
        """Count `other`, measured in the same conditions at another moment, as part of this cell."""
        self.latencies += other.latencies
        self.failures += other.failures
        self.seconds += other.seconds
        self.host_cpu += other.host_cpu
        self.lags += other.lags

    @property
    def cpu_us(self) -> float:
        """Host CPU time per answered request, in microseconds: its cost, whatever else the machine runs."""
        return self.host_cpu / len(self.latencies) * 1e6 if self.latencies else float("nan")

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


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process `pid` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


@dataclass
class _Connection:
    """One client of `drive`: its socket (None between connections), what it has read, when its request began."""

    sock: socket.socket | None = None
    buffer: bytearray = field(default_factory=bytearray)
    began: float = 0.0  # when the request in flight began, or was due (paced)
    due: float | None = None  # when the next request is due; None: this client is done
    busy: bool = False
    sent: int = 0


def _parse(buffer: bytearray) -> tuple[int, bool] | None:
    """(status, whether the host closes) once `buffer` holds a whole response, else None."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = bytes(buffer[:end]).split(b"\r\n")
    status, length, closing = int(lines[0].split()[1]), 0, False
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
        elif name.lower() == b"connection":
            closing = value.strip().lower() == b"close"
    return (status, closing) if len(buffer) >= end + 4 + length else None


def drive(
    port: int,
    request: bytes,
    total: int,
    clients: int,
    keep_alive: bool,
    expected: int,
    interval: float = 0.0,
    pid: int | None = None,
) -> Cell:
    """`total` requests from `clients` concurrent connections.

    Without `interval` (closed loop) each client sends its next request as soon as its answer is in,
    which measures the host saturated: every client always waits, and by Little's law the mean latency
    is at least clients / throughput. With `interval` (paced) each client sends one request every
    `interval` seconds on a fixed schedule, the clients spread evenly over it; a latency then runs from
    the moment the request was due, so a host that falls behind its schedule is not excused for it.

    One thread multiplexes every client with non-blocking sockets: no client waits for an interpreter lock
    or a thread switch of the load generator, so a latency is the host's (plus the loopback) and not the
    scheduling of 64 client threads. A latency includes connecting, without keep-alive, and ends when the
    last byte of the answer is read.
    """
    cell = Cell()
    selector = selectors.DefaultSelector()
    todo = total
    cpu_before = cpu_seconds(pid) if pid else 0.0
    connections = [_Connection() for _ in range(min(clients, total))]
    began = time.perf_counter()
    for n, connection in enumerate(connections):
        connection.due = began + interval * n / len(connections)

    def drop(connection: _Connection) -> None:
        if connection.sock is not None:
            selector.unregister(connection.sock)
            connection.sock.close()
            connection.sock = None

    def begin(connection: _Connection) -> None:
        nonlocal todo
        assert connection.due is not None
        todo -= 1
        connection.busy = True
        connection.began = connection.due if interval else time.perf_counter()
        if interval:
            cell.lags.append(time.perf_counter() - connection.due)
        connection.buffer.clear()
        connection.sent = 0
        if connection.sock is None:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            connection.sock = sock
            selector.register(sock, selectors.EVENT_WRITE, connection)
        else:
            selector.modify(connection.sock, selectors.EVENT_WRITE, connection)

    def finish(connection: _Connection, ok: bool, close: bool) -> None:
        now = time.perf_counter()
        if ok:
            cell.latencies.append(now - connection.began)
        else:
            cell.failures += 1
        connection.busy = False
        if close:
            drop(connection)
        connection.due = (connection.began + interval if interval else now) if todo > 0 else None

    while True:
        now = time.perf_counter()
        waiting = [c for c in connections if not c.busy and c.due is not None]
        for connection in waiting:
            if todo == 0:
                connection.due = None
            elif connection.due is not None and connection.due <= now:
                begin(connection)
        waiting = [c for c in connections if not c.busy and c.due is not None]
        if not waiting and not any(c.busy for c in connections):
            break
        soonest = min((c.due for c in waiting if c.due is not None), default=now + 1.0)
        for key, events in selector.select(timeout=max(0.0, min(1.0, soonest - now))):
            connection = key.data
            sock = connection.sock
            if sock is None:
                continue
            if not connection.busy:  # an idle keep-alive connection the host closed: reconnect next time
                drop(connection)
                continue
            try:
                if events & selectors.EVENT_WRITE:
                    connection.sent += sock.send(request[connection.sent :])
                    if connection.sent == len(request):
                        selector.modify(sock, selectors.EVENT_READ, connection)
                    continue
                data = sock.recv(65536)
            except OSError:
                finish(connection, False, True)
                continue
            if not data:
                finish(connection, False, True)
                continue
            connection.buffer += data
            answer = _parse(connection.buffer)
            if answer is not None:
                status, closing = answer
                finish(connection, status == expected, closing or not keep_alive)
        now = time.perf_counter()
        for connection in connections:
            if connection.busy and now - connection.began > TIMEOUT:
                finish(connection, False, True)
    for connection in connections:
        drop(connection)
    cell.seconds = time.perf_counter() - began
    cell.host_cpu = cpu_seconds(pid) - cpu_before if pid else 0.0
    selector.close()
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
    parser.add_argument("--requests", type=int, default=1000, help="requests per cell (default 1000)")
    parser.add_argument("--runs", type=int, default=10_000, help="runs created for the memory figure")
    parser.add_argument("--big-runs", type=int, default=1000, help="runs of 100 KB inputs for the memory figure")
    parser.add_argument("--clients", default="1,16,64", help="concurrent clients per cell")
    parser.add_argument("--pace", type=float, default=5.0, help="requests per second of each paced client (default 5)")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    create = json.dumps({"workflowId": "conformance-noop", "inputs": {"n": 1}}).encode()
    verdicts: dict[str, bool] = {}

    with served() as (port, pid):
        operations = {
            "discovery": ("GET", "/.well-known/openwop", None),
            "create": ("POST", "/v1/runs", create),
            "poll": ("GET", "/v1/runs/{runId}/events/poll?lastSequence=-1", None),
        }
        print(f"host_load: {args.requests} requests per cell, host pid {pid}, 127.0.0.1:{port}")
        print("closed loop (each client sends its next request as soon as it has an answer: the host saturated;")
        print("by Little's law no latency can average below the floor, clients / throughput):")
        print(
            f"{'operation':<10} {'clients':>7} {'mode':<10} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
            f"{'floor ms':>8} {'host us':>8} {'failed':>6}"
        )
        worst_ratio, worst_wall, worst_p99, unanswered = 0.0, 0.0, 0.0, 0
        for name, (method, path, body) in operations.items():
            for clients in counts:
                # a run made just before the cell, so the store has not evicted it
                target = path.format(runId=create_run(port, {"workflowId": "conformance-noop"}))
                expected = 201 if method == "POST" else 200
                cells = {True: Cell(), False: Cell()}
                # The two modes take turns in rounds, so a burst of other work on the machine weighs on both.
                for _ in range(ROUNDS):
                    for keep_alive in (True, False):
                        request = _request(method, target, body, keep_alive)
                        cells[keep_alive].add(
                            drive(port, request, args.requests // ROUNDS, clients, keep_alive, expected, pid=pid)
                        )
                for keep_alive, cell in cells.items():
                    unanswered += cell.failures
                    mode = "keep-alive" if keep_alive else "close"
                    floor = clients / cell.rate * 1000 if cell.rate else float("nan")
                    print(
                        f"{name:<10} {clients:>7} {mode:<10} {cell.rate:>8.0f} {cell.percentile(0.5):>8.1f} "
                        f"{cell.percentile(0.99):>8.1f} {floor:>8.1f} {cell.cpu_us:>8.0f} {cell.failures:>6}"
                    )
                if name != "discovery" and cells[True].latencies:
                    keep, close = cells[True], cells[False]
                    slower = max(keep.percentile(0.5) / close.percentile(0.5), keep.cpu_us / close.cpu_us)
                    worst_ratio = max(worst_ratio, slower)
                    worst_wall = max(worst_wall, close.rate / keep.rate)
        most = max(counts)
        print(
            f"paced ({most} clients, each sending {args.pace:g} requests/s on a fixed schedule, "
            f"{most * args.pace:.0f} requests/s offered; latency counted from when a request was due):"
        )
        print(
            f"{'operation':<10} {'clients':>7} {'mode':<10} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
            f"{'lag p99':>8} {'host us':>8} {'failed':>6}"
        )
        for name, (method, path, body) in operations.items():
            for keep_alive in (True, False):
                target = path.format(runId=create_run(port, {"workflowId": "conformance-noop"}))
                request = _request(method, target, body, keep_alive)
                expected = 201 if method == "POST" else 200
                cell = drive(port, request, most * 15, most, keep_alive, expected, 1 / args.pace, pid)
                unanswered += cell.failures
                mode = "keep-alive" if keep_alive else "close"
                lag = sorted(cell.lags)[int(0.99 * len(cell.lags))] * 1000 if cell.lags else float("nan")
                print(
                    f"{name:<10} {most:>7} {mode:<10} {cell.rate:>8.0f} {cell.percentile(0.5):>8.1f} "
                    f"{cell.percentile(0.99):>8.1f} {lag:>8.1f} {cell.cpu_us:>8.0f} {cell.failures:>6}"
                )
                if name == "discovery":
                    worst_p99 = max(worst_p99, cell.percentile(0.99))
        verdicts["every request answered"] = unanswered == 0
        verdicts[f"discovery p99 at {most} paced clients under 50 ms (worst {worst_p99:.1f} ms)"] = worst_p99 < 50
        print(f"close/keep-alive requests/s, worst cell: {worst_wall:.2f} (wall clock, shared machine)")
        verdicts[
            f"keep-alive within 2x of close for create and poll, by p50 and host CPU per request ({worst_ratio:.2f})"
        ] = worst_ratio <= 2

    # One keep-alive client filling a small store well past its cap: a create must cost the same
    # with 1 run in the store as with a full store that evicts on every create.
    with served("--max-runs", "500") as (port, pid):
        request = _request("POST", "/v1/runs", create, True)
        filling = drive(port, request, 500, 1, True, 201, pid=pid)
        settling = drive(port, request, 1500, 1, True, 201, pid=pid)
        evicting = drive(port, request, 500, 1, True, 201, pid=pid)
        slowdown = evicting.cpu_us / filling.cpu_us
        print(
            f"store fill (one keep-alive client, store cap 500): the first 500 creates {filling.rate:.0f} req/s, "
            f"p50 {filling.percentile(0.5):.2f} ms, {filling.cpu_us:.0f} us host CPU each; creates 2001-2500, "
            f"each evicting a run: {evicting.rate:.0f} req/s, p50 {evicting.percentile(0.5):.2f} ms, "
            f"{evicting.cpu_us:.0f} us each"
        )
        failed = filling.failures + settling.failures + evicting.failures
        verdicts[f"create cost flat while the store fills and evicts (host CPU {slowdown:.2f}x)"] = (
            slowdown < 1.5 and failed == 0
        )

    budget_bytes = 32 * 1024 * 1024
    for label, runs, inputs in (
        ("small runs", args.runs, {"n": 1}),
        ("100 KB runs", args.big_runs, {"blob": "x" * 100_000}),
    ):
        with served("--max-run-bytes", str(budget_bytes)) as (port, pid):
            create_run(port, {"workflowId": "conformance-noop"})
            before = rss_mb(pid)
            request = _request(
                "POST", "/v1/runs", json.dumps({"workflowId": "conformance-noop", "inputs": inputs}).encode(), True
            )
            cell = drive(port, request, runs, 16, True, 201)
            after = rss_mb(pid)
            print(
                f"{label}: {runs} created in {cell.seconds:.1f} s ({cell.failures} failed); RSS {before:.1f} MB -> "
                f"{after:.1f} MB (+{after - before:.1f} MB; run store budget {budget_bytes / 2**20:.0f} MiB, "
                f"1000 runs)"
            )
            verdicts[f"{label}: RSS growth within the store budget (+{after - before:.1f} MB)"] = (
                cell.failures == 0 and (after - before) * 2**20 <= budget_bytes
            )

    for verdict, held in verdicts.items():
        print(f"{'ok  ' if held else 'FAIL'} {verdict}")
    if not all(verdicts.values()):
        sys.exit(1)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()

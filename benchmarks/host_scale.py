"""Benchmark: the generated host's event log, and the full conformance run.

1. Events appended and validated per second. The host's `EventLog.append` validates each payload
   against its `_typeIndex` schema and the envelope against run-event.schema.json before appending.
   Two baselines over the same events, measured in the same run: a plain `list.append` (the cost
   of keeping events at all) and one bare `Draft202012Validator.validate` of the payload against a
   validator prepared in advance (the least any validating log must do).
2. The full conformance run: every scenario against a freshly generated in-process host (full
   profile, strict), with the generation and import timed separately, plus the run over HTTP.

    python benchmarks/host_scale.py [--events 20000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path
from typing import Any

from wopgen.conformance.inprocess import in_process, load_package
from wopgen.conformance.runner import run
from wopgen.conformance.scenarios import SCENARIOS
from wopgen.conformance.transport import Http
from wopgen.corpus import load
from wopgen.generate.host import PACKAGE, generate

ROOT = Path(__file__).resolve().parents[1]


def sample_events(module: Any) -> list[tuple[str, dict[str, Any]]]:
    """The events of a real loop run and a real eval run: a representative mix of payloads."""
    host = module.Host("full", api_key="k")
    turn = {
        "decision": {"kind": "next-worker", "nextWorkerIds": ["core.sample.worker"]},
        "verdict": "pass",
        "memoryWrite": "m",
        "workspaceWrite": "a.md",
    }
    loop = host.start_run({"workflowId": "conformance.scripted-loop", "inputs": {"script": {"turns": [turn] * 5}}})
    evaluation = host.start_run({"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample"})
    return [(e["type"], e["payload"]) for e in loop.log.events + evaluation.log.events]


def best_of(repeat: int, fn: Any) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    corpus = load(ROOT)
    start = time.perf_counter()
    module = load_package(generate(corpus), PACKAGE)
    generated = time.perf_counter() - start
    mix = sample_events(module)
    events = [mix[i % len(mix)] for i in range(args.events)]
    log_module = module.events
    payload_validators = {
        t: corpus.validator("schemas/run-event-payloads.schema.json", p) for t, p in _pointers(corpus)
    }

    def host_log() -> None:
        log = log_module.EventLog("bench", clock=lambda: "2026-01-01T00:00:00Z")
        for event_type, payload in events:
            log.append(event_type, payload)

    def plain_append() -> None:
        kept: list[tuple[str, dict[str, Any]]] = []
        for item in events:
            kept.append(item)

    def bare_validate() -> None:
        for event_type, payload in events:
            payload_validators[event_type].validate(payload)

    host_s = best_of(args.repeat, host_log)
    plain_s = best_of(args.repeat, plain_append)
    bare_s = best_of(args.repeat, bare_validate)
    n = len(events)
    print(f"event log, {n} events of {len(set(t for t, _ in mix))} types")
    print(f"  host append+validate : {n / host_s:>12,.0f} events/s  ({host_s:.3f} s)")
    print(f"  plain list append    : {n / plain_s:>12,.0f} events/s  (host is {host_s / plain_s:,.0f}x slower)")
    print(f"  bare payload validate: {n / bare_s:>12,.0f} events/s  (host/bare = {host_s / bare_s:.2f})")

    conformance = best_of(args.repeat, lambda: run(SCENARIOS, in_process(module, "full"), corpus, strict=True))
    print(f"conformance, {len(SCENARIOS)} scenarios")
    print(f"  generate + import host : {generated:.3f} s")
    print(f"  full run, in-process   : {conformance:.3f} s")
    server = module.make_server(module.Host("full", api_key="k"), "127.0.0.1", 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        over_http = best_of(args.repeat, lambda: run(SCENARIOS, Http(url, "k"), corpus, strict=True))
    finally:
        server.shutdown()
        server.server_close()
    print(f"  full run, over HTTP    : {over_http:.3f} s")


def _pointers(corpus: Any) -> list[tuple[str, str]]:
    index = corpus.schemas_by_name["run-event-payloads"].data["$defs"]["_typeIndex"]["properties"]
    return [(t, "/$defs/" + ref["$ref"].rsplit("/", 1)[-1]) for t, ref in index.items()]


if __name__ == "__main__":
    main()

"""The runner against the stdlib Python reference host of openwop/openwop-examples, when a checkout is at hand.

Set WOPGEN_OPENWOP_EXAMPLES to the root of a checkout (the folder holding `examples/hosts/python`);
without it, or without `python3`, the test skips. It is never needed by CI. Every verdict asserted
here was judged true against that host's source: it drops the connection on a JSON array body,
answers `mode: "eval"` with 400 instead of 501 although it does not advertise `agents.evalSuite`,
and leaves `eventsUrl` out of the run-create answer.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from host.host_helpers import REPO
from wopgen.conformance.runner import behaviour_answered, run
from wopgen.conformance.scenarios import SCENARIOS
from wopgen.conformance.transport import Http

KEY = "openwop-inmem-dev-key"
CATALOGUE = REPO.parent / "shared" / "external" / "openwop-v1" / "conformance-fixtures"


def _checkout() -> Path | None:
    root = os.environ.get("WOPGEN_OPENWOP_EXAMPLES")
    source = Path(root) / "examples" / "hosts" / "python" / "src" if root else None
    return source if source is not None and (source / "openwop_host").is_dir() else None


@pytest.fixture(scope="module")
def reference_host() -> Iterator[str]:
    source = _checkout()
    if source is None:
        pytest.skip("no openwop-examples checkout (set WOPGEN_OPENWOP_EXAMPLES)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(source), "OPENWOP_HOST": "127.0.0.1", "OPENWOP_PORT": str(port)}
    if CATALOGUE.is_dir():
        env["OPENWOP_FIXTURES_DIR"] = str(CATALOGUE)
    process = subprocess.Popen(
        [sys.executable, "-m", "openwop_host"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(url + "/.well-known/openwop", timeout=1) as answer:
                    json.loads(answer.read())
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.skip("the reference host did not start")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_every_verdict_against_the_python_reference_host_is_true(reference_host, repo_corpus):
    results = {r.scenario.name: r for r in run(SCENARIOS, Http(reference_host, KEY, timeout=5), repo_corpus)}
    surface = results["core-run-surface"]
    assert surface.status == "failed"
    by_clause = {f.clause: f for f in surface.findings}
    assert set(by_clause) == {"malformed-body", "create-answer"}
    assert [f.clause for f in results["agent-eval-unadvertised"].findings] == ["eval-501"]
    assert by_clause["malformed-body"].exchange is not None and by_clause["malformed-body"].exchange.status == 0
    assert "eventsUrl" in by_clause["create-answer"].message
    assert [f.clause for f in results["core-run-cancel"].findings] == ["create-answer"]
    assert results["core-workflows"].status == "passed"
    assert all(r.status == "skipped" for r in results.values() if r.scenario.kind == "behaviour")
    assert not behaviour_answered(list(results.values()))

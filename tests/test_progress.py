"""Long commands draw progress on stderr when it is a terminal, and nowhere else."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _wopgen(args: list[str], *, terminal: bool) -> tuple[int, str, str]:
    """Run wopgen with stdout on a pipe and stderr on a pseudo-terminal (or a pipe)."""
    command = [sys.executable, "-m", "wopgen", *args]
    env = {**os.environ, "COLUMNS": "100"}
    if not terminal:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=follower, env=env) as process:
        os.close(follower)
        said = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            said += chunk
        out = process.stdout.read() if process.stdout else b""
        code = process.wait(timeout=600)
    os.close(leader)
    return code, out.decode(), said.decode(errors="replace")


@pytest.mark.parametrize(
    "args, label",
    [
        (["models", "--out", "{tmp}/models"], "wopgen models"),
        (["compat", "--against", "{corpus}"], "wopgen compat"),
        (["site", "build", "--out", "{tmp}/site"], "building the site"),
    ],
)
def test_progress_only_on_a_terminal(
    make_corpus: Callable[..., Path], tmp_path: Path, args: list[str], label: str
) -> None:
    corpus = make_corpus()
    filled = [a.format(tmp=tmp_path, corpus=corpus) for a in ["--root", str(corpus), *args]]
    code, out, err = _wopgen(filled, terminal=True)
    assert code == 0, out + err
    assert label in err and "[#" in err
    assert label not in out and "[#" not in out
    code, out, err = _wopgen(filled, terminal=False)
    assert code == 0, out + err
    assert label not in err and "[#" not in err


def test_conformance_progress_counts_scenarios() -> None:
    code, out, err = _wopgen(
        ["--root", str(REPO), "conformance", "--select", "core-run-surface,agent-verified-shape"], terminal=True
    )
    assert code == 0, out + err
    assert "conformance" in err and "2/2" in err, err
    assert "[#" not in out

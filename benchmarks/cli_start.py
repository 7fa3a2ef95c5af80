"""Benchmark: what a `wopgen` command costs to start, against starting Python with click.

Each command runs as its own process, the way a person or a CI step runs it: `wopgen --help`,
`wopgen rules`, `wopgen explain schema-title`, and `wopgen check` on the repository corpus (its
slow findings then come from `build/.cache/check`, as in a second run; the first, untimed round
fills the cache). The baseline, measured in the same run, is `python -c "import click"`: the
interpreter and the command-line library every command needs. The commands and the baseline are
timed in turn, round after round; reported are the least CPU seconds of the child processes and the
least wall seconds, and each command's CPU ratio to the baseline.

    python benchmarks/cli_start.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from timing import best_of_each, bytecode_compiled, child_cpu

REPO = Path(__file__).resolve().parents[1]

COMMANDS: dict[str, list[str]] = {
    "python -c 'import click' (baseline)": ["-c", "import click"],
    "wopgen --help": ["-m", "wopgen", "--help"],
    "wopgen rules": ["-m", "wopgen", "rules"],
    "wopgen explain schema-title": ["-m", "wopgen", "explain", "schema-title"],
    "wopgen check (repository, cached)": ["-m", "wopgen", "--root", str(REPO), "check"],
}


def _run(args: list[str]) -> None:
    done = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, check=False, timeout=300)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode(errors='replace')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    bytecode_compiled()  # as an installed wopgen has it (see timing.bytecode_compiled)
    for args in COMMANDS.values():
        _run(args)  # untimed: fills the check cache and the file-system cache
    timed = best_of_each(options.repeat, {name: partial(_run, args) for name, args in COMMANDS.items()}, child_cpu)
    baseline = timed[next(iter(COMMANDS))][1]
    print(f"{'command':<40} {'CPU s':>7} {'wall s':>7} {'CPU / baseline':>15}")
    for name, (wall, cpu) in timed.items():
        print(f"{name:<40} {cpu:>7.3f} {wall:>7.3f} {cpu / baseline:>14.1f}x")


if __name__ == "__main__":
    main()

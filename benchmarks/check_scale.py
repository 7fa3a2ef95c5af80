"""Benchmark: `wopgen check` on synthetic corpora of 100 and 1,000 schemas.

The baseline, measured in the same run on the same files, is the least any checker must do:
`json.load` of every schema and example plus `Draft202012Validator.check_schema` of every schema.
Reported: seconds for each, the ratio check/baseline (target <= 2.0), and the growth from 100 to
1,000 schemas (linear is ~10x).

    python benchmarks/check_scale.py [--sizes 100,1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from jsonschema import Draft202012Validator

sys.path.insert(0, str(Path(__file__).parent))
from synthetic import write_corpus
from timing import best_of

from wopgen.checks import run_all
from wopgen.corpus import load


def baseline(root: Path) -> None:
    for path in sorted((root / "schemas").glob("*.schema.json")):
        with path.open() as handle:
            Draft202012Validator.check_schema(json.load(handle))
    for path in sorted((root / "schemas/examples").rglob("*.json")):
        with path.open() as handle:
            json.load(handle)


def check(root: Path) -> int:
    return len(list(run_all(load(root))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            root = write_corpus(Path(tmp) / f"c{size}", size)
            findings = check(root)
            base = best_of(args.repeat, baseline, root)
            ours = best_of(args.repeat, check, root)
            results[size] = (base, ours)
            print(
                f"{size:>6} schemas  baseline {base:7.3f}s  wopgen check {ours:7.3f}s  "
                f"ratio {ours / base:5.2f}  findings {findings}"
            )
    sizes = sorted(results)
    if len(sizes) >= 2:
        small, large = sizes[0], sizes[-1]
        growth = results[large][1] / results[small][1]
        base_growth = results[large][0] / results[small][0]
        print(
            f"growth {small} -> {large} schemas: wopgen check x{growth:.1f}, baseline x{base_growth:.1f} "
            f"(linear would be x{large / small:.0f})"
        )


if __name__ == "__main__":
    main()

"""Benchmark: `wopgen compat` between two synthetic corpora of 1,000 schemas each.

The head is the base with edits on every tenth schema, cycling through an optional property added,
an enum value added, a maxLength tightened, a property removed, a `$def` renamed (a rename, no
change of shape) and the two `oneOf` branches inlined, reordered and each grown by an optional
member (paired by their discriminating `const`, so only the two members are reported).
The baseline, measured in the same run, is just `corpus.load` of both corpora; the comparison is
`corpus.load` of both plus `compat.compare` (which builds each corpus's `$ref` graph, reads the RFCs'
headers and compares). The two are timed in turn, round after round. Reported: the median CPU and
wall seconds of each; the CPU ratio compare/baseline as the median of the per-round ratios, with their
range (a shared machine runs a whole round fast or slow at random, so each round's two sides are
compared with each other; target at most 1.5); the wall ratio of the medians; the changes found by
rule.

    python benchmarks/compat_scale.py [--size 1000] [--repeat 9]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from synthetic import write_corpus
from timing import each_round, paired_ratios

from wopgen.compat import compare
from wopgen.corpus import load


def edit_head(root: Path, count: int) -> None:
    for n in range(0, count, 10):
        path = root / f"schemas/s{n:04d}.schema.json"
        data = json.loads(path.read_text())
        props = data["properties"]
        kind = (n // 10) % 6
        if kind == 0:
            props["note"] = {"type": "string"}
        elif kind == 1:
            props["kind"]["enum"].append("d")
        elif kind == 2:
            props["id"]["maxLength"] = 32
        elif kind == 3:
            del props["tags"]
        elif kind == 4:
            data["$defs"]["west"] = data["$defs"].pop("left")
            props["choice"]["oneOf"][0]["$ref"] = "#/$defs/west"
        else:
            grown = [json.loads(json.dumps(data["$defs"][side])) for side in ("right", "left")]
            for branch in grown:
                branch["properties"]["note"] = {"type": "string"}
            props["choice"]["oneOf"] = grown
        path.write_text(json.dumps(data, indent=2))


def baseline(base: Path, head: Path) -> None:
    load(base)
    load(head)


def comparison(base: Path, head: Path) -> int:
    return len(compare(load(base), load(head)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = write_corpus(Path(tmp) / "base", args.size)
        head = write_corpus(Path(tmp) / "head", args.size)
        edit_head(head, args.size)
        by_rule = Counter(c.rule for c in compare(load(base), load(head)))
        found = each_round(
            args.repeat, {"load": lambda: baseline(base, head), "compare": lambda: comparison(base, head)}
        )
    load_wall, load_cpu = (statistics.median(times) for times in found["load"])
    compare_wall, compare_cpu = (statistics.median(times) for times in found["compare"])
    middle, least, most = paired_ratios(found, "load")["compare"]
    print(f"{args.size} schemas per side (median seconds of {args.repeat} rounds: CPU / wall)")
    print(f"  baseline (load both)     {load_cpu:7.3f} / {load_wall:7.3f}")
    print(
        f"  load both + compare      {compare_cpu:7.3f} / {compare_wall:7.3f}   "
        f"ratio {middle:5.2f} CPU (target <= 1.5; rounds {least:.2f}-{most:.2f}), {compare_wall / load_wall:5.2f} wall"
    )
    print(f"  compare alone            {compare_cpu - load_cpu:7.3f} / {compare_wall - load_wall:7.3f}")
    print("  changes: " + ", ".join(f"{rule} {n}" for rule, n in sorted(by_rule.items())))


if __name__ == "__main__":
    main()

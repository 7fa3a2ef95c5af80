"""Benchmark: `wopgen check` on synthetic corpora of 100, 1,000 (and, asked for, 5,000) schemas.

Two baselines are measured in the same run on the same files:
- `jsonschema-rs`, the strongest available: parse every schema and example, validate every schema
  against the 2020-12 metaschema and every example against its schema with the compiled engine.
  Targets: `check --select schema-,example-` (the same work plus locations and rules) <= 2x it, the
  full `check` <= 3x it, growth from the smallest to the largest size about linear.
- `jsonschema`: `json.load` of every file plus `Draft202012Validator.check_schema` of every schema,
  the least a pure-Python checker does (for comparison with earlier figures).

    python benchmarks/check_scale.py [--sizes 100,1000,5000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import jsonschema_rs
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


def compiled_baseline(root: Path) -> None:
    schemas = []
    for path in sorted((root / "schemas").glob("*.schema.json")):
        with path.open() as handle:
            data = json.load(handle)
        jsonschema_rs.meta.is_valid(data)
        schemas.append((data["$id"], data))
    registry = jsonschema_rs.Registry(schemas)
    validators = {name: jsonschema_rs.validator_for({"$ref": uri}, registry=registry) for uri, name in _names(schemas)}
    for path in sorted((root / "schemas/examples").rglob("*.json")):
        with path.open() as handle:
            validators[path.parent.parent.name].is_valid(json.load(handle))


def _names(schemas: list[tuple[str, dict[str, object]]]) -> list[tuple[str, str]]:
    return [(uri, uri.rsplit("/", 1)[-1].removesuffix(".schema.json")) for uri, _ in schemas]


def check(root: Path, include: tuple[str, ...] = ()) -> int:
    found = run_all(load(root), include=include)
    return len([d for d in found if not include or d.rule.startswith(include)])


SELECTED = ("schema-", "example-")


def check_selected(root: Path) -> int:
    return check(root, SELECTED)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results: dict[int, tuple[float, float, float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            root = write_corpus(Path(tmp) / f"c{size}", size)
            findings = check(root)
            rs = best_of(args.repeat, compiled_baseline, root)
            py = best_of(args.repeat, baseline, root)
            selected = best_of(args.repeat, check_selected, root)
            full = best_of(args.repeat, check, root)
            results[size] = (rs, py, selected, full)
            print(
                f"{size:>6} schemas  jsonschema-rs {rs:7.3f}s  jsonschema {py:7.3f}s  "
                f"check --select schema-,example- {selected:7.3f}s (x{selected / rs:.2f} rs, target <= 2)  "
                f"check {full:7.3f}s (x{full / rs:.2f} rs, target <= 3; x{full / py:.2f} jsonschema)  findings {findings}"
            )
    sizes = sorted(results)
    if len(sizes) >= 2:
        small, large = sizes[0], sizes[-1]
        print(
            f"growth {small} -> {large} schemas (linear would be x{large / small:.0f}): "
            f"check x{results[large][3] / results[small][3]:.1f}, "
            f"check --select x{results[large][2] / results[small][2]:.1f}, "
            f"jsonschema-rs x{results[large][0] / results[small][0]:.1f}"
        )


if __name__ == "__main__":
    main()

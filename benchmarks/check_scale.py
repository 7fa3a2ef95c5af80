"""Benchmark: `wopgen check` on synthetic corpora of 100, 1,000 (and, asked for, 5,000) schemas.

Two baselines are measured in the same run on the same files:
- `jsonschema-rs`, the strongest available: parse every schema and example, validate every schema
  against the 2020-12 metaschema and every example against its schema with the compiled engine
  (one validator compiled over all the schemas, on a registry of one document that embeds them all,
  so it grows about linearly, as wopgen's own does).
  Targets: `check --select schema-,example-` (the same work plus locations and rules) <= 2x it, the
  full `check` <= 3x it, growth from the smallest to the largest size about linear. The full check
  is timed twice: parsing every page, as `check --no-cache` or a first run does, and with the pages
  parsed by the run before (unchanged pages are not parsed again, as `wopgen check` does with its
  cache folder).
- `jsonschema`: `json.load` of every file plus `Draft202012Validator.check_schema` of every schema,
  the least a pure-Python checker does (for comparison with earlier figures).

Each figure is the median of `--repeat` runs, as wall-clock and as CPU seconds of the process; the
compiled baseline and the three checks are timed in turn, round after round, so a passing load
weighs on all of them alike. Wall ratios are of the medians; each CPU ratio is the median of the
ratios within a round, with their range (a shared machine runs whole rounds fast or slow at
random), and is the steadier figure. `--rss` adds the peak memory of `wopgen check` (a process of
its own).

    python benchmarks/check_scale.py [--sizes 100,1000,5000] [--repeat 3] [--rss]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

import jsonschema_rs
from jsonschema import Draft202012Validator

sys.path.insert(0, str(Path(__file__).parent))
from synthetic import write_corpus
from timing import each_round, median_of, paired_ratios

from wopgen.checks import run_all
from wopgen.corpus import load
from wopgen.corpus.markdown_memo import MarkdownMemo


def baseline(root: Path) -> None:
    for path in sorted((root / "schemas").glob("*.schema.json")):
        with path.open() as handle:
            Draft202012Validator.check_schema(json.load(handle))
    for path in sorted((root / "schemas/examples").rglob("*.json")):
        with path.open() as handle:
            json.load(handle)


DIALECT = "https://json-schema.org/draft/2020-12/schema"


def compiled_baseline(root: Path) -> None:
    schemas = []
    for path in sorted((root / "schemas").glob("*.schema.json")):
        with path.open() as handle:
            data = json.load(handle)
        jsonschema_rs.meta.is_valid(data)
        schemas.append((data["$id"], data))
    # One validator for all the schemas, one property per schema URI referring to it: `jsonschema-rs`
    # prepares the whole registry for every validator it compiles, so a validator per schema would cost
    # the square of the schema count (x13 from 1,000 to 5,000 schemas). The registry holds one document
    # with every schema embedded: a registry of the schemas one by one also takes the square of their
    # count to build (1.0 s against 0.14 s at 5,000 schemas).
    embedded = {"$schema": DIALECT, "$defs": {str(n): schema for n, (_, schema) in enumerate(schemas)}}
    registry = jsonschema_rs.Registry([("urn:baseline:corpus", embedded)])
    every = jsonschema_rs.validator_for({"properties": {uri: {"$ref": uri} for uri, _ in schemas}}, registry=registry)
    uris = {name: uri for uri, name in _names(schemas)}
    for path in sorted((root / "schemas/examples").rglob("*.json")):
        with path.open() as handle:
            every.is_valid({uris[path.parent.parent.name]: json.load(handle)})


def _names(schemas: list[tuple[str, dict[str, object]]]) -> list[tuple[str, str]]:
    return [(uri, uri.rsplit("/", 1)[-1].removesuffix(".schema.json")) for uri, _ in schemas]


def check(root: Path, include: tuple[str, ...] = ()) -> int:
    found = run_all(load(root), include=include)
    return len([d for d in found if not include or d.rule.startswith(include)])


SELECTED = ("schema-", "example-")


def parsed_pages(root: Path) -> dict[str, object]:
    """What a first `wopgen check` keeps of the pages it parsed."""
    memo = MarkdownMemo()
    corpus = load(root, memo=memo)
    list(run_all(corpus))
    return memo.kept(corpus.sources) or {}


def check_reusing(root: Path, pages: dict[str, object]) -> int:
    return len(list(run_all(load(root, memo=MarkdownMemo(pages)))))


def check_selected(root: Path) -> int:
    return check(root, SELECTED)


# Run in a process of its own, reporting its own peak at exit (see timing.own_peak_mb).
_CHILD = """
import atexit, sys
sys.path.insert(0, sys.argv[2])
from timing import own_peak_mb
atexit.register(lambda: sys.stderr.write(f"peak-mb {own_peak_mb()}\\n"))
from wopgen.cli import cli
cli(["--root", sys.argv[1], "check", "--no-cache", "--format", "json"])
"""


def peak_rss_mb(root: Path) -> float:
    """Peak resident memory of `wopgen check --no-cache` on `root` (NaN where there is no /proc)."""
    command = [sys.executable, "-c", _CHILD, str(root), str(Path(__file__).parent)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    found = [line.split()[1] for line in done.stderr.splitlines() if line.startswith("peak-mb ")]
    return float(found[-1]) if found else float("nan")


def versus(ratio: tuple[float, float, float]) -> str:
    """A CPU ratio as the median of the rounds' ratios, with their range."""
    return f"x{ratio[0]:.2f} ({ratio[1]:.2f}-{ratio[2]:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rss", action="store_true", help="also measure the peak memory of `wopgen check`")
    parser.add_argument("--without-jsonschema", action="store_true", help="skip the (slow) pure-Python baseline")
    args = parser.parse_args()
    results: dict[int, dict[str, tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            root = write_corpus(Path(tmp) / f"c{size}", size)
            findings = check(root)
            pages = parsed_pages(root)
            # In turn, round after round: a load that comes and goes on a shared machine weighs on the
            # baseline and on the checks alike. The pure-Python baseline, far slower, is timed apart.
            rounds = each_round(
                args.repeat,
                {
                    "rs": partial(compiled_baseline, root),
                    "selected": partial(check_selected, root),
                    "full": partial(check, root),
                    "reused": partial(check_reusing, root, pages),
                },
            )
            timed = {
                name: (statistics.median(walls), statistics.median(cpus)) for name, (walls, cpus) in rounds.items()
            }
            to_rs = paired_ratios(rounds, "rs")
            timed["py"] = (
                (float("nan"), float("nan")) if args.without_jsonschema else median_of(args.repeat, baseline, root)
            )
            results[size] = timed
            rs, py, selected, full, reused = (timed[k] for k in ("rs", "py", "selected", "full", "reused"))
            print(
                f"{size:>6} schemas (median of {args.repeat}, wall s / cpu s)  jsonschema-rs {rs[0]:.3f}/{rs[1]:.3f}  "
                f"jsonschema {py[0]:.3f}/{py[1]:.3f}  "
                f"check --select schema-,example- {selected[0]:.3f}/{selected[1]:.3f} "
                f"(x{selected[0] / rs[0]:.2f}/{versus(to_rs['selected'])} rs, target <= 2)  "
                f"check {full[0]:.3f}/{full[1]:.3f} (x{full[0] / rs[0]:.2f}/{versus(to_rs['full'])} rs, target <= 3; "
                f"x{full[0] / py[0]:.2f} jsonschema)  "
                f"check, pages parsed before {reused[0]:.3f}/{reused[1]:.3f} "
                f"(x{reused[0] / rs[0]:.2f}/{versus(to_rs['reused'])} rs, target <= 3)  findings {findings}"
                + (f"  peak RSS of check {peak_rss_mb(root):.0f} MB" if args.rss else "")
            )
    sizes = sorted(results)
    if len(sizes) >= 2:
        small, large = results[sizes[0]], results[sizes[-1]]
        growth = {name: (large[name][0] / small[name][0], large[name][1] / small[name][1]) for name in small}
        print(
            f"growth {sizes[0]} -> {sizes[-1]} schemas, wall/cpu (linear would be x{sizes[-1] / sizes[0]:.0f}): "
            f"check x{growth['full'][0]:.1f}/x{growth['full'][1]:.1f}, "
            f"check, pages parsed before x{growth['reused'][0]:.1f}/x{growth['reused'][1]:.1f}, "
            f"check --select x{growth['selected'][0]:.1f}/x{growth['selected'][1]:.1f}, "
            f"jsonschema-rs x{growth['rs'][0]:.1f}/x{growth['rs'][1]:.1f}"
        )


if __name__ == "__main__":
    main()

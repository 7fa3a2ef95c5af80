"""Benchmark: `wopgen site build` on the repository corpus and on synthetic corpora (100 and 1,000
schemas by default; the synthetic corpora have as many RFCs as schemas).

Three baselines, measured in the same run. Two build the same number of plain pages (a heading and
a paragraph each, in four sections) with the same base configuration (`site/mkdocs.yml`: theme,
features, extensions, search), so they price mkdocs-material itself for a site that size:
- `bare`: `mkdocs build --strict` with the nav mkdocs generates, every page in it;
- `flat`: the same pages with only each section's first page in the nav (`not_in_nav` for the
  rest), the shape of the navigation `wopgen site build` writes.
The third prices the pages themselves (their content, highlighting, search index, our hooks):
- `staged`: `mkdocs build --strict` of the very project `wopgen site build` stages (its mkdocs.yml,
  hooks and docs folder, rendered once beforehand), so `wopgen site build` minus `staged` is
  wopgen's own work: starting Python, loading, rendering, writing the staging tree, and putting
  the built site in place.

The five builds (three baselines, `wopgen site build` cold and warm) are timed in turn, round after
round (`--repeat` rounds). Reported per corpus: pages; the median CPU and wall seconds of each build;
the CPU ratios as the median of the ratios measured within each round, with their range (a shared
machine runs whole rounds fast or slow at random, so the two sides of a ratio are compared within a
round; CPU time, of the processes and their children, is the steadier figure). `wopgen site build`
runs in a child process from the start of Python, as the baselines (load, render, mkdocs, atomic
write), twice: `cold`, with empty caches (a first build; each round gets new empty ones), and
`warm`, with the caches the first cold build filled (every later build with the same toolchain):
the Markdown pages it parsed (the command keeps them, as `wopgen check` does, in build/.cache/check
under the corpus root), the pages mkdocs converted with their search entries, and the compiled
theme templates (the command keeps those in the user's cache folder); the benchmark keeps all of
them in its temporary folder. Also reported: wopgen's own CPU seconds (the cold `wopgen site build`
minus `staged`; a warm build reuses the pages converted before, so it can take less than `staged`)
and the CPU seconds of its parts measured in this process: loading the corpus, rendering the pages,
writing the staging tree; the output size (all files, in MB); the average and the largest schema
page (`schemas/<name>/index.html`, in KB), the schema index page and the search index; the peak
resident memory of the wopgen process (mkdocs runs inside it).

    python benchmarks/site_scale.py [--sizes 100,1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from synthetic import write_corpus
from timing import bytecode_compiled, child_cpu, each_round, own_peak_mb, paired_ratios

from wopgen.catalogue import catalogue
from wopgen.cli.app import Context
from wopgen.cli.site import build_site
from wopgen.corpus import load
from wopgen.generate.site import BASE_CONFIG, render
from wopgen.generate.writer import write_tree

REPO = Path(__file__).resolve().parents[1]
PLAIN_CONFIG = "INHERIT: {base}\ndocs_dir: docs\n"
FLAT_NAV = "nav:\n  - index.md\n{sections}not_in_nav: |\n  /section*/*.md\n{keep}"
SECTIONS = 4


def plain_site(root: Path, pages: int, flat: bool) -> Path:
    docs = root / "docs"
    docs.mkdir(parents=True)
    config = PLAIN_CONFIG.format(base=json.dumps(str(BASE_CONFIG)))
    if flat:
        config += FLAT_NAV.format(
            sections="".join(f"  - Section {s}: section{s}/index.md\n" for s in range(SECTIONS)),
            keep="".join(f"  !/section{s}/index.md\n" for s in range(SECTIONS)),
        )
    (root / "mkdocs.yml").write_text(config)
    (docs / "assets").mkdir()
    (docs / "assets/wop.css").write_text("")
    (docs / "index.md").write_text("# Home\n\nThe baseline site.\n")
    for s in range(SECTIONS):
        (docs / f"section{s}").mkdir()
        (docs / f"section{s}/index.md").write_text(f"# Section {s}\n\nThe pages of section {s}.\n")
    for n in range(1 + SECTIONS, pages):
        page = docs / f"section{n % SECTIONS}/page{n:05d}.md"
        page.write_text(f"# Page {n}\n\nA plain page with a paragraph of text, number {n}.\n")
    return root


def mkdocs_build(project: Path, out: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(project / "mkdocs.yml")]
    subprocess.run([*command, "-d", str(out)], env=env, check=True)


def site_build(root: Path, out: Path, memory: dict[str, float], cache: Path) -> None:
    """`wopgen site build` in a child process, as the command runs, with its caches (the parsed
    Markdown pages, the compiled theme templates) kept in `cache`; records its peak memory (mkdocs
    runs inside it)."""
    command = [sys.executable, __file__, "--build-one", str(root), str(out), str(cache)]
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    for key, value in json.loads(result.stdout.strip().splitlines()[-1]).items():
        memory[key] = max(memory.get(key, 0.0), value)


def build_one(root: Path, out: Path, cache: Path) -> None:
    """The child of `site_build`: what the command runs (the gate, the build, the caches it reads and
    keeps), its caches in `cache` instead of the corpus's build folder and the user's cache folder;
    then say how much memory it held (mkdocs runs inside it)."""
    folders = {"memo": cache / "memo", "templates": cache / "templates", "converted": cache / "converted"}
    build_site(Context(root), out, force=True, **folders)
    print(json.dumps({"wopgen": own_peak_mb()}))


def staged_site(root: Path, project: Path, repeat: int) -> dict[str, float]:
    """Stage the project `wopgen site build` hands to mkdocs into `project`; the CPU seconds
    (least of `repeat`) of loading the corpus, rendering the pages and writing the tree."""
    times: dict[str, list[float]] = {"load": [], "render": [], "write": []}
    for _ in range(max(repeat, 1)):
        start = time.process_time()
        corpus = load(root)
        loaded = time.process_time()
        tree = render(corpus, rules=catalogue())
        rendered = time.process_time()
        write_tree(tree, project, force=True)
        times["load"].append(loaded - start)
        times["render"].append(rendered - loaded)
        times["write"].append(time.process_time() - rendered)
    return {part: min(found) for part, found in times.items()}


def sizes(out: Path) -> dict[str, float]:
    """Output size in MB, and the average and largest schema page, the schema index and the search
    index in KB."""
    total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    pages = [p.stat().st_size for p in (out / "schemas").glob("*/index.html")]
    return {
        "output_mb": total / 1e6,
        "files": sum(1 for p in out.rglob("*") if p.is_file()),
        "schema_page_avg_kb": sum(pages) / len(pages) / 1e3 if pages else 0.0,
        "schema_page_max_kb": max(pages, default=0) / 1e3,
        "schema_index_kb": (out / "schemas/index.html").stat().st_size / 1e3,
        "search_index_kb": (out / "search/search_index.json").stat().st_size / 1e3,
    }


def measure(label: str, root: Path, tmp: Path, repeat: int) -> None:
    staged_project = tmp / f"staged-{label}"
    parts = staged_site(root, staged_project, repeat)
    pages = sum(1 for p in (staged_project / "docs").rglob("*.md"))
    bare_project = plain_site(tmp / f"bare-{label}", pages, False)
    flat_project = plain_site(tmp / f"flat-{label}", pages, True)
    out, memory, caches = tmp / f"site-{label}", dict[str, float](), iter(range(1_000_000))
    rounds = each_round(
        repeat,
        {
            "bare": lambda: mkdocs_build(bare_project, tmp / f"b-{label}"),
            "flat": lambda: mkdocs_build(flat_project, tmp / f"f-{label}"),
            "staged": lambda: mkdocs_build(staged_project, tmp / f"s-{label}"),
            # each cold build gets new empty caches; the first fills the ones every warm build reads
            "cold": lambda: site_build(root, out, memory, tmp / f"cache-{label}-{next(caches)}"),
            "warm": lambda: site_build(root, out, memory, tmp / f"cache-{label}-0"),
        },
        cpu=child_cpu,
    )
    cpu = {name: statistics.median(cpus) for name, (_walls, cpus) in rounds.items()}
    wall = {name: statistics.median(walls) for name, (walls, _cpus) in rounds.items()}

    def ratios(base: str, *names: str) -> str:
        found = paired_ratios(rounds, base)
        return ", ".join(
            f"{name} {found[name][0]:4.2f} ({found[name][1]:4.2f}-{found[name][2]:4.2f})" for name in names
        )

    size = sizes(out)
    print(
        f"{label:>12}: {pages:5d} pages; median seconds of {repeat} rounds, CPU / wall: "
        f"bare mkdocs {cpu['bare']:6.1f} / {wall['bare']:6.1f}, flat-nav mkdocs {cpu['flat']:6.1f} / {wall['flat']:6.1f}, "
        f"staged mkdocs {cpu['staged']:6.1f} / {wall['staged']:6.1f}, "
        f"wopgen site build cold {cpu['cold']:6.1f} / {wall['cold']:6.1f}, warm {cpu['warm']:6.1f} / {wall['warm']:6.1f}\n"
        f"{'':>12}  CPU ratio, median of the rounds (range): vs bare {ratios('bare', 'cold', 'warm')}; "
        f"vs flat-nav {ratios('flat', 'cold', 'warm', 'staged')}; vs staged {ratios('staged', 'cold', 'warm')}\n"
        f"{'':>12}  wopgen's own CPU {cpu['cold'] - cpu['staged']:5.1f} s cold (load {parts['load']:4.1f}, "
        f"render {parts['render']:4.1f}, write staging {parts['write']:4.1f}; the rest is starting "
        f"Python and putting the built site in place)\n"
        f"{'':>12}  output {size['output_mb']:6.1f} MB "
        f"in {size['files']:.0f} files; schema page avg {size['schema_page_avg_kb']:5.1f} KB, "
        f"max {size['schema_page_max_kb']:5.1f} KB; schema index {size['schema_index_kb']:6.1f} KB; "
        f"search index {size['search_index_kb']:6.0f} KB; peak RSS wopgen (with mkdocs) {memory['wopgen']:4.0f} MB",
        flush=True,
    )


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--build-one":
        build_one(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000", help="synthetic corpus sizes in schemas, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; each times every build once, in turn")
    args = parser.parse_args()
    bytecode_compiled()  # as an installed wopgen has it (see timing.bytecode_compiled)
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        measure("repository", REPO, tmp, args.repeat)
        for size in [int(s) for s in args.sizes.split(",") if s]:
            root = write_corpus(tmp / f"corpus-{size}", size)
            measure(f"{size} schemas", root, tmp, args.repeat)


if __name__ == "__main__":
    main()

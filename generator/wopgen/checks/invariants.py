"""Security invariant rules: the file's shape, and protocol-tier entries witnessed by real tests."""

from __future__ import annotations

from collections.abc import Iterator

from wopgen.corpus import Corpus
from wopgen.corpus.documents import YamlList, YamlMap
from wopgen.diagnostics import Diagnostic, define

TIERS = ("protocol", "reference-impl", "advisory")
SEVERITIES = ("critical", "high", "medium", "low")

SHAPE = define(
    "invariant-shape",
    "error",
    "An entry of invariants.yaml lacks an id, a known tier or severity, or a list of tests; or an id repeats.",
)
UNKNOWN_SCENARIO = define(
    "invariant-scenario-unknown",
    "error",
    "An invariant's 'scenarios' names a conformance scenario that does not exist (see `wopgen conformance`).",
)
UNTESTED = define(
    "invariant-untested",
    "error",
    "A protocol-tier invariant names no test file that exists in the repository.",
)


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    doc = corpus.invariants
    if doc is None:
        return
    data = doc.data
    entries = data.get("invariants") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        yield SHAPE.at(doc.path, 1, "expected a mapping with an 'invariants' list", "see CONTRIBUTING.md")
        return
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        line = entries.line_of(index) if isinstance(entries, YamlList) else 1
        if not isinstance(entry, YamlMap):
            yield SHAPE.at(doc.path, line, f"entry {index + 1} is not a mapping", "write each invariant as a mapping")
            continue
        ident = entry.get("id")
        if not isinstance(ident, str) or not ident:
            yield SHAPE.at(doc.path, line, f"entry {index + 1} has no id", "add id: <kebab-case-name>")
            ident = f"#{index + 1}"
        elif ident in seen:
            yield SHAPE.at(doc.path, entry.line_of("id"), f"invariant {ident!r} appears twice", "ids are unique")
        seen.add(ident)
        tier = entry.get("tier")
        if tier not in TIERS:
            yield SHAPE.at(
                doc.path,
                entry.line_of("tier"),
                f"{ident}: tier {tier!r} is not one of {', '.join(TIERS)}",
                "set the tier",
            )
        severity = entry.get("severity")
        if severity not in SEVERITIES:
            yield SHAPE.at(
                doc.path,
                entry.line_of("severity"),
                f"{ident}: severity {severity!r} is not one of {', '.join(SEVERITIES)}",
                "set the severity",
            )
        yield from _scenarios(doc.path, ident, entry)
        tests = entry.get("tests", [])
        wrong = [i for i, t in enumerate(tests) if not isinstance(t, str)] if isinstance(tests, list) else [None]
        if wrong:
            where = entry.line_of("tests") if wrong[0] is None else _item_line(entry, wrong[0])
            yield SHAPE.at(
                doc.path,
                where,
                f"{ident}: tests must be a list of paths or globs",
                "list repository paths, e.g. tests/corpus/test_content_free.py",
            )
            continue
        outside = [i for i, t in enumerate(tests) if not corpus.inside(t)]
        if outside:
            yield SHAPE.at(
                doc.path,
                _item_line(entry, outside[0]),
                f"{ident}: tests must be paths inside the repository, not {tests[outside[0]]!r}",
                "name the test by its path from the repository root, e.g. tests/corpus/test_content_free.py",
            )
        if tier == "protocol" and not any(corpus.glob(pattern) for pattern in tests):
            yield UNTESTED.at(
                doc.path,
                entry.line_of("tests") if "tests" in entry else entry.line,
                f"{ident}: no test named in 'tests' exists",
                "name at least one existing test file that witnesses this invariant",
            )


def _item_line(entry: YamlMap, index: int) -> int:
    """The line of item `index` of the entry's `tests`, else of the `tests` key."""
    tests = entry.get("tests")
    return tests.line_of(index) if isinstance(tests, YamlList) else entry.line_of("tests")


def _scenarios(path: str, ident: str, entry: YamlMap) -> Iterator[Diagnostic]:
    """The optional `scenarios` list: conformance scenarios that witness the invariant on a live host."""
    if "scenarios" not in entry:
        return
    from wopgen.conformance.scenarios import BY_NAME

    names = entry["scenarios"]
    line = entry.line_of("scenarios")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        yield SHAPE.at(
            path, line, f"{ident}: scenarios must be a list of scenario names", "e.g. [verifier-no-content-leak]"
        )
        return
    for index, name in enumerate(names):
        if name not in BY_NAME:
            where = names.line_of(index) if isinstance(names, YamlList) else line
            yield UNKNOWN_SCENARIO.at(
                path, where, f"{ident}: no conformance scenario is named {name!r}", "`wopgen conformance` lists them"
            )

"""spec/v1/traceability.md: every name in the table exists and every row carries a status of its kind.

A row is `executed` (at least one executor), `stated: <reason>` or `departs: [RFC ...](...#anchor)`;
an executor is a conformance scenario, `rule:<id>` from the catalogue, `examples:<schema>` with
examples of both kinds, `example:<schema>/<valid|invalid>/<file>` naming one example file, or
`test:<path>` of an existing test file. The counts table must agree with the rows. Whether each
*Stated in* link and its anchor or JSON pointer resolves is `wopgen check`'s (`doc-link-broken`,
`doc-anchor-broken`), which runs over this page like any other.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.generated_models import repo_corpus
from wopgen.catalogue import catalogue
from wopgen.checks import docs
from wopgen.conformance.scenarios import BY_NAME

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "spec" / "v1" / "traceability.md"
_CODE = re.compile(r"`([^`]+)`")
_EXAMPLE = re.compile(r"[a-z0-9-]+/(valid|invalid)/[a-z0-9.-]+\.json")


def rows(text: str, first: str = "#") -> list[list[str]]:
    """The data rows of every table whose first header cell is `first`."""
    found: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if not cells:
            inside = False
        elif cells[0] == first:
            inside = True
        elif inside and not set(cells[0]) <= set("-: "):
            found.append(cells)
    return found


def problems(table: list[list[str]], root: Path) -> list[str]:
    rules = {rule.id for rule in catalogue()}
    found: list[str] = []
    seen: set[str] = set()
    for cells in table:
        if len(cells) != 5:
            found.append(f"{cells[0]}: {len(cells)} cells, not 5")
            continue
        key, _item, stated, executed, status = cells
        if key in seen:
            found.append(f"{key}: appears twice")
        seen.add(key)
        if "](" not in stated:
            found.append(f"{key}: no link to where it is stated")
        names = [] if executed.strip() == "none" else _CODE.findall(executed)
        for name in names:
            kind, _, value = name.partition(":")
            if name in BY_NAME:
                continue
            if kind == "rule" and value in rules:
                continue
            if kind == "examples" and all(
                (root / "schemas/examples" / value / k).is_dir() for k in ("valid", "invalid")
            ):
                continue
            if kind == "example" and _EXAMPLE.fullmatch(value) and (root / "schemas/examples" / value).is_file():
                continue
            if kind == "test" and (root / value).is_file():
                continue
            found.append(f"{key}: {name!r} names nothing that exists")
        if status == "executed":
            if not names:
                found.append(f"{key}: executed by nothing")
        elif status.startswith("stated: "):
            if len(status) < len("stated: ") + 20:
                found.append(f"{key}: stated only, without a reason")
        elif status.startswith("departs: "):
            if not re.search(r"\]\(\.\./rfcs/\d{4}-[a-z0-9-]+\.md#[a-z0-9-]+\)", status):
                found.append(f"{key}: departs without a link to the RFC section that says why")
        else:
            found.append(f"{key}: status {status!r} is not executed, stated: or departs:")
    return found


def counted(table: list[list[str]]) -> dict[str, list[int]]:
    """Per source letter (the key's prefix) and for `all`: items, executed, stated only, departs."""
    found: dict[str, list[int]] = {}
    for cells in table:
        status = cells[-1]
        kinds = [1, status == "executed", status.startswith("stated: "), status.startswith("departs: ")]
        for source in (cells[0].rstrip("0123456789"), "all"):
            found[source] = [a + int(b) for a, b in zip(found.get(source, [0, 0, 0, 0]), kinds, strict=True)]
    return found


def count_table(text: str) -> dict[str, list[int]]:
    """The page's counts table: `| Source | Items | Executed | Stated only | Departs |`."""
    return {
        cells[0]: [int(c) for c in cells[1:]] for cells in rows(text, "Source") if all(c.isdigit() for c in cells[1:])
    }


def test_the_page_is_complete_and_every_name_in_it_exists():
    text = PAGE.read_text(encoding="utf-8")
    table = rows(text)
    assert len(table) >= 360
    assert problems(table, ROOT) == []
    assert count_table(text) == counted(table)
    assert set(counted(table)) == {"V", "L", "E", "F", "Q", "all"}


def test_every_link_of_the_page_resolves_to_a_heading_or_a_schema_member():
    found = [d for d in docs.check(repo_corpus()) if d.path == "spec/v1/traceability.md"]
    assert [(d.rule, d.line, d.message) for d in found] == []


def test_counts_that_disagree_with_the_rows_are_caught():
    text = (
        "| Source | Items | Executed | Stated only | Departs |\n|---|---|---|---|---|\n| X | 2 | 2 | 0 | 0 |\n\n"
        "| # | Item | Stated in | Executed by | Status |\n|---|---|---|---|---|\n"
        "| X1 | item | [p](p.md) | `verifier-gating` | executed |\n"
        "| X2 | item | [p](p.md) | none | stated: nothing on the wire to observe here |\n"
    )
    assert count_table(text)["X"] != counted(rows(text))["X"]
    assert counted(rows(text))["X"] == [2, 1, 1, 0]


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("| X1 | item | [p](p.md) | `no-such-scenario` | executed |", "names nothing"),
        ("| X1 | item | [p](p.md) | none | executed |", "executed by nothing"),
        ("| X1 | item | [p](p.md) | none | stated: no |", "without a reason"),
        ("| X1 | item | [p](p.md) | none | departs: because |", "departs without a link"),
        ("| X1 | item | [p](p.md) | `test:tests/none.py` | executed |", "names nothing"),
        ("| X1 | item | [p](p.md) | `rule:semantic-none` | executed |", "names nothing"),
        ("| X1 | item | [p](p.md) | `example:verification-gate/valid/none.json` | executed |", "names nothing"),
        ("| X1 | item | [p](p.md) | `example:verification-gate/other/x.json` | executed |", "names nothing"),
        ("| X1 | item | nowhere | `verifier-gating` | executed |", "no link"),
        ("| X1 | item | [p](p.md) | `verifier-gating` | done |", "is not executed"),
    ],
)
def test_a_bad_row_is_reported(row, expected):
    table = rows(f"| # | Item | Stated in | Executed by | Status |\n|---|---|---|---|---|\n{row}\n")
    (problem,) = problems(table, ROOT)
    assert expected in problem


def test_a_good_row_passes():
    text = (
        "| # | Item | Stated in | Executed by | Status |\n|---|---|---|---|---|\n"
        "| X1 | item | [p](p.md) | `verifier-gating`, `rule:semantic-node-edges`, `examples:verification-node`, "
        "`test:tests/spec_data/test_traceability.py`, "
        "`example:verification-gate/invalid/fresh-context-false-rejected.json` | executed |\n"
        "| X2 | item | [p](p.md) | none | departs: [RFC 0901 M](../rfcs/0901-x.md#m-where) (why) |\n"
    )
    assert problems(rows(text), ROOT) == []

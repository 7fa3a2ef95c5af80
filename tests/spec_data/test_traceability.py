"""spec/v1/traceability.md: every name in the table exists and every row carries a status of its kind.

A row is `executed` (at least one executor), `stated: <reason>` or `departs: [RFC ...](...#anchor)`;
an executor is a conformance scenario, `rule:<id>` from the catalogue, `examples:<schema>` with
examples of both kinds, or `test:<path>` of an existing test file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wopgen.catalogue import catalogue
from wopgen.conformance.scenarios import BY_NAME

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "spec" / "v1" / "traceability.md"
_CODE = re.compile(r"`([^`]+)`")


def rows(text: str) -> list[list[str]]:
    """The data rows of every table whose first header cell is `#`."""
    found: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if not cells:
            inside = False
        elif cells[0] == "#":
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


def test_the_page_is_complete_and_every_name_in_it_exists():
    table = rows(PAGE.read_text(encoding="utf-8"))
    assert len(table) >= 100
    assert problems(table, ROOT) == []


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("| X1 | item | [p](p.md) | `no-such-scenario` | executed |", "names nothing"),
        ("| X1 | item | [p](p.md) | none | executed |", "executed by nothing"),
        ("| X1 | item | [p](p.md) | none | stated: no |", "without a reason"),
        ("| X1 | item | [p](p.md) | none | departs: because |", "departs without a link"),
        ("| X1 | item | [p](p.md) | `test:tests/none.py` | executed |", "names nothing"),
        ("| X1 | item | [p](p.md) | `rule:semantic-none` | executed |", "names nothing"),
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
        "`test:tests/spec_data/test_traceability.py` | executed |\n"
        "| X2 | item | [p](p.md) | none | departs: [RFC 0901 M](../rfcs/0901-x.md#m-where) (why) |\n"
    )
    assert problems(rows(text), ROOT) == []

"""`wopgen compat`: prove that every change between two versions of the corpus is additive.

`compare(base, head)` runs the schema diff (`engine`), the HTTP surface diff (`api`) and the RFC
classification (`rfcs`) and returns the changes sorted by file and line, each with a hint.
`compare_specs` names the two sides (folders, git refs or single schema files) and applies an
accepted-changes file (`accepted`) last.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from wopgen.compat import api, engine, rfcs
from wopgen.compat.change import Change, Side
from wopgen.compat.plan import Plan, PlanError
from wopgen.compat.rules import hint_for
from wopgen.corpus import Corpus
from wopgen.corpus.model import gc_paused
from wopgen.corpus.settings import Settings

__all__ = ["Change", "Plan", "PlanError", "Side", "compare", "compare_against", "compare_specs"]


def with_hints(changes: list[Change]) -> list[Change]:
    return [c if c.hint else replace(c, hint=hint_for(c.rule, c.severity)) for c in changes]


def compare(base: Corpus, head: Corpus, plan: Plan | None = None) -> list[Change]:
    # A comparison builds acyclic data (each file's `$ref` sites, normalized views, changes), as the
    # loader and the graph do, so the cycle collector is held back the same way: its passes would walk
    # both loaded corpora and free nothing.
    with gc_paused():
        changes = engine.diff(base, head, plan)
        if plan is None or not plan.pairs:  # two corpora: their HTTP surface and RFCs too
            changes.extend(api.diff_error_envelope(base, head))
            changes.extend(api.diff_operations(base, head))
            changes = rfcs.apply(changes, base, head)
    return sorted(with_hints(changes), key=Change.sort_key)


def compare_against(against: str, head: Corpus, plan: Plan | None = None) -> list[Change]:
    """Compare `head` with the corpus named by `against` (a folder, or a git ref of head's repository)."""
    from wopgen.compat.source import SourceError, is_schema_file, open_side

    if is_schema_file(against):
        raise SourceError(
            f"{against!r} is a file, not a corpus; two schema files compare with "
            "`wopgen compat --against OLD.json --head NEW.json`"
        )
    with open_side(against, head.root, head.settings) as base:
        return sorted(with_hints(base.findings) + compare(base.corpus, head, plan), key=Change.sort_key)


def compare_specs(against: str, head: str, root: Path, settings: Settings, plan: Plan | None = None) -> list[Change]:
    """Compare two named sides: corpus folders, git refs of the repository at `root`, or two schema files."""
    from wopgen.compat.source import SourceError, is_schema_file, open_side

    if is_schema_file(against) != is_schema_file(head):
        file, other = (against, head) if is_schema_file(against) else (head, against)
        raise SourceError(f"{file!r} is a schema file but {other!r} is not; compare two files or two corpora")
    if is_schema_file(against):
        plan = replace(plan or Plan(), pairs=((against, head),))
    with open_side(against, root, settings) as before, open_side(head, root, settings) as after:
        found = compare(before.corpus, after.corpus, plan)
        return sorted(with_hints(before.findings + after.findings) + found, key=Change.sort_key)

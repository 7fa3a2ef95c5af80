"""`wopgen compat`: prove that every change between two versions of the corpus is additive.

`compare(base, head)` runs the schema diff (`engine`), the HTTP surface diff (`api`) and the RFC
classification (`rfcs`) and returns the changes sorted by file and line.
"""

from __future__ import annotations

from pathlib import Path

from wopgen.compat import api, engine, rfcs
from wopgen.compat.change import Change, Side
from wopgen.corpus import Corpus
from wopgen.corpus.settings import Settings

__all__ = ["Change", "Side", "compare", "compare_against", "compare_specs"]


def compare(base: Corpus, head: Corpus) -> list[Change]:
    changes = engine.diff(base, head)
    changes.extend(api.diff_error_envelope(base, head))
    changes.extend(api.diff_operations(base, head))
    return sorted(rfcs.apply(changes, base, head), key=Change.sort_key)


def compare_against(against: str, head: Corpus) -> list[Change]:
    """Compare `head` with the corpus named by `against` (a folder, or a git ref of head's repository)."""
    from wopgen.compat.source import open_corpus

    with open_corpus(against, head.root, head.settings) as (base, _label):
        return compare(base, head)


def compare_specs(against: str, head: str, root: Path, settings: Settings) -> list[Change]:
    """Compare two named corpora (folders or git refs of the repository at `root`)."""
    from wopgen.compat.source import open_corpus

    with open_corpus(against, root, settings) as (base, _b), open_corpus(head, root, settings) as (other, _h):
        return compare(base, other)

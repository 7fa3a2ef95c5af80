"""`wopgen rfc new` / `wopgen rfc list`: the next-numbered RFC from a template, and the index."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

from wopgen.corpus import Corpus
from wopgen.templates import environment


def one_line(value: str) -> bool:
    """Whether `value` fits a header cell, a page title or a one-line TOML string: no line break or other
    control character, and no byte that is not UTF-8 (which the shell passes through undecoded)."""
    return not any(unicodedata.category(c) in ("Cc", "Cs") for c in value)


SLUG_LENGTH = 60  # characters at most: a file name stays short, whatever the title


def slug(title: str) -> str:
    """The file-name part of a title: its first eight words, lower case, joined by `-`."""
    words = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return "-".join(words.split("-")[:8])[:SLUG_LENGTH].strip("-") or "untitled"


LAST_NUMBER = 9999  # RFC numbers are four digits (`rfc-filename`, `rfc-number`)


class NoNumberLeft(Exception):
    """Every four-digit number after the series' highest RFC is reserved or past 9999; a usage error."""


def next_number(corpus: Corpus) -> int:
    """The number after the highest RFC of this series (one here or one of external-rfcs), skipping
    the numbers reserved-rfcs lists. A reserved number belongs to another series and says nothing about
    how far this one has got, so it never raises the start: reserving 9999 must not push the next
    RFC past the four digits while 0002 is free."""
    reserved = corpus.settings.reserved_rfcs
    given = (set(corpus.rfcs_by_number) | set(corpus.settings.external_rfcs)) - reserved
    highest = max({0, *given})
    number = highest + 1
    while number in reserved:
        number += 1
    if number > LAST_NUMBER:
        skipped = " (reserved-rfcs takes the rest)" if highest < LAST_NUMBER else ""
        raise NoNumberLeft(
            f"no four-digit RFC number is left after RFC {highest:04d}{skipped}; "
            "write the RFC by hand under a number no RFC and no reserved-rfcs entry uses"
        )
    return number


def new_rfc(corpus: Corpus, title: str, author: str, today: dt.date) -> tuple[str, str]:
    """The path (relative to the root) and text of a fresh Draft RFC; NoNumberLeft when there is no number."""
    number = next_number(corpus)
    text = (
        environment("rfc")
        .get_template("rfc.md.j2")
        .render(number=f"{number:04d}", title=title.strip(), author=author, date=today.isoformat())
    )
    return f"{corpus.settings.rfcs}/{number:04d}-{slug(title)}.md", text


def rfc_rows(corpus: Corpus) -> list[tuple[str, str, str, str]]:
    rows = []
    for number, rfc in sorted(corpus.rfcs_by_number.items()):
        rows.append((f"{number:04d}", rfc.status or "?", rfc.compatibility or "?", rfc.title or "(no title)"))
    return rows

"""RFC records: an `Active` RFC went through its comment window (or says it was waived), and no
RFC takes a number another RFC series has already given out.

RFC 0001 sets the comment window before `Draft -> Active` by compatibility class (7 days for a
normative, additive change; 30 for a breaking one; 90 for a safety fix) and lets a bootstrap-phase
project waive it only if the Updated note says so. The date of the move is read from the Updated
note: the last ISO date before the words `Draft -> Active` (or `Draft → Active`), else the note's
own date. Once an RFC is `Accepted` its Active step is history and is not judged again.

`[tool.wopgen] reserved-rfcs` lists numbers that the series this corpus belongs to uses for other
RFCs; an RFC file here with one of those numbers would be cited ambiguously everywhere.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from wopgen.corpus import Corpus
from wopgen.corpus.rfc import Rfc
from wopgen.diagnostics import Diagnostic, define

WINDOW = define(
    "rfc-comment-window",
    "error",
    "An Active RFC went Active before its comment window (RFC 0001) ended and its Updated note states no waiver.",
)
RESERVED = define(
    "rfc-number-reserved",
    "error",
    "An RFC uses a number that [tool.wopgen] reserved-rfcs lists as taken by another RFC series.",
)

WINDOW_DAYS = {"additive": 7, "breaking": 30, "safety-fix": 90}
_MOVE = re.compile(r"Draft\s*(?:->|→|to)\s*Active")
_ISO = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_WAIVER = re.compile(r"\bwaive[drs]?\b|\bwaiving\b", re.IGNORECASE)


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    reserved = corpus.settings.reserved_rfcs
    for path in sorted(corpus.rfcs):
        rfc = corpus.rfcs[path]
        if not rfc.header:
            continue
        number = rfc.number
        if number is not None and number in reserved:
            yield RESERVED.at(
                path,
                rfc.line_of("RFC"),
                f"RFC {number:04d} is a number another RFC series already uses",
                "renumber it to a number neither this corpus nor reserved-rfcs uses, and update every reference",
            )
        if rfc.status == "Active":
            yield from _window(rfc)


def activation_date(updated: str) -> dt.date | None:
    """The date an Updated note gives for `Draft -> Active`, else the note's own (first) date."""
    move = _MOVE.search(updated)
    before = updated[: move.start()] if move else updated
    dates = _ISO.findall(before)
    if move and dates:
        text = dates[-1]
    else:
        first = _ISO.search(updated)
        if first is None:
            return None
        text = first.group(1)
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def _window(rfc: Rfc) -> Iterator[Diagnostic]:
    created, updated = rfc.date("Created"), rfc.get("Updated")
    activated = activation_date(updated)
    if created is None or activated is None:
        return  # rfc-date reports a missing or malformed date
    try:
        opened = dt.date.fromisoformat(created)
    except ValueError:
        return
    days = WINDOW_DAYS.get(rfc.compatibility, WINDOW_DAYS["additive"])
    held = (activated - opened).days
    if held >= days or _WAIVER.search(updated):
        return
    yield WINDOW.at(
        rfc.path,
        rfc.line_of("Updated"),
        f"went Active {held} day(s) after it was opened; the {rfc.compatibility or 'additive'} window is {days} days "
        "and Updated states no waiver",
        "keep it Draft until the window has passed, or say in Updated that the window was waived and by whom",
    )

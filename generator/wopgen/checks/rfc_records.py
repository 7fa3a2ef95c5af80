"""RFC records: an `Active` or `Accepted` RFC went through its comment window (or says it was
waived the way RFC 0001 allows), and no RFC takes a number another RFC series has already given out.

RFC 0001 sets the comment window before `Draft -> Active` by compatibility class (7 days for a
normative, additive change; 30 for a breaking one; 90 for a safety fix) and lets a single-maintainer
project in its bootstrap phase waive it by lazy consensus, provided the Updated note says so. The
date of the move is read from the Updated note: the last ISO date before the words `Draft -> Active`
(or `Draft → Active`), else the note's own date. For an `Accepted` RFC whose note dates only its
acceptance, that date is a bound: the move to Active came no later, so an acceptance inside the
window proves the window was skipped, and one after it proves nothing (no finding).

A waiver counts when the note says the window was waived and names who may waive it: lazy consensus
(RFC 0001's words) or the project's steward or maintainers (the published OpenWOP series records its
waivers as "waived by the steward"); a note that waives it some other way ("waived by the author")
or denies a waiver ("no waiver", "not waived") does not.

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
    "An Active or Accepted RFC went Active before its comment window (OpenWOP's process RFC 0001) ended and its Updated note states "
    "no waiver by lazy consensus or by the project's steward or maintainers.",
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
_DENIED = re.compile(r"\b(?:no|not|never|without)\s+(?:\w+\s+){0,3}?(?:waive[drs]?|waiving)\b", re.IGNORECASE)
_AUTHORITY = re.compile(r"\blazy\s+consensus\b|\bsteward\b|\bthe\s+maintainers\b", re.IGNORECASE)
JUDGED = frozenset({"Active", "Accepted"})


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
        if rfc.status in JUDGED:
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
    if held >= days:
        return
    waiver = waiver_problem(updated)
    if waiver is None:
        return
    went = (
        "went Active"
        if _MOVE.search(updated) or rfc.status == "Active"
        else "was Accepted, so went Active at the latest,"
    )
    yield WINDOW.at(
        rfc.path,
        rfc.line_of("Updated"),
        f"{went} {held} day(s) after it was opened; the {rfc.compatibility or 'additive'} window is {days} days "
        f"and Updated {waiver}",
        "keep it Draft until the window has passed, or, in a single-maintainer project's bootstrap phase, say in "
        "Updated that the window was waived by lazy consensus (OpenWOP's RFC 0001, the process RFC)",
    )


def waiver_problem(updated: str) -> str | None:
    """None when the Updated note states a waiver RFC 0001 allows, else what is wrong with it."""
    if not _WAIVER.search(updated) or _DENIED.search(updated):
        return "states no waiver"
    if not _AUTHORITY.search(updated):
        return "states a waiver but not by lazy consensus or by the steward or maintainers, who alone may waive it"
    return None

"""The audit trail of breaking changes accepted on purpose: `wopgen compat --accepted FILE`.

The file is TOML, one `[[accepted]]` table per decision:

    [[accepted]]
    rule = "compat-branch-removed"                       # the rule id the change carries
    location = "schema.json#/definitions/JSONRPCMessage"  # a file, optionally #/json/pointer
    reason = "JSON-RPC batching removed on purpose (2025-06-18 changelog)"
    expires = 2026-12-31                                  # optional: the entry stops counting after it

A change matches an entry when its rule is the entry's and either of its sides is in that file
(the same path, or a path ending in `/` + it) at that pointer or below it. A matching error or
warning becomes info and cites the reason and the entry's line. An entry that matches nothing is
`compat-accepted-stale`; one past its date no longer applies and is `compat-accepted-expired`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path

from wopgen.compat import rules as R
from wopgen.compat.change import Change, Side
from wopgen.diagnostics import Rule, Severity

KEYS = frozenset({"rule", "location", "reason", "expires"})
_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*accepted[ \t]*\]\]", re.MULTILINE)


class AcceptedError(Exception):
    """The accepted-changes file cannot be read or is malformed; a usage error."""


@dataclass(frozen=True)
class Entry:
    rule: str
    path: str
    pointer: str | None
    reason: str
    expires: date | None
    line: int

    def matches(self, change: Change) -> bool:
        return change.rule == self.rule and any(self._at(s) for s in (change.base, change.head) if s is not None)

    def _at(self, place: Side) -> bool:
        if place.path != self.path and not place.path.endswith("/" + self.path):
            return False
        if self.pointer is None:
            return True
        return place.pointer == self.pointer or place.pointer.startswith(self.pointer.rstrip("/") + "/")


def _expiry(value: object, where: str) -> date | None:
    if value is None:
        return None
    # A TOML datetime reads as a datetime, which Python makes a kind of date, yet it cannot be compared
    # with today's date; an expiry is a day, so a datetime is refused like a time is.
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise AcceptedError(f"{where}: expires must be a date (2026-12-31), not {value!r}")


def read_accepted(path: Path) -> tuple[str, list[Entry]]:
    """The file's name as given and its entries, in order; AcceptedError when it is not usable."""
    label = str(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as exc:
        raise AcceptedError(f"cannot read the accepted-changes file {label}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise AcceptedError(f"the accepted-changes file {label} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise AcceptedError(f"the accepted-changes file {label} is not valid TOML: {exc}") from None
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        raise AcceptedError(f"the accepted-changes file {label} is nested too deeply to read") from None
    unknown_tables = sorted(set(data) - {"accepted"})
    if unknown_tables:
        raise AcceptedError(f"{label}: unknown key {unknown_tables[0]!r}; write each entry as an [[accepted]] table")
    tables = data.get("accepted", [])
    if not isinstance(tables, list):
        raise AcceptedError(f"{label}: write each entry as an [[accepted]] table")
    lines = [text.count("\n", 0, m.start()) + 1 for m in _HEADER.finditer(text)]
    entries = []
    for number, table in enumerate(tables):
        line = lines[number] if number < len(lines) else 1
        where = f"{label}:{line}"
        if not isinstance(table, dict):
            raise AcceptedError(f"{where}: an [[accepted]] entry is a table")
        unknown = sorted(set(table) - KEYS)
        if unknown:
            raise AcceptedError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})")
        rule, location, reason = table.get("rule"), table.get("location"), table.get("reason")
        if not isinstance(rule, str) or not rule.startswith("compat-"):
            raise AcceptedError(f"{where}: rule must name a compat- rule id, not {rule!r}")
        if not isinstance(location, str) or not location.strip("#"):
            raise AcceptedError(f"{where}: location must be a file, optionally with #/json/pointer")
        if not isinstance(reason, str) or not reason.strip():
            raise AcceptedError(f"{where}: reason must say why the break is accepted")
        file, hash_sign, fragment = location.partition("#")
        pointer = fragment if hash_sign else None
        entries.append(
            Entry(rule, file.strip("/"), pointer, reason.strip(), _expiry(table.get("expires"), where), line)
        )
    return label, entries


def apply(changes: Iterable[Change], label: str, entries: list[Entry], today: date | None = None) -> list[Change]:
    """Accepted breaks as info citing their reason, plus a finding for each stale or expired entry."""
    today = today or date.today()
    live = [e for e in entries if e.expires is None or e.expires >= today]
    used: set[int] = set()
    out: list[Change] = []
    for change in changes:
        entry = next((e for e in live if e.matches(change)), None)
        if entry is None:
            out.append(change)
            continue
        used.add(id(entry))
        if change.severity is Severity.INFO:
            out.append(change)
            continue
        note = f"{change.message}; accepted: {entry.reason} ({label}:{entry.line})"
        hint = f"accepted on purpose in {label}:{entry.line}; remove the entry when it no longer applies"
        out.append(replace(change, severity=Severity.INFO, message=note, hint=hint, accepted=entry.reason))
    for entry in entries:
        place = Side(label, "", entry.line)
        where = f"{entry.rule} at {entry.path}{'#' + entry.pointer if entry.pointer is not None else ''}"
        if entry.expires is not None and entry.expires < today:
            message = f"accepted change {where} expired on {entry.expires.isoformat()}; it counts again"
            out.append(_finding(R.ACCEPTED_EXPIRED, message, place))
        elif id(entry) not in used:
            out.append(_finding(R.ACCEPTED_STALE, f"accepted change {where} matches no change", place))
    return out


def _finding(rule: Rule, message: str, place: Side) -> Change:
    return Change(rule.id, rule.severity, message, None, place, R.hint_for(rule.id, rule.severity))

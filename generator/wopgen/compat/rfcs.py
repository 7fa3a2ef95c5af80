"""RFC-aware classification: a breaking change stands unless an RFC in the head allows it.

A breaking change (an error) in a file becomes info, citing the RFC, when an RFC of the head with
Compatibility `breaking` or `safety-fix` and status `Active` or `Accepted` names that file in its
Affects. Separately, an RFC that is new or changed in the head and claims `additive` while a file
in its Affects carries a breaking change that nothing allows is an error of its own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace

from wopgen.compat import rules as R
from wopgen.compat.change import Change, Side
from wopgen.corpus import Corpus
from wopgen.corpus.model import ParsedOnUse
from wopgen.corpus.rfc import Rfc
from wopgen.diagnostics import Severity

ALLOWING_CLASSES = ("breaking", "safety-fix")
ALLOWING_STATUSES = ("Active", "Accepted")


def _label(rfc: Rfc) -> str:
    number = rfc.number or rfc.file_number
    return f"RFC {number:04d}" if number is not None else rfc.path


def _allowing(head: Corpus) -> dict[str, Rfc]:
    """Each file named by an RFC that allows breaking it, with the first such RFC by path."""
    table: dict[str, Rfc] = {}
    for path in sorted(head.rfcs):
        text = _text(head.rfcs, path)
        if not any(word in text for word in ALLOWING_CLASSES):
            continue  # its Compatibility cannot name one: no need to read its header
        rfc = head.rfcs[path]
        if rfc.compatibility in ALLOWING_CLASSES and rfc.status in ALLOWING_STATUSES:
            for affected in rfc.affects:
                table.setdefault(affected.strip("/"), rfc)
    return table


def apply(changes: list[Change], base: Corpus, head: Corpus) -> list[Change]:
    """Downgrade the breaking changes an RFC allows; add the findings for additive claims."""
    allowing = _allowing(head)
    out: list[Change] = []
    for change in changes:
        rfc = allowing.get(change.path) if change.severity is Severity.ERROR else None
        if rfc is None:
            out.append(change)
            continue
        label = _label(rfc)
        note = f"{change.message}; allowed by {label} ({rfc.compatibility}, {rfc.status})"
        out.append(replace(change, severity=Severity.INFO, message=note, rfc=label, hint=""))
    out.extend(_additive_claims(out, base, head))
    return out


def _text(rfcs: Mapping[str, Rfc], path: str) -> str:
    """The text of an RFC, read without its header where the corpus has not parsed that yet."""
    source = rfcs.source(path) if isinstance(rfcs, ParsedOnUse) else None
    return source if source is not None else rfcs[path].text


def _touched(base: Corpus, head: Corpus) -> list[Rfc]:
    """RFCs of the head that are new, or whose text differs from the base."""
    return [
        head.rfcs[path]
        for path in sorted(head.rfcs)
        if path not in base.rfcs or _text(base.rfcs, path) != _text(head.rfcs, path)
    ]


def _additive_claims(changes: list[Change], base: Corpus, head: Corpus) -> Iterator[Change]:
    breaking: dict[str, list[Change]] = {}
    for change in changes:
        if change.severity is Severity.ERROR:
            breaking.setdefault(change.path, []).append(change)
    for rfc in _touched(base, head):
        if rfc.compatibility != "additive":
            continue
        for affected in rfc.affects:
            hits = breaking.get(affected.strip("/"))
            if not hits:
                continue
            rules = ", ".join(sorted({c.rule for c in hits}))
            line = rfc.line_of("Compatibility")
            yield Change(
                R.RFC_CLAIMS_ADDITIVE.id,
                R.RFC_CLAIMS_ADDITIVE.severity,
                f"{_label(rfc)} says `additive`, but {affected} carries {len(hits)} breaking change(s): {rules}",
                None,
                Side(rfc.path, "Compatibility", line),
                "make the change additive, or set Compatibility to `breaking` or `safety-fix` with a migration plan",
            )

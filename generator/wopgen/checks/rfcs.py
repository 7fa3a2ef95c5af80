"""RFC rules: the metadata header, numbering, statuses, dates, supersession, Affects, sections."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from wopgen.corpus import Corpus
from wopgen.corpus.conventions import looks_like_path, numbered_rfc
from wopgen.corpus.rfc import COMPATIBILITY, FIELDS, STATUSES, Rfc
from wopgen.diagnostics import Diagnostic, define

FILENAME = define("rfc-filename", "error", "An RFC file is not named NNNN-slug.md (four digits, lower-case slug).")
HEADER_MISSING = define("rfc-header-missing", "error", "An RFC has no metadata header table.")
HEADER_FIELD = define("rfc-header-field", "error", "A field of the RFC header table is missing or empty.")
NUMBER = define("rfc-number", "error", "The RFC number is not four digits or does not match the file name.")
NUMBER_DUPLICATE = define("rfc-number-duplicate", "error", "Two RFC files use the same number.")
STATUS = define("rfc-status", "error", f"Status is not one of {', '.join(STATUSES)}.")
COMPAT = define("rfc-compatibility", "error", f"Compatibility is not one of {', '.join(COMPATIBILITY)}.")
DATES = define("rfc-date", "error", "Created or Updated is not an ISO date (YYYY-MM-DD), or Created is after Updated.")
SUPERSESSION = define(
    "rfc-supersession",
    "error",
    "Supersedes / Superseded by do not agree between the two RFCs, or the older one is not Superseded.",
)
AFFECTS = define("rfc-affects-missing", "error", "A repository path named in Affects does not exist.")
SECTION = define("rfc-section-missing", "error", "A required section (H2) is missing from an RFC.")
ACCEPTANCE = define(
    "rfc-acceptance-open",
    "error",
    "An Accepted RFC has an unticked acceptance box that does not state its deferral.",
)


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    numbers: dict[int, str] = {}
    for path in sorted(corpus.rfcs):
        rfc = corpus.rfcs[path]
        if rfc.file_number is None:
            yield FILENAME.at(
                path,
                1,
                f"{Path(path).name} is not NNNN-slug.md",
                "rename it, e.g. 0901-verification-gates.md (or use `wopgen rfc new`)",
            )
        if not rfc.header:
            yield HEADER_MISSING.at(
                path,
                1,
                "no | **Field** | value | header table found",
                "start the RFC with the header table from the template (wopgen rfc new)",
            )
            continue
        yield from _header(corpus, rfc, numbers)
        yield from _sections(corpus, rfc)
        yield from _acceptance(corpus, rfc)
    yield from _supersession(corpus)


def _header(corpus: Corpus, rfc: Rfc, numbers: dict[int, str]) -> Iterator[Diagnostic]:
    path = rfc.path
    for name in FIELDS:
        if name not in rfc.header:
            yield HEADER_FIELD.at(
                path, rfc.table_line, f"header has no {name} row", f"add | **{name}** | ... | to the header table"
            )
        elif not rfc.get(name).strip() and name not in ("Supersedes", "Superseded by"):
            yield HEADER_FIELD.at(path, rfc.line_of(name), f"{name} is empty", f"fill in {name}")
    number = rfc.number
    if "RFC" in rfc.header:
        if number is None:
            yield NUMBER.at(
                path,
                rfc.line_of("RFC"),
                f"RFC number {rfc.get('RFC')!r} is not four digits",
                "write it as four digits, e.g. 0090",
            )
        elif rfc.file_number is not None and number != rfc.file_number:
            yield NUMBER.at(
                path,
                rfc.line_of("RFC"),
                f"header says RFC {number:04d}, file name says {rfc.file_number:04d}",
                "make the header and the file name agree",
            )
        elif number in numbers:
            yield NUMBER_DUPLICATE.at(
                path,
                rfc.line_of("RFC"),
                f"RFC {number:04d} is also {numbers[number]}",
                "numbers are never reused; take the next free one",
            )
        else:
            numbers[number] = path
    if "Status" in rfc.header and rfc.status not in STATUSES:
        yield STATUS.at(
            path,
            rfc.line_of("Status"),
            f"status {rfc.status!r} is not a known status",
            f"use one of {', '.join(STATUSES)}",
        )
    if "Compatibility" in rfc.header and rfc.compatibility not in COMPATIBILITY:
        yield COMPAT.at(
            path,
            rfc.line_of("Compatibility"),
            f"compatibility {rfc.compatibility!r} is not a known class",
            f"use one of {', '.join(COMPATIBILITY)}",
        )
    dates: dict[str, dt.date] = {}
    for name in ("Created", "Updated"):
        if name not in rfc.header:
            continue
        raw = rfc.date(name)
        try:
            if raw is None:
                raise ValueError
            dates[name] = dt.date.fromisoformat(raw)
        except ValueError:
            yield DATES.at(
                path,
                rfc.line_of(name),
                f"{name} {rfc.get(name)[:40]!r} does not start with an ISO date",
                "write YYYY-MM-DD, optionally followed by a note",
            )
    if len(dates) == 2 and dates["Created"] > dates["Updated"]:
        yield DATES.at(
            path,
            rfc.line_of("Updated"),
            f"Updated {dates['Updated']} is before Created {dates['Created']}",
            "Updated is the date of the latest change and cannot precede Created",
        )
    for item in rfc.affects:
        target = item.split("#", 1)[0].rstrip("/")
        if not target or any(ch in target for ch in "*?"):
            continue
        if not _affects_exists(corpus, target):
            yield AFFECTS.at(
                path,
                rfc.line_of("Affects"),
                f"Affects names {item!r}, which does not exist",
                "fix the path, or write things that are not files without backticks",
            )


def _affects_exists(corpus: Corpus, target: str) -> bool:
    """Whether an Affects item names something real, as `affects-paths` reads it: any backticked item
    must exist, or only those that look like repository paths. `RFCS/0037` (the RFC folder and a
    number) names the RFC file with that number; files declared external count as present."""
    conventions = corpus.settings.conventions
    if conventions.affects_paths == "path-like":
        if not looks_like_path(target):
            return True
        if conventions.is_external(target):
            return True
        number = numbered_rfc(target, corpus.settings.rfcs)
        if number in corpus.settings.external_rfcs:
            return True
        if number is not None and not target.endswith(".md"):  # `RFCS/0037`: the RFC numbered 0037
            return number in corpus.rfcs_by_number
    return corpus.exists(target)


def _sections(corpus: Corpus, rfc: Rfc) -> Iterator[Diagnostic]:
    conventions = corpus.settings.conventions
    present = {h.text.strip().lower() for h in rfc.doc.headings if h.level == 2}
    for section in conventions.rfc_sections:
        if not conventions.section_present(section, present):
            yield SECTION.at(rfc.path, 1, f"no '## {section}' section", f"add a '## {section}' section")


def _acceptance(corpus: Corpus, rfc: Rfc) -> Iterator[Diagnostic]:
    if rfc.status != "Accepted":
        return
    conventions = corpus.settings.conventions
    titles = [h.text for h in rfc.doc.headings if h.level == 2]
    chosen = conventions.section_title("Acceptance criteria", titles)
    heading = next((h for h in rfc.doc.headings if h.level == 2 and h.text == chosen), None)
    if heading is None:
        return
    first, last = rfc.doc.section_lines(heading)
    for task in rfc.doc.tasks:
        if first <= task.line <= last and not task.checked and "deferred" not in task.text.lower():
            yield ACCEPTANCE.at(
                rfc.path,
                task.line,
                f"unticked acceptance criterion: {task.text[:80]!r}",
                "tick it, or state why it is deferred on the same line (Deferred: ...)",
            )


# (this field, the field that must point back, verb for messages)
_LINKS = (("Supersedes", "Superseded by", "supersedes"), ("Superseded by", "Supersedes", "is superseded by"))


def _supersession(corpus: Corpus) -> Iterator[Diagnostic]:
    """Each RFC file's Supersedes and Superseded by, against the RFC each names (the first file of its
    number, as everywhere: two files of one number are `rfc-number-duplicate`). Every file is read,
    the second of a number too, so its links are checked as well."""
    table = corpus.rfcs_by_number
    numbers = Counter(rfc.known_number for rfc in corpus.rfcs.values())
    for path in sorted(corpus.rfcs):
        rfc = corpus.rfcs[path]
        number = rfc.known_number
        if number is None:
            continue
        # Which file a message means, where several share its number (`rfc-number-duplicate`).
        named = f"RFC {number:04d}" + (f" ({rfc.path})" if numbers[number] > 1 else "")
        for field, back, verb in _LINKS:
            for ref in rfc.references(field):
                other = table.get(ref)
                if other is None:
                    if ref not in corpus.settings.external_rfcs:
                        yield SUPERSESSION.at(
                            rfc.path,
                            rfc.line_of(field),
                            f"{verb} RFC {ref:04d}, which is not in the corpus",
                            "fix the number or declare it in external-rfcs",
                        )
                    continue
                if number not in other.references(back):
                    yield SUPERSESSION.at(
                        other.path,
                        other.line_of(back),
                        f"{named} {verb} this RFC, but {back} does not name it",
                        f"set {back} to {number:04d}",
                    )
                if field == "Supersedes" and rfc.status == "Accepted" and other.status != "Superseded":
                    yield SUPERSESSION.at(
                        other.path,
                        other.line_of("Status"),
                        f"superseded by Accepted {named} but its status is {other.status!r}",
                        "set Status to `Superseded`",
                    )

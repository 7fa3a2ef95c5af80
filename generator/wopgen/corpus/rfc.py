"""RFC documents: the metadata header table and the parts of the body the checks read."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from wopgen.corpus.markdown import MarkdownDoc, source_lines

FIELDS = (
    "RFC",
    "Title",
    "Status",
    "Author(s)",
    "Created",
    "Updated",
    "Affects",
    "Compatibility",
    "Supersedes",
    "Superseded by",
)
STATUSES = ("Draft", "Active", "Accepted", "Withdrawn", "Superseded", "Rejected")
COMPATIBILITY = ("additive", "safety-fix", "breaking")
SECTIONS = (
    "Summary",
    "Motivation",
    "Proposal",
    "Compatibility",
    "Conformance",
    "Alternatives considered",
    "Unresolved questions",
    "Acceptance criteria",
    "References",
)
FILENAME = re.compile(r"^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$")
HEADER_ROW = re.compile(r"^\|\s*\*\*(.+?)\*\*\s*\|(.*)\|\s*$")  # a row of the metadata table
_TICKED = re.compile(r"`([^`]+)`")
_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})\b")
_NUMBER = re.compile(r"\b(\d{1,4})\b")
EMPTY = ("", "—", "-", "–", "none", "n/a")


class HeaderField(NamedTuple):
    value: str
    line: int


@dataclass
class Rfc:
    """One RFC file. `header` is empty when the file has no metadata table.

    The header is read from the file's lines; the page itself (`doc`) is parsed when first asked for,
    so what needs only the metadata (an RFC's status, compatibility, affects) never parses Markdown."""

    path: str
    text: str  # the file as read
    file_number: int | None
    page: Callable[[], MarkdownDoc] = field(repr=False, compare=False)  # parses `text`
    header: dict[str, HeaderField] = field(default_factory=dict)
    table_line: int = 0

    @cached_property
    def doc(self) -> MarkdownDoc:
        """The parsed page."""
        return self.page()

    def get(self, name: str) -> str:
        item = self.header.get(name)
        return item.value if item else ""

    def line_of(self, name: str) -> int:
        item = self.header.get(name)
        return item.line if item else (self.table_line or 1)

    @property
    def number(self) -> int | None:
        m = re.fullmatch(r"\s*(\d{4})\s*", self.get("RFC"))
        return int(m.group(1)) if m else None

    @property
    def known_number(self) -> int | None:
        """The number the RFC goes by: its file name's, else its header's (None: neither gives one)."""
        return self.file_number if self.file_number is not None else self.number

    @property
    def title(self) -> str:
        return self.get("Title").strip()

    @property
    def status(self) -> str:
        return first_token(self.get("Status"))

    @property
    def compatibility(self) -> str:
        return first_token(self.get("Compatibility"))

    def date(self, name: str) -> str | None:
        m = _DATE.match(self.get(name).strip())
        return m.group(1) if m else None

    @property
    def affects(self) -> list[str]:
        """Repository paths named in Affects: the backticked items."""
        return [t.strip() for t in _TICKED.findall(self.get("Affects")) if t.strip()]

    def references(self, name: str) -> list[int]:
        """RFC numbers in Supersedes / Superseded by (empty when the cell says none)."""
        value = self.get(name).strip()
        if value.lower() in EMPTY:
            return []
        return [int(n) for n in _NUMBER.findall(value)]


def first_token(cell: str) -> str:
    ticked = _TICKED.search(cell)
    if ticked:
        return ticked.group(1).strip()
    words = cell.strip().split()
    return words[0].strip("*") if words else ""


def parse_rfc(path: str, text: str, filename: str, page: Callable[[], MarkdownDoc]) -> Rfc:
    """The RFC in `text` (the file `path`, named `filename`), its header read; `page` parses `text`."""
    m = FILENAME.match(filename)
    rfc = Rfc(path=path, text=text, file_number=int(m.group(1)) if m else None, page=page)
    in_table = False
    # Split at LF alone when the text has no CR: the same lines (the header stops before a last empty
    # one), split in one call.
    lines = text.split("\n") if "\r" not in text else source_lines(text)
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        row = HEADER_ROW.match(stripped) if stripped.startswith("|") else None
        if row:
            if not in_table and rfc.header:
                break  # a second table; only the first one is the header
            in_table = True
            rfc.table_line = rfc.table_line or number
            name = row.group(1).strip()
            rfc.header.setdefault(name, HeaderField(row.group(2).strip(), number))
        elif in_table and not stripped.startswith("|"):
            break
        elif stripped.startswith("|") and not rfc.header and not rfc.table_line:
            rfc.table_line = number
    return rfc

"""Parsed Markdown kept between runs: what the reader found in a page, keyed by the page's path and
the digest of its bytes, as plain JSON-ready lists.

Parsing is most of a full check's time on a corpus of many RFCs, and between two checks most pages
are unchanged. A `MarkdownMemo` answers a page it has seen with the same bytes from its entries and
parses the others; the caller decides where the entries live between runs (`wopgen check` keeps them
under `build/.cache/check`, tied to the toolchain's fingerprint, since a new reader may read a page
differently). Entries are data, never code: a damaged or foreign entry is parsed again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wopgen.corpus.markdown import (
    Heading,
    Link,
    MarkdownDoc,
    RfcMention,
    TaskItem,
    UndefinedReference,
    parse_markdown,
)


def to_entry(doc: MarkdownDoc) -> list[Any]:
    """What the reader found in `doc`, without its text (the page itself is the other half)."""
    return [
        [[h.level, h.text, h.slug, h.line] for h in doc.headings],
        [[k.text, k.target, k.line, k.col, k.length] for k in doc.links],
        [[u.text, u.label, u.line, u.col] for u in doc.undefined_references],
        [[t.checked, t.text, t.line] for t in doc.tasks],
        [[m.number, m.line, m.col] for m in doc.rfc_mentions],
        sorted(doc.code_lines),
    ]


def from_entry(path: str, text: str, entry: list[Any]) -> MarkdownDoc:
    """The page `to_entry` described; raises ValueError or TypeError on an entry of another shape."""
    headings, links, undefined, tasks, mentions, code = entry
    return MarkdownDoc(
        path=path,
        text=text,
        headings=[Heading(_int(a), _str(b), _str(c), _int(d)) for a, b, c, d in headings],
        links=[Link(_str(a), _str(b), _int(c), _int(d), _int(e)) for a, b, c, d, e in links],
        undefined_references=[UndefinedReference(_str(a), _str(b), _int(c), _int(d)) for a, b, c, d in undefined],
        tasks=[TaskItem(_bool(a), _str(b), _int(c)) for a, b, c in tasks],
        rfc_mentions=[RfcMention(_int(a), _int(b), _int(c)) for a, b, c in mentions],
        code_lines={_int(n) for n in code},
    )


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"not a number: {value!r}")
    return value


def _str(value: Any) -> str:
    if type(value) is not str:
        raise TypeError(f"not a string: {value!r}")
    return value


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        raise TypeError(f"not a boolean: {value!r}")
    return value


class MarkdownMemo:
    """Pages parsed before, by path and digest, and the pages this run parsed anew."""

    def __init__(self, entries: dict[str, Any] | None = None) -> None:
        self._given = entries if isinstance(entries, dict) else {}
        self._new: dict[str, Any] = {}

    def parse(self, path: str, text: str, digest: str) -> MarkdownDoc:
        """The page at `path` whose bytes have `digest`: recalled when seen before, else parsed."""
        key = _key(path, digest)
        known = self._given.get(key)
        if known is not None:
            try:
                return from_entry(path, text, known)
            except (ValueError, TypeError):
                pass
        doc = parse_markdown(path, text)
        self._new[key] = to_entry(doc)
        return doc

    def kept(self, sources: Mapping[str, str]) -> dict[str, Any] | None:
        """The entries to keep for the next run, given the digest of every file read now (path to
        digest): those of pages that still exist unchanged. None when that is what was given."""
        merged = {**self._given, **self._new}
        kept = {
            key: entry for key, entry in merged.items() if sources.get(key.partition("\0")[0]) == key.partition("\0")[2]
        }
        return None if not self._new and kept.keys() == self._given.keys() else kept


def _key(path: str, digest: str) -> str:
    return f"{path}\0{digest}"

"""Prose rules: status banners, relative links and anchors, RFC citations."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from urllib.parse import unquote

from wopgen.corpus import Corpus
from wopgen.corpus.conventions import BANNER_PATTERN, numbered_rfc
from wopgen.corpus.graph import value_at
from wopgen.corpus.markdown import MarkdownDoc
from wopgen.corpus.regexes import BUDGET_SECONDS, PatternTimeout, bounded_match
from wopgen.corpus.rfc import STATUSES
from wopgen.diagnostics import Diagnostic, define

_BANNER_CITES = re.compile(r"`([A-Za-z]+)`[^`\[]*?\[RFC[ \u00a0-]?(\d{4})\]")
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)

BANNER = define("doc-banner", "error", "A spec page does not open with a status banner (> **Status: Level**).")
BANNER_STATUS = define(
    "doc-banner-rfc-status",
    "error",
    "A status banner disagrees with the status of an RFC it cites.",
)
LINK = define(
    "doc-link-broken",
    "error",
    "A relative link points at a file that does not exist or leaves the corpus, or a reference link names an undefined label.",
)
ANCHOR = define(
    "doc-anchor-broken",
    "error",
    "A link's #anchor matches no heading in the target page, or its #/pointer no member of the target schema.",
)
RFC_UNKNOWN = define(
    "doc-rfc-unknown",
    "error",
    "A page or RFC cites an RFC number that is neither in the corpus nor declared external.",
)


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    for path in sorted(corpus.docs):
        doc = corpus.docs[path]
        yield from _banner(corpus, doc)
    pages: list[MarkdownDoc] = [*corpus.docs.values(), *(r.doc for r in corpus.rfcs.values())]
    by_path = {page.path: page for page in pages}
    known = set(corpus.rfcs_by_number) | set(corpus.settings.external_rfcs)
    for page in sorted(pages, key=lambda p: p.path):
        yield from _links(corpus, page, by_path)
        reported: set[int] = set()
        for mention in page.rfc_mentions:
            if mention.number not in known and mention.number not in reported:
                reported.add(mention.number)
                yield RFC_UNKNOWN.at(
                    page.path,
                    mention.line,
                    f"cites RFC {mention.number:04d}, which is not in the corpus",
                    "add it, fix the number, or list it in [tool.wopgen] external-rfcs",
                    col=mention.col,
                )


def _banner(corpus: Corpus, doc: MarkdownDoc) -> Iterator[Diagnostic]:
    conventions = corpus.settings.conventions
    found = doc.first_blockquote()
    try:
        match = bounded_match(conventions.banner_pattern, found[1]) if found else None
    except PatternTimeout:
        assert found is not None
        yield BANNER.at(
            doc.path,
            found[0],
            f"banner-pattern ran past {BUDGET_SECONDS:g} s on this block quote (catastrophic backtracking), "
            "so the banner cannot be judged",
            "rewrite banner-pattern without nested or overlapping repetition",
        )
        return
    if found is None or match is None:
        line = found[0] if found else (doc.title.line + 1 if doc.title else 1)
        yield BANNER.at(
            doc.path,
            line,
            "no status banner after the title"
            if found is None
            else "the first block quote is not a status banner: it does not match banner-pattern",
            "add a line like: > **Status: Draft** · `Active` via [RFC 0061](../rfcs/0061-....md)"
            if conventions.banner_pattern == BANNER_PATTERN
            else f"open the page with a block quote matching banner-pattern {conventions.banner_pattern!r}",
        )
        return
    line, text = found
    level = match.group("level")
    levels = conventions.banner_levels
    if level not in levels:
        yield BANNER.at(
            doc.path,
            line,
            f"status level {level!r} is not one of {', '.join(levels)}",
            "use one of the documented levels (banner-levels)",
        )
    for claimed, number in _BANNER_CITES.findall(text):
        rfc = corpus.rfcs_by_number.get(int(number))
        if rfc is None or claimed not in STATUSES:
            continue
        if rfc.status != claimed:
            yield BANNER_STATUS.at(
                doc.path,
                line,
                f"banner says RFC {number} is {claimed!r}, the RFC says {rfc.status!r}",
                "update the banner to the RFC's current status",
            )
        if level == "Stable" and rfc.status != "Accepted":
            yield BANNER_STATUS.at(
                doc.path,
                line,
                f"a Stable page cites RFC {number}, which is {rfc.status!r}, not Accepted",
                "mark the page Stabilizing or Draft until the RFC is Accepted",
            )


def _declared_external(corpus: Corpus, resolved: str) -> bool:
    """A link to a file kept outside this checkout: one of `external-paths`, or the file of an RFC
    listed in `external-rfcs` (NNNN-slug.md in the RFC folder)."""
    if corpus.settings.conventions.is_external(resolved):
        return True
    return numbered_rfc(resolved, corpus.settings.rfcs) in corpus.settings.external_rfcs


def _links(corpus: Corpus, page: MarkdownDoc, by_path: dict[str, MarkdownDoc]) -> Iterator[Diagnostic]:
    for reference in page.undefined_references:
        yield LINK.at(
            page.path,
            reference.line,
            f"reference link [{reference.text}][{reference.label}]: the page defines no [{reference.label}]",
            f"add a definition line '[{reference.label}]: path.md' to the page, or write an inline link",
            col=reference.col,
        )
    folder = posixpath.dirname(page.path)
    for link in page.links:
        target = link.target.strip()
        if not target or _EXTERNAL.match(target) or target.startswith("//"):
            continue
        file_part, _, anchor = target.partition("#")
        if file_part:
            resolved = posixpath.normpath(posixpath.join(folder, unquote(file_part)))
            if not corpus.inside(resolved):
                yield LINK.at(
                    page.path,
                    link.line,
                    f"link {target!r} leaves the corpus",
                    "link to files inside the repository",
                    col=link.col,
                )
                continue
            if not corpus.exists(resolved) and not _declared_external(corpus, resolved):
                yield LINK.at(
                    page.path, link.line, f"link {target!r}: {resolved} does not exist", "fix the path", col=link.col
                )
                continue
        else:
            resolved = page.path
        problem = _anchor_problem(corpus, by_path, resolved, unquote(anchor)) if anchor else None
        if problem is not None:
            yield ANCHOR.at(page.path, link.line, f"link {target!r}: {problem[0]}", problem[1], col=link.col)


def _anchor_problem(
    corpus: Corpus, by_path: dict[str, MarkdownDoc], resolved: str, anchor: str
) -> tuple[str, str] | None:
    """(what is wrong, hint) when `anchor` names nothing in the page or schema at `resolved`."""
    if anchor.startswith("/") and resolved in corpus.schemas:
        if value_at(corpus.schemas[resolved].data, anchor)[0]:
            return None
        return (
            f"the JSON pointer #{anchor} names nothing in {resolved}",
            "point at an existing member, for example #/$defs/name/properties/member",
        )
    target_doc = by_path.get(resolved)
    if target_doc is None or anchor in target_doc.anchors:
        return None
    return (
        f"no heading with anchor #{anchor} in {resolved}",
        "anchors are the site's heading anchors: lower case, punctuation dropped, spaces to -, a repeat gets _1, _2",
    )

"""A small Markdown reader: headings and their anchors, links, task items, RFC mentions.

It reads what the checks and generators need and nothing more; fenced code is skipped.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_CODE_SPAN = re.compile(r"`+[^`]*`+")
_TASK = re.compile(r"^\s*[-*+]\s+\[([ xX])\]\s+(.*)$")
# OpenWOP RFCs are cited with four digits and a leading zero (RFC 0061); IETF ones (RFC 2119) are not.
_RFC = re.compile(r"\bRFC[ \u00a0-]?(0\d{3})\b")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    slug: str
    line: int


@dataclass(frozen=True)
class Link:
    text: str
    target: str
    line: int
    col: int


@dataclass(frozen=True)
class TaskItem:
    checked: bool
    text: str
    line: int


@dataclass(frozen=True)
class RfcMention:
    number: int
    line: int
    col: int


@dataclass
class MarkdownDoc:
    path: str
    text: str
    headings: list[Heading] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    tasks: list[TaskItem] = field(default_factory=list)
    rfc_mentions: list[RfcMention] = field(default_factory=list)

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @property
    def anchors(self) -> set[str]:
        return {h.slug for h in self.headings}

    @property
    def title(self) -> Heading | None:
        return next((h for h in self.headings if h.level == 1), None)

    def section_lines(self, heading: Heading) -> tuple[int, int]:
        """1-based inclusive line range of a heading's body, up to the next heading of its level."""
        lines = self.lines
        end = len(lines)
        for h in self.headings:
            if h.line > heading.line and h.level <= heading.level:
                end = h.line - 1
                break
        return heading.line + 1, end

    def first_blockquote(self) -> tuple[int, str] | None:
        """The first blockquote after the H1 and before any other heading or paragraph."""
        title = self.title
        start = title.line if title else 0
        for number, raw in enumerate(self.lines[start:], start=start + 1):
            stripped = raw.strip()
            if not stripped:
                continue
            if stripped.startswith(">"):
                return number, stripped
            return None
        return None


def inline_text(markdown: str) -> str:
    """Heading text as a reader sees it: link text kept, code ticks and emphasis marks dropped."""
    text = _LINK.sub(lambda m: m.group(1), markdown)
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|__|\*)", "", text)
    return text.strip()


def slugify(text: str) -> str:
    """GitHub-style anchor: lower case, punctuation dropped, spaces to hyphens."""
    out = []
    for ch in inline_text(text).lower():
        if ch in (" ", "-"):
            out.append("-")
        elif ch == "_" or unicodedata.category(ch)[0] in ("L", "N"):
            out.append(ch)
    return "".join(out)


def parse_markdown(path: str, text: str) -> MarkdownDoc:
    doc = MarkdownDoc(path=path, text=text)
    in_fence = False
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if _FENCE.match(raw):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        heading = _HEADING.match(raw)
        if heading:
            base = slugify(heading.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            slug = base if n == 0 else f"{base}-{n}"
            doc.headings.append(Heading(len(heading.group(1)), inline_text(heading.group(2)), slug, number))
        task = _TASK.match(raw)
        if task:
            doc.tasks.append(TaskItem(task.group(1) != " ", task.group(2).strip(), number))
        visible = _CODE_SPAN.sub(lambda m: " " * len(m.group()), raw)
        for link in _LINK.finditer(visible):
            doc.links.append(Link(link.group(1), link.group(2), number, link.start() + 1))
        for mention in _RFC.finditer(raw):
            doc.rfc_mentions.append(RfcMention(int(mention.group(1)), number, mention.start() + 1))
    return doc

"""Where each corpus file appears on the docs site, and how links written in the corpus follow it.

The corpus links files by their repository paths (`../../schemas/run-event.schema.json`,
`../rfcs/0090-verifier-turn.md#summary`). On the site those files are pages at other paths, so every
link is resolved against the repository path of the page it is written in, mapped to the page that
shows the target, and written relative to the page being rendered. A link to a file the site does
not publish keeps its text and loses the link, so the strict build never meets a broken one; a link to
an API file leads to the page rendered from it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote, urlparse

from wopgen.corpus import Corpus
from wopgen.corpus.graph import Located
from wopgen.corpus.markdown import Link, MarkdownDoc
from wopgen.generate.site.html import escape_raw_html
from wopgen.generate.site.lists import for_the_site
from wopgen.generate.site.page_hook import repository_file

SPEC = "spec/v1"
RFCS = "rfcs"
SCHEMAS = "schemas"
CHANGELOG = "changelog.md"
SECURITY = "security.md"

_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?((?:\s+\"[^\"]*\")?)\s*\)")
_EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def example_anchor(kind: str, stem: str) -> str:
    return f"example-{kind}-{stem}"


def def_anchor(name: str) -> str:
    return f"def-{name}"


@dataclass(frozen=True)
class Target:
    page: str  # docs-relative path of the page (or published file)
    anchor: str = ""


class SitePaths:
    """The map from repository paths to site pages for one corpus."""

    def __init__(
        self,
        corpus: Corpus,
        api_pages: Mapping[str, str] | None = None,
        repository: tuple[str, str] | None = None,
    ) -> None:
        """`api_pages`: the page that shows each API file (and the API folder), as the API pages
        place them; `repository`: (URL, edit URI) where the repository shows a file the site does not
        publish (see `SiteContext.repository`)."""
        self.corpus = corpus
        self.repository = repository
        settings = corpus.settings
        table: dict[str, Target] = {_norm(path): Target(page) for path, page in (api_pages or {}).items()}
        self._api_files = frozenset(table)
        for path in corpus.docs:
            table[path] = Target(self.doc_page(path))
        for path in corpus.rfcs:
            table[path] = Target(self.rfc_page(path))
        for path in corpus.schemas:
            table[path] = Target(self.schema_page(path))
        for example in corpus.examples:
            stem = PurePosixPath(example.path).stem
            table[example.path] = Target(f"{SCHEMAS}/{example.schema_name}.md", example_anchor(example.kind, stem))
        if corpus.changelog is not None:
            table[corpus.changelog.path] = Target(CHANGELOG)
        if corpus.invariants is not None:
            table[corpus.invariants.path] = Target(SECURITY)
        folders = {
            settings.rfcs: f"{RFCS}/index.md",
            settings.schemas: f"{SCHEMAS}/index.md",
        }
        for folder, page in folders.items():
            table[_norm(folder)] = Target(page)
        self._table = table

    # --- where pages live ----------------------------------------------------------------

    def doc_page(self, path: str) -> str:
        relative = PurePosixPath(path).relative_to(_norm(self.corpus.settings.docs))
        return f"{SPEC}/{relative.as_posix()}"

    def rfc_page(self, path: str) -> str:
        return f"{RFCS}/{PurePosixPath(path).name}"

    def schema_page(self, path: str) -> str:
        return f"{SCHEMAS}/{self.corpus.schema_name(path)}.md"

    def raw_schema(self, path: str) -> str:
        """Where the schema file itself is published: the path of its `$id`, else spec/v1/<file>."""
        uri = self.corpus.uri_of(path)
        published = PurePosixPath(urlparse(uri).path.lstrip("/"))
        if (
            published.parts
            and ".." not in published.parts
            and published.name.endswith(self.corpus.settings.conventions.schema_suffix)
        ):
            return published.as_posix()
        return f"{SPEC}/{PurePosixPath(path).name}"

    def target(self, repo_path: str) -> Target | None:
        return self._table.get(_norm(repo_path))

    # --- links ---------------------------------------------------------------------------

    def href(self, page: str, target: Target, anchor: str = "") -> str:
        """A link from `page` to `target`, relative, as mkdocs expects (to the .md file)."""
        relative = "" if target.page == page else posixpath.relpath(target.page, posixpath.dirname(page) or ".")
        fragment = target.anchor or anchor
        return relative + (f"#{fragment}" if fragment else "") or "#"

    def href_to(self, page: str, repo_path: str) -> str | None:
        target = self.target(repo_path)
        return None if target is None else self.href(page, target)

    def ref_target(self, holder: Mapping[str, Any]) -> Located | None:
        """Where the `$ref` of `holder`, an object of a corpus schema, leads as the graph resolved it; None
        when it does not lead to a node of the corpus."""
        graph = self.corpus.graph
        where = graph.locate(holder)
        site = graph.site_at(where) if where is not None else None
        return None if site is None else site.target

    def schema_ref(self, page: str, holder: Mapping[str, Any]) -> tuple[str, str] | None:
        """(label, link) for the `$ref` of `holder` (`ref_target`); None when it leads to no node of the corpus."""
        target = self.ref_target(holder)
        return None if target is None else self.schema_link(page, target)

    def schema_link(self, page: str, where: Located) -> tuple[str, str]:
        """(label, link) for a node of a corpus schema: its `$defs` entry's section on the schema's
        page (labelled by the entry's name), else the page itself (labelled by the schema's title when
        the node is the root, by its name when it lies deeper)."""
        doc = self.corpus.schemas[where.path]
        target = Target(self.schema_page(doc.path))
        parts = [p for p in where.pointer.split("/") if p]
        if len(parts) >= 2 and parts[0] == "$defs":
            return parts[1], self.href(page, target, def_anchor(parts[1]))
        title = doc.data.get("title") if isinstance(doc.data, dict) else None
        label = title if isinstance(title, str) and not parts else self.corpus.schema_name(doc.path)
        return label, self.href(page, target)

    def rewrite(self, doc: MarkdownDoc, page: str) -> str:
        """Rewrite the links of `doc` (a page the corpus loader read) for the site page `page`.

        The links are the ones the corpus Markdown reader found (so a link in code is left alone, as
        `check` leaves it); each one on a single line is rewritten in place. Raw HTML is then shown
        as text unless `[tool.wopgen.site] raw-html = true`. Front matter the site reads stays at the
        top as written: it is not Markdown."""
        lines = self.rewrite_links(doc, page)
        front = doc.front_matter_lines
        return front_matter(doc) + self.shown("\n".join(lines[front:]) + "\n")

    def rewrite_links(self, doc: MarkdownDoc, page: str) -> list[str]:
        """`rewrite` without the raw-HTML rule, as the lines the corpus reader numbered: a caller
        may cut lines out by those numbers. Lists are laid out as the site's Markdown reads them
        (`lists.for_the_site`)."""
        lines = list(doc.lines)
        by_line: dict[int, list[Link]] = {}
        for link in doc.links:
            by_line.setdefault(link.line - 1, []).append(link)
        for index, found in by_line.items():
            if index < len(lines):
                lines[index] = self._rewrite_line(lines[index], found, doc.path, page)
        return for_the_site(lines, doc.list_items)

    def shown(self, markdown: str) -> str:
        """Corpus Markdown as the site publishes it: its raw HTML shown as text unless
        `[tool.wopgen.site] raw-html = true`."""
        return markdown if self.corpus.settings.site.raw_html else escape_raw_html(markdown)

    def _rewrite_line(self, line: str, links: list[Link], source: str, page: str) -> str:
        for link in sorted(links, key=lambda found: found.col, reverse=True):  # right to left: columns hold
            start, end = link.col - 1, link.col - 1 + link.length
            match = _LINK.fullmatch(line, start, end) if link.length else None
            if match is not None:
                line = line[:start] + self._one(match, source, page) + line[end:]
        return line

    def _one(self, match: re.Match[str], source: str, page: str) -> str:
        bang, text, url, title = match.groups()
        if not url or url.startswith("#") or _EXTERNAL.match(url):
            return match.group(0)
        path, _, anchor = url.partition("#")
        repo_path = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
        target = self.target(repo_path)
        if target is None:  # a file the site does not publish: where the repository shows it, else the words
            shown = None if bang else self.repository_url(repo_path)
            return text if shown is None else f"[{text}]({shown}{'#' + anchor if anchor else ''}{title})"
        if anchor.startswith("/") and repo_path in self.corpus.schemas:
            # A JSON pointer into a schema: its page has a section per `$defs` entry, nothing finer.
            parts = anchor.split("/")
            anchor = def_anchor(parts[2]) if len(parts) > 2 and parts[1] == "$defs" else ""
        elif anchor.startswith("/") and _norm(repo_path) in self._api_files:
            anchor = ""  # a JSON pointer into an API document: its page has no section per pointer
        return f"{bang}[{text}]({self.href(page, target, anchor)}{title})"

    def repository_url(self, repo_path: str) -> str | None:
        """The URL where the repository shows its file (or folder) `repo_path`; None without a repository, or
        when the corpus has no such path (a link `check` reports as broken), or it is absolute, a URL or
        outside the root."""
        if self.repository is None or repo_path.startswith(("..", "/")) or "://" in repo_path:
            return None
        if _norm(repo_path) == ".":
            return None
        if not self.corpus.exists(repo_path):
            return None
        return repository_file(*self.repository, quote(_norm(repo_path)))


def front_matter(doc: MarkdownDoc) -> str:
    """The lines of `doc` that the site reads as its front matter, as written ("" when there are none)."""
    front = doc.front_matter_lines
    return "".join(line + "\n" for line in doc.lines[:front])


def _norm(path: str) -> str:
    return posixpath.normpath(path.strip("/")) if path.strip("/") else "."

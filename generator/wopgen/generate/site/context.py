"""What every page renderer of the docs site shares: the corpus, the path map and the templates."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from jinja2 import Environment

from wopgen.corpus import Corpus, Example
from wopgen.diagnostics import Rule
from wopgen.generate.site.blocks import CodeBlocks
from wopgen.generate.site.html import escape_raw_html
from wopgen.generate.site.paths import SitePaths
from wopgen.generate.site.tables import Tables
from wopgen.templates import environment

Pages = dict[str, str | bytes]
EDIT_URI = "blob/HEAD/"  # where a repository file is shown, under the repository's URL, unless `edit-uri` says
# Templates that write HTML themselves (cards, badges, the Swagger UI page) or a placeholder in angle
# brackets, and the prose page, whose body `SitePaths.rewrite` has already made safe.
_OWN_HTML = frozenset(
    {
        "api-try.md.j2",
        "conformance.md.j2",
        "home.md.j2",
        "rfc.md.j2",
        "rfc-index.md.j2",
        "prose.md.j2",
    }
)


@dataclass
class SiteContext:
    corpus: Corpus
    rules: Sequence[Rule]  # the rule catalogue the reference page lists (the caller's: see wopgen.catalogue)
    known: Mapping[str, str] | None = None  # pieces of HTML an earlier rendering made (see `staged`)

    @cached_property
    def paths(self) -> SitePaths:
        # The API pages are placed by the module that renders them, which renders with this context.
        from wopgen.generate.site.api import source_pages

        return SitePaths(self.corpus, source_pages(self), self.repository)

    @cached_property
    def blocks(self) -> CodeBlocks:
        """The highlighted code blocks the pages name (written as `blocks.json`)."""
        return CodeBlocks(self.known)

    @cached_property
    def tables(self) -> Tables:
        """The pipe tables of the pages written as HTML (`tables.json`, see `wopgen.generate.site.tables`)."""
        return Tables(self.known)

    @cached_property
    def env(self) -> Environment:
        return environment("site")

    @cached_property
    def _examples(self) -> dict[tuple[str, str], list[Example]]:
        table: dict[tuple[str, str], list[Example]] = {}
        for example in sorted(self.corpus.examples, key=lambda e: e.path):
            table.setdefault((example.schema_name, example.kind), []).append(example)
        return table

    def examples(self, schema_name: str, kind: str) -> list[Example]:
        """The schema's examples of one kind ("valid", "invalid"), by path (one pass over the corpus
        for the whole site, not one per page)."""
        return self._examples.get((schema_name, kind), [])

    def render(self, template: str, **values: Any) -> str:
        """The page `template` renders. Corpus text it holds (schema and operation descriptions,
        summaries) may carry raw HTML: it is shown as text unless `[tool.wopgen.site] raw-html = true`,
        as in prose pages, except in the templates that write HTML of their own (their corpus text
        is escaped where it is inserted). Only Markdown pages are read this way: the configuration and
        the stylesheet are not Markdown."""
        text = self.env.get_template(template).render(**values).rstrip("\n") + "\n"
        markdown = template.endswith(".md.j2")
        if not markdown or template in _OWN_HTML or self.corpus.settings.site.raw_html or "<" not in text:
            return self.blocks.place(text)
        return self.blocks.place(escape_raw_html(text))

    @cached_property
    def repository(self) -> tuple[str, str] | None:
        """(repository URL, edit URI) of the site's repository links: `[tool.wopgen.site] repo-url`, else the
        corpus-wide `repository-url`, with `edit-uri` (default `blob/HEAD/`); None without a repository."""
        settings = self.corpus.settings
        url = settings.site.repo_url or settings.conventions.repository_url
        return (url, settings.site.edit_uri or EDIT_URI) if url else None

    def rfc_link(self, page: str, number: int) -> str:
        """`[RFC 0090](...)` when the RFC is in the corpus, plain `RFC 0090` otherwise."""
        label = f"RFC {number:04d}"
        rfc = self.corpus.rfcs_by_number.get(number)
        if rfc is None:
            return label
        href = self.paths.href_to(page, rfc.path)
        return f"[{label}]({href})" if href else label

"""One Python-Markdown converter for all the pages of a site build, instead of one per page.

mkdocs 1.6 makes a new `markdown.Markdown` for every page it renders (`Page.render`), loading and
setting up every configured extension again: at a few hundred pages, a few tenths of a second.
`OneConverter` (an mkdocs plugin added to the loaded configuration, like the progress plugin) gives
each page a `render` of its own that does what mkdocs' does, with the processors mkdocs adds per
page, but on one converter made at the first page and reset before each further one.
`Markdown.reset()` empties the reference definitions and the stash of raw HTML and calls the
`reset` of every extension that keeps state between documents, so each page is converted as by a
converter of its own.

It steps in only where that has been checked, and leaves every page to mkdocs otherwise:
- the mkdocs versions whose `Page.render` it follows (`MKDOCS_VERSIONS`: 1.6.0 and 1.6.1 have the
  same one), with the private processors it registers present;
- only the Markdown extensions whose state between pages `reset()` clears or that keep none
  (`EXTENSIONS`): the base configuration's and mkdocs' defaults. A configuration naming any other
  (footnotes, abbreviations, a plugin's own) is rendered by mkdocs.
A page whose conversion fails drops the converter: the next one starts from a new converter.

Given a `PageCache`, a page converted by an earlier build from the same Markdown, under the same
files, settings and code, is taken from it instead of converted (see `wopgen.generate.site.converted`).
"""

from __future__ import annotations

import json
import logging
from functools import partial
from typing import Any

import markdown  # type: ignore[import-untyped]  # Python-Markdown ships no annotations
import mkdocs
from mkdocs.config.base import LegacyConfig
from mkdocs.plugins import BasePlugin
from mkdocs.structure import pages
from mkdocs.structure.toc import get_toc

from wopgen.generate.site.converted import Converted, PageCache, build_key, heard, page_key

MKDOCS_VERSIONS = frozenset({"1.6.0", "1.6.1"})
EXTENSIONS = frozenset(
    {
        # mkdocs' defaults
        "toc",
        "tables",
        "fenced_code",
        # site/mkdocs.yml
        "admonition",
        "attr_list",
        "md_in_html",
        "def_list",
        "pymdownx.details",
        "pymdownx.superfences",
        "pymdownx.highlight",
        "pymdownx.inlinehilite",
        "pymdownx.tasklist",
    }
)
_PER_PAGE = (
    "_RawHTMLPreprocessor",
    "_ExtractAnchorsTreeprocessor",
    "_RelativePathTreeprocessor",
    "_ExtractTitleTreeprocessor",
)
_log = logging.getLogger(pages.__name__)  # mkdocs' own logger for pages: its level decides as in mkdocs


def applies(config: Any) -> bool:
    """Whether pages built with `config` (a loaded mkdocs configuration) may share one converter."""
    if mkdocs.__version__ not in MKDOCS_VERSIONS or not all(hasattr(pages, name) for name in _PER_PAGE):
        return False
    names = config["markdown_extensions"]
    return all(isinstance(name, str) and name in EXTENSIONS for name in names)


class OneConverter(BasePlugin[LegacyConfig]):  # type: ignore[no-untyped-call]  # mkdocs leaves __init_subclass__ untyped
    """An mkdocs plugin that has every page rendered with one shared converter (see the module)."""

    def __init__(self, cache: PageCache | None = None) -> None:
        super().__init__()
        self.converter: markdown.Markdown | None = None
        self.checked: bool | None = None
        self.made = 0  # converters made (one per build unless a page failed)
        self.cache = cache
        self.build_key: str | None = None  # worked out at the first page, once every file is known

    def on_pre_page(self, page: Any, config: Any, files: Any) -> Any:
        if self.checked is None:
            self.checked = applies(config)
        if self.checked:
            page.render = partial(self.render, page)  # this page's own, in place of mkdocs' method
        return page

    def render(self, page: Any, config: Any, files: Any) -> None:
        """What `Page.render` of mkdocs 1.6 does to `page`, on the shared converter."""
        if page.markdown is None:  # mkdocs' own error for a page never read
            pages.Page.render(page, config, files)
            return
        key = None
        if self.cache is not None:
            if self.build_key is None:
                self.build_key = build_key(config, files) or ""
            key = page_key(self.build_key, page) if self.build_key else None
            if key is not None and self._recalled(page, files, key):
                return
        if self.converter is None:
            self.converter = markdown.Markdown(
                extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"] or {}
            )
            self.made += 1
        else:
            self.converter.reset()
        md = self.converter
        raw_html = pages._RawHTMLPreprocessor()
        anchors = pages._ExtractAnchorsTreeprocessor(page.file, files, config)
        links = pages._RelativePathTreeprocessor(page.file, files, config)
        title = pages._ExtractTitleTreeprocessor()
        for processor in (raw_html, anchors, links, title):  # each replaces the last page's, by name
            processor._register(md)
        with heard() as said:
            try:
                page.content = md.convert(page.markdown)
            except BaseException:
                self.converter = None  # stopped half-way: its state is not to be trusted
                raise
        toc_tokens = getattr(md, "toc_tokens", [])
        page.toc = get_toc(toc_tokens)
        page._title_from_render = title.title
        page.present_anchor_ids = anchors.present_anchor_ids | raw_html.present_anchor_ids
        if _log.getEffectiveLevel() > logging.DEBUG:
            page.links_to_anchors = links.links_to_anchors
        if key is not None and self.cache is not None and said.count == 0:  # a page that warned is never kept
            linked = {target.src_uri: dict(named) for target, named in links.links_to_anchors.items()}
            kept = Converted(page.content, toc_tokens, title.title, sorted(page.present_anchor_ids), linked)
            stored = Converted.from_entry(json.loads(json.dumps(kept.entry())))  # as the next build reads it
            if stored is not None:
                self.cache.keep(key, stored)

    def _recalled(self, page: Any, files: Any, key: str) -> bool:
        """Whether `page` was given what an earlier build's conversion of it gave (as `render` sets it)."""
        assert self.cache is not None
        found = self.cache.recall(key)
        if found is None:
            return False
        linked = {}
        for source, named in found.links.items():
            target = files.get_file_from_path(source)
            if target is None:
                return False
            linked[target] = dict(named)
        page.content = found.content
        page.toc = get_toc(found.toc_tokens)
        page._title_from_render = found.title
        page.present_anchor_ids = set(found.anchors)
        if _log.getEffectiveLevel() > logging.DEBUG:
            page.links_to_anchors = linked
        return True


__all__ = ["EXTENSIONS", "MKDOCS_VERSIONS", "OneConverter", "applies"]

"""Search entries of pages indexed by an earlier build, kept so an unchanged page is not read again.

mkdocs-material's search plugin reads every built page with `html.parser` to cut it into the
sections its index lists (`SearchIndex.add_entry_from_context`): on wopgen's long schema pages,
about a tenth of a build. What it gives for one page (a list of entries: location, title, text, and
tags and boost when the page states them) is a pure function of:
- the page's HTML as the plugin reads it, its URL and title;
- the ids and links of its table of contents (a section's location is the entry of the table that
  has its id);
- the page's `search`, `tags` and `title` metadata;
- the code: the source of the plugin's module (read as bytes, so any release that changes it gets
  new keys), Python's, and every file of wopgen (`converted.code_digest`).
`SearchEntries` (an mkdocs plugin added to the loaded configuration, like `OneConverter`) wraps the
index's `add_entry_from_context` and keeps each page's entries in the same `PageCache` as the
converted pages, under a digest of all of the above. This matches the plugin's code from 9.5.30
(the lowest release wopgen allows) to 9.8.1. It stays out of the way when the search plugin is not
mkdocs-material's, is disabled, or segments Chinese text with `jieba` (whose dictionaries are
settings of their own). A page whose indexing logged anything is never kept.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from mkdocs.config.base import LegacyConfig
from mkdocs.plugins import BasePlugin

from wopgen.generate.site.converted import PageCache, Unkeyable, code_digest, heard, plain


@functools.cache
def _code(module_file: str) -> str:
    digest = hashlib.sha256(code_digest().encode())
    digest.update(Path(module_file).read_bytes())
    return digest.hexdigest()


def _toc(items: Any) -> list[Any]:
    return [[item.id, item.url, _toc(item.children)] for item in items]


def entries_key(code: str, page: Any) -> str | None:
    """The digest of what the plugin's entries for `page` depend on; None when a metadata value
    cannot be written as plain data."""
    meta = page.meta
    try:
        stated = plain([meta.get("search"), meta.get("tags"), meta.get("title", page.title)])
    except Unkeyable:
        return None
    digest = hashlib.sha256(code.encode())
    digest.update(json.dumps([page.url, stated, _toc(page.toc)], sort_keys=True).encode() + b"\0")
    digest.update(page.content.encode())
    return digest.hexdigest()


def _search_index(config: Any) -> tuple[Any, str] | None:
    """mkdocs-material's search index of this build and its plugin's source file, when it is the one
    `SearchEntries` knows, enabled and without Chinese segmentation."""
    try:
        from material.plugins.search import plugin as search  # type: ignore[import-untyped]  # no annotations
    except ImportError:
        return None
    if getattr(search, "jieba", None) is not None or not isinstance(search.__file__, str):
        return None
    for instance in config.plugins.values():
        if type(instance) is search.SearchPlugin and instance.config.enabled:
            index = getattr(instance, "search_index", None)  # mkdocs-material's own, not one put in its place
            if type(index) is search.SearchIndex and isinstance(getattr(index, "entries", None), list):
                return index, search.__file__
    return None


class SearchEntries(BasePlugin[LegacyConfig]):  # type: ignore[no-untyped-call]  # mkdocs leaves __init_subclass__ untyped
    """An mkdocs plugin that reuses the search entries of pages indexed before (see the module)."""

    def __init__(self, cache: PageCache) -> None:
        super().__init__()
        self.cache = cache

    def on_pre_build(self, config: Any) -> None:
        found = _search_index(config)
        if found is None:
            return
        index, module_file = found
        code, add = _code(module_file), index.add_entry_from_context

        def add_entry_from_context(page: Any) -> None:
            key = entries_key(code, page)
            recalled = None if key is None else self.cache.recall_entries(key)
            if recalled is not None:
                index.entries.extend(recalled)
                return
            before = len(index.entries)
            with heard() as said:
                add(page)
            if key is None or said.count:  # a page whose indexing logged anything is never kept
                return
            try:
                made = json.loads(json.dumps(index.entries[before:]))  # as the next build reads it
            except (TypeError, ValueError):  # a `boost` or tag of a kind JSON does not have
                return
            if made == index.entries[before:]:
                self.cache.keep_entries(key, made)

        index.add_entry_from_context = add_entry_from_context


__all__ = ["SearchEntries", "entries_key"]

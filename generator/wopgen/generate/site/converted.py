"""Pages converted by an earlier build, kept so an unchanged page is not converted again.

Converting the pages' Markdown to HTML is the largest part of mkdocs' work on wopgen's pages (its
inline patterns over every paragraph, table and list). What a conversion gives (`Converted`: the
HTML, the table of contents, the title, the anchors the page defines and the anchors it links to)
is a pure function of:
- the page's Markdown as mkdocs converts it (after the hooks' `on_page_markdown`), its source path
  and its URL;
- every file of the site (source path, URL, whether it is excluded), which decide where each link
  resolves and whether mkdocs warns about it;
- the configuration that reaches the converter (Markdown extensions and their settings, directory
  URLs, link validation levels), each written out as plain data: a setting that cannot be written
  so (an object of unknown kind) turns the cache off for the build;
- the code: the versions of mkdocs, Python-Markdown, pymdown-extensions, Pygments and Python, and
  every file of wopgen itself (`wopgen.caches.toolchain_fingerprint`, which `wopgen check`'s cache
  is keyed by too).
`PageCache` keys each page by a digest of all of them. A page whose conversion logged anything
(a broken link, an unrecognised one) is never kept, so a strict build fails on it every time; the
anchors a kept page links to are checked by mkdocs again on every build, against the anchors the
pages define now. An entry is plain data, never code; a damaged entry is converted again.

The same file keeps two more things the next build may reuse: each page's search entries (see
`search_entries`) and the pieces of HTML wopgen's rendering made (highlighted code blocks, tables;
see `staged`), the latter only for the same `code_digest`.

The entries live in one file per corpus in the user's cache folder (`folder()`, private like the
compiled templates: the HTML goes into the site as it is, so it must not come from a corpus
someone else wrote). Each build keeps only the pages it built, so the file never grows beyond
one site; a build that writes its file removes the files of corpora not built for `PRUNE_DAYS`
days (a checkout since deleted, a temporary folder), so the folder does not grow with every corpus
ever built; deleting any of them is always safe.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import sys
import time
import types
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT = 2
PRUNE_DAYS = 30  # a corpus's file unused for this long is removed by the next build that writes one


def folder() -> Path:
    """Where `wopgen site build` keeps converted pages (one file per corpus)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("wopgen")) / "site-pages" / sys.implementation.cache_tag


@dataclass
class Converted:
    """What converting one page gave."""

    content: str
    toc_tokens: list[Any]
    title: str | None
    anchors: list[str]
    links: dict[str, dict[str, str]]  # target page's source path -> anchor -> link as written

    def entry(self) -> list[Any]:
        return [self.content, self.toc_tokens, self.title, self.anchors, self.links]

    @classmethod
    def from_entry(cls, entry: Any) -> Converted | None:
        """The conversion `entry()` described; None for anything of another shape."""
        if not isinstance(entry, list) or len(entry) != 5:
            return None
        content, toc, title, anchors, links = entry
        if not (
            isinstance(content, str)
            and isinstance(toc, list)
            and (title is None or isinstance(title, str))
            and isinstance(anchors, list)
            and all(isinstance(a, str) for a in anchors)
            and isinstance(links, dict)
            and all(
                isinstance(target, str)
                and isinstance(named, dict)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in named.items())
                for target, named in links.items()
            )
            and _toc_tokens(toc)
        ):
            return None
        return cls(content, toc, title, anchors, links)


def _toc_tokens(tokens: list[Any]) -> bool:
    """Whether `tokens` is shaped as Python-Markdown's `toc_tokens`."""
    for token in tokens:
        if not (
            isinstance(token, dict)
            and isinstance(token.get("level"), int)
            and isinstance(token.get("id"), str)
            and isinstance(token.get("name"), str)
            and isinstance(token.get("children"), list)
            and _toc_tokens(token["children"])
        ):
            return False
    return True


class Unkeyable(Exception):
    """A setting that cannot be written as plain data."""


def plain(value: Any) -> Any:
    """`value` as JSON-ready data that names it exactly; raises Unkeyable otherwise."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dict) or (hasattr(value, "items") and hasattr(value, "keys")):
        return {str(key): plain(item) for key, item in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, functools.partial):
        return ["partial", plain(value.func), plain(list(value.args)), plain(dict(value.keywords))]
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)) and "<locals>" not in value.__qualname__:
        return ["function", value.__module__, value.__qualname__]
    raise Unkeyable(type(value).__name__)


@functools.cache
def code_digest() -> str:
    """A digest of the code a conversion depends on (see the module)."""
    import markdown  # type: ignore[import-untyped]  # Python-Markdown ships no annotations
    import mkdocs
    import pygments  # type: ignore[import-untyped]
    import pymdownx  # type: ignore[import-untyped]

    from wopgen.caches import toolchain_fingerprint

    versions = [FORMAT, toolchain_fingerprint(), mkdocs.__version__, markdown.__version__, pymdownx.__version__]
    versions += [pygments.__version__, sys.version, sys.implementation.cache_tag]
    return hashlib.sha256(json.dumps(versions).encode()).hexdigest()


def build_key(config: Any, files: Any) -> str | None:
    """The digest of what every page's conversion depends on besides the page itself; None when a
    setting cannot be written out (the cache is then not used)."""
    try:
        settings = plain(
            [
                config["markdown_extensions"],
                config["mdx_configs"],
                config["use_directory_urls"],
                config["validation"],
            ]
        )
    except Unkeyable:
        return None
    digest = hashlib.sha256(code_digest().encode())
    digest.update(json.dumps(settings, sort_keys=True).encode())
    for file in sorted(files, key=lambda f: f.src_uri):
        digest.update(f"{file.src_uri}\0{file.url}\0{file.inclusion.is_excluded()}\n".encode())
    return digest.hexdigest()


def page_key(build: str, page: Any) -> str:
    text = f"{build}\0{page.file.src_uri}\0{page.file.url}\0{page.markdown}"
    return hashlib.sha256(text.encode()).hexdigest()


class PageCache:
    """What one corpus's last build made and the next may reuse: its converted pages, their search
    entries (`search_entries`) and the pieces of HTML its rendering made (`staged`). Read from
    `path` when first asked, written back (what this build used only) when it changed."""

    TABLES = ("pages", "search", "pieces")

    def __init__(self, path: Path) -> None:
        self.path = path
        self._given: dict[str, dict[str, Any]] | None = None
        self._used: dict[str, dict[str, Any]] = {table: {} for table in self.TABLES}
        self._changed = False

    def _table(self, name: str) -> dict[str, Any]:
        if self._given is None:
            self._given = {table: {} for table in self.TABLES}
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError, RecursionError):  # absent, damaged, or nested past what the decoder reads
                return self._given[name]
            if isinstance(data, dict) and data.get("format") == FORMAT:
                for table in self.TABLES:
                    if isinstance(data.get(table), dict):
                        self._given[table] = data[table]
        return self._given[name]

    def _recall(self, table: str, key: str) -> Any:
        found = self._table(table).get(key)
        if found is not None:
            self._used[table][key] = found
        return found

    def _keep(self, table: str, key: str, entry: Any) -> None:
        self._used[table][key] = entry
        self._changed = True

    def recall(self, key: str) -> Converted | None:
        """The conversion kept under `key`, if any (and well formed)."""
        found = Converted.from_entry(self._table("pages").get(key))
        if found is not None:
            self._recall("pages", key)
        return found

    def keep(self, key: str, converted: Converted) -> None:
        self._keep("pages", key, converted.entry())

    def recall_entries(self, key: str) -> list[dict[str, Any]] | None:
        """The search entries kept under `key`, if any (and well formed)."""
        found = self._table("search").get(key)
        if not _search_entries(found):
            return None
        return list(self._recall("search", key))

    def keep_entries(self, key: str, entries: list[dict[str, Any]]) -> None:
        self._keep("search", key, entries)

    def pieces(self) -> dict[str, str]:
        """The pieces of HTML the last rendering made, when it ran the same code (else none)."""
        kept = self._table("pieces")
        html = kept.get("html")
        if kept.get("code") != code_digest() or not isinstance(html, dict):
            return {}
        return {key: piece for key, piece in html.items() if isinstance(piece, str)}

    def keep_pieces(self, pieces: dict[str, str]) -> None:
        """The pieces of HTML this rendering made, kept in place of the last one's."""
        kept = {"code": code_digest(), "html": pieces}
        if kept != self._table("pieces"):
            self._used["pieces"] = kept
            self._changed = True
        else:
            self._used["pieces"] = self._table("pieces")

    def save(self) -> None:
        """Write what this build used (only when it differs from what was read); a folder that cannot
        be written only costs the next build the conversions."""
        if not self._changed and all(self._used[t].keys() == self._table(t).keys() for t in self.TABLES):
            return
        from wopgen.caches import private_folder
        from wopgen.generate.writer import keep_file

        if not private_folder(self.path.parent):
            return
        body = {"format": FORMAT, **self._used}
        keep_file(json.dumps(body, ensure_ascii=False, separators=(",", ":")), self.path)
        _prune(self.path.parent, time.time() - PRUNE_DAYS * 86400)


def _prune(folder: Path, before: float) -> None:
    """Remove the files in `folder` last written before `before` (seconds since the epoch): the
    caches of corpora not built since, and staging files a killed write left."""
    for stale in folder.iterdir():
        with suppress(OSError):  # gone already, or not ours to remove: left as it is
            if stale.is_file() and not stale.is_symlink() and stale.stat().st_mtime < before:
                stale.unlink()


def _search_entries(entries: Any) -> bool:
    """Whether `entries` is shaped as the search plugin's entries for one page: location, title and
    text, and tags (strings) and a boost (a number) when the page states them."""
    return isinstance(entries, list) and all(
        isinstance(entry, dict)
        and all(isinstance(entry.get(name), str) for name in ("location", "title", "text"))
        and set(entry) <= {"location", "title", "text", "tags", "boost"}
        and (not isinstance(entry.get("boost"), bool) and isinstance(entry.get("boost", 0), int | float))
        and (isinstance(entry.get("tags", []), list) and all(isinstance(tag, str) for tag in entry.get("tags", [])))
        for entry in entries
    )


class _Heard(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@contextmanager
def heard() -> Iterator[_Heard]:
    """Counts every log record emitted in the block (mkdocs' loggers and any other)."""
    handler = _Heard()
    loggers = [logging.getLogger(), logging.getLogger("mkdocs")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def corpus_file(root: Path) -> str:
    """The name of a corpus's file in `folder()`: a digest of the root's path as the file system spells it
    (which need not be UTF-8)."""
    return hashlib.sha256(os.fsencode(root.resolve())).hexdigest()[:32] + ".json"


__all__ = [
    "Converted",
    "PageCache",
    "Unkeyable",
    "build_key",
    "code_digest",
    "corpus_file",
    "folder",
    "heard",
    "page_key",
    "plain",
]

"""The findings of the slow checks, kept on disk and reused while nothing they read has changed.

Two checks cost most of `wopgen check` on a small corpus: rendering and validating the API
documents, and running the conformance suite against a freshly generated host. Their findings are
a pure function of the corpus and of the toolchain itself, so they are stored under a key that
hashes both: the settings, the names of the listed files and the bytes of every file the loader
read, and every file of the installed `wopgen` packages (code and templates). A change to any
of them is a new key and a fresh run.

Beside them, one file keeps what the Markdown reader found in each page (`MarkdownMemo`), by the
page's path and the digest of its bytes, for this toolchain only: the next check parses the pages
that changed and recalls the others. The folder (`build/.cache/check` under the corpus root by
default) holds nothing else and is safe to delete; `wopgen check --no-cache` neither reads nor
writes it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from functools import cached_property
from pathlib import Path
from typing import Any

from wopgen.caches import toolchain_fingerprint
from wopgen.corpus import Corpus
from wopgen.corpus.markdown_memo import MarkdownMemo
from wopgen.diagnostics import Diagnostic, Severity

FORMAT = 1  # bump when the stored shape changes


def corpus_key(corpus: Corpus) -> str:
    """A hash of all the checks see of the corpus, and of the toolchain: the settings file, the name
    of every file and folder the loader listed, and the bytes of every file it read (each hashed as it
    was read, the settings file included, so nothing is read twice and the key is of the very bytes
    the checks were given)."""
    digest = hashlib.sha256(toolchain_fingerprint().encode())
    digest.update(b"settings\0" + corpus.settings.source_digest.encode() + b"\0")
    for kind, names in ((b"file", corpus.files), (b"folder", corpus.folders)):
        for relative in sorted(names):
            digest.update(kind + b"\0" + _name(relative) + b"\0")
    for relative, hashed in sorted(corpus.sources.items()):
        digest.update(b"read\0" + _name(relative) + b"\0" + hashed.encode() + b"\0")
    return digest.hexdigest()


def _name(relative: str) -> bytes:
    """A path as the disk holds it: a name that is not UTF-8 (read with its bytes kept as surrogates)
    is hashed as those bytes, instead of failing the check."""
    return relative.encode("utf-8", "surrogateescape")


class CheckCache:
    """Findings of named checks stored as JSON under `folder`, one file per check and key. The key
    may be given as a function: it is then computed only when a cached check runs."""

    def __init__(self, folder: Path, key: str | Callable[[], str]) -> None:
        self.folder = folder
        self._key = key

    @cached_property
    def key(self) -> str:
        return self._key if isinstance(self._key, str) else self._key()

    def findings(self, name: str, compute: Callable[[], Iterable[Diagnostic]]) -> list[Diagnostic]:
        stored = self._read(name)
        if stored is not None:
            return stored
        found = list(compute())
        _store(self.folder, name, self.key, {"findings": [d.to_dict() for d in found]})
        return found

    def _read(self, name: str) -> list[Diagnostic] | None:
        data = _recall(self.folder, name, self.key)
        try:
            return (
                None
                if data is None
                else [
                    Diagnostic(
                        rule=str(d["rule"]),
                        severity=Severity(d["severity"]),
                        path=str(d["path"]),
                        line=int(d["line"]),
                        col=int(d["col"]),
                        message=str(d["message"]),
                        hint=str(d["hint"]),
                    )
                    for d in data["findings"]
                ]
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            return None  # damaged: compute again


def _entry(folder: Path, name: str, key: str) -> Path:
    return folder / f"{name}-{key[:32]}.json"


def _recall(folder: Path, name: str, key: str) -> dict[str, Any] | None:
    """The entry `name` stored under `key`; None when absent, stale or not ours."""
    try:
        data = json.loads(_entry(folder, name, key).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # absent, damaged, or nested past what the decoder reads
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    return data


def _store(folder: Path, name: str, key: str, body: dict[str, Any]) -> None:
    """Store `body` as the one entry `name` (older keys of it go: the cache does not grow), written
    whole or not at all; a folder that cannot be written leaves the next run to compute again, never
    fails this one."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for entry in os.listdir(folder):
            if entry.startswith(f"{name}-") and entry.endswith(".json"):
                (folder / entry).unlink(missing_ok=True)
    except OSError:
        return
    payload = {"format": FORMAT, "key": key, **body}
    from wopgen.generate.writer import keep_file  # the one writer, imported only when a cache is written

    keep_file(json.dumps(payload, sort_keys=True, separators=(",", ":")), _entry(folder, name, key))


def read_memo(folder: Path) -> MarkdownMemo:
    """The Markdown pages the last check parsed with this toolchain (none when absent or damaged)."""
    data = _recall(folder, "markdown", toolchain_fingerprint())
    return MarkdownMemo(data.get("pages") if data is not None else None)


def keep_memo(folder: Path, memo: MarkdownMemo, corpus: Corpus) -> None:
    """Store the parsed pages for the next check, if they changed."""
    pages = memo.kept(corpus.sources)
    if pages is not None:
        _store(folder, "markdown", toolchain_fingerprint(), {"pages": pages})

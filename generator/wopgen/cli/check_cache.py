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
from functools import cache, cached_property
from importlib import resources
from pathlib import Path

from wopgen import __version__
from wopgen.corpus import Corpus
from wopgen.corpus.markdown_memo import MarkdownMemo
from wopgen.diagnostics import Diagnostic, Severity

FORMAT = 1  # bump when the stored shape changes
_PACKAGES = ("wopgen", "wopgen_templates", "wopgen_site")


@cache
def toolchain_fingerprint() -> str:
    """A hash of every file of the installed toolchain packages (an edit to a template or a check
    invalidates the cache, installed or editable)."""
    digest = hashlib.sha256(f"{__version__}\0{FORMAT}".encode())
    for package in _PACKAGES:
        try:
            root = resources.files(package)
        except ModuleNotFoundError:
            continue
        for path in sorted(_walk(Path(str(root)))):
            if path.suffix in {".pyc"} or "__pycache__" in path.parts:
                continue
            digest.update(path.as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _walk(root: Path) -> Iterable[Path]:
    for folder, _dirs, files in os.walk(root):
        for name in files:
            yield Path(folder) / name


def corpus_key(corpus: Corpus) -> str:
    """A hash of all the checks see of the corpus, and of the toolchain: the settings file, the name
    of every file and folder the loader listed, and the bytes of every file it read (hashed as they
    were read, so nothing is read twice and the key is of the very bytes the checks were given)."""
    digest = hashlib.sha256(toolchain_fingerprint().encode())
    source = corpus.settings.source
    try:
        settings = source.read_bytes() if source is not None else b""
    except OSError:
        settings = b"\0unreadable"
    digest.update(b"settings\0" + settings + b"\0")
    for kind, names in ((b"file", corpus.files), (b"folder", corpus.folders)):
        for relative in sorted(names):
            digest.update(kind + b"\0" + relative.encode() + b"\0")
    for relative, hashed in sorted(corpus.sources.items()):
        digest.update(b"read\0" + relative.encode() + b"\0" + hashed.encode() + b"\0")
    return digest.hexdigest()


class CheckCache:
    """Findings of named checks stored as JSON under `folder`, one file per check and key. The key
    may be given as a function: it is then computed only when a cached check runs."""

    def __init__(self, folder: Path, key: str | Callable[[], str]) -> None:
        self.folder = folder
        self._key = key

    @cached_property
    def key(self) -> str:
        return self._key if isinstance(self._key, str) else self._key()

    def _file(self, name: str) -> Path:
        return self.folder / f"{name}-{self.key[:32]}.json"

    def findings(self, name: str, compute: Callable[[], Iterable[Diagnostic]]) -> list[Diagnostic]:
        stored = self._read(self._file(name))
        if stored is not None:
            return stored
        found = list(compute())
        self._write(name, found)
        return found

    def _read(self, path: Path) -> list[Diagnostic] | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT or data.get("key") != self.key:
                return None
            return [
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
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None  # absent, stale or damaged: compute again

    def _write(self, name: str, found: list[Diagnostic]) -> None:
        """Store the findings; a folder that cannot be written leaves the check uncached, never failed."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            for entry in os.listdir(self.folder):  # one entry per check: the cache does not grow
                if entry.startswith(f"{name}-") and entry.endswith(".json"):
                    (self.folder / entry).unlink(missing_ok=True)
            target = self._file(name)
            staging = target.with_suffix(f".tmp{os.getpid()}")
            payload = {"format": FORMAT, "key": self.key, "findings": [d.to_dict() for d in found]}
            staging.write_text(json.dumps(payload, sort_keys=True), encoding="utf-8")
            staging.replace(target)
        except OSError:
            return


def _memo_file(folder: Path) -> Path:
    return folder / f"markdown-{toolchain_fingerprint()[:32]}.json"


def read_memo(folder: Path) -> MarkdownMemo:
    """The Markdown pages the last check parsed with this toolchain (none when absent or damaged)."""
    try:
        data = json.loads(_memo_file(folder).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("toolchain") != toolchain_fingerprint():
            return MarkdownMemo()
        return MarkdownMemo(data.get("pages"))
    except (OSError, ValueError, AttributeError):
        return MarkdownMemo()


def keep_memo(folder: Path, memo: MarkdownMemo, corpus: Corpus) -> None:
    """Store the parsed pages for the next check, if they changed; like findings, a folder that
    cannot be written leaves the next check to parse again, never fails this one."""
    pages = memo.kept(corpus.sources)
    if pages is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for entry in os.listdir(folder):  # one memo: the one of an older toolchain goes
            if entry.startswith("markdown-") and entry.endswith(".json"):
                (folder / entry).unlink(missing_ok=True)
        target = _memo_file(folder)
        staging = target.with_suffix(f".tmp{os.getpid()}")
        payload = {"format": FORMAT, "toolchain": toolchain_fingerprint(), "pages": pages}
        staging.write_text(json.dumps(payload, separators=(",", ":")), encoding="utf-8")
        staging.replace(target)
    except OSError:
        return

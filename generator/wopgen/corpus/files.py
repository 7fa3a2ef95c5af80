"""One walk of the disk: every file and folder of the repository, listed once, and globs answered from
that list."""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from wopgen.corpus_rules import MAX_LISTED

# Folders the file list leaves out: version control, caches, virtual environments, generated output.
IGNORED_FOLDERS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        "node_modules",
        "build",
        "dist",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".hypothesis",
        ".tox",
        ".nox",
    }
)


def inside(relative: str) -> bool:
    """Whether a relative path stays below the root when read as written (no `..` out, not absolute)."""
    if not relative or relative.startswith("/"):
        return False
    normal = posixpath.normpath(relative)
    return normal != ".." and not normal.startswith("../")


def decodable(relative: str) -> bool:
    """Whether a name read from the disk is UTF-8 there: the bytes of any other name reach Python as
    lone surrogates, which no text of the corpus can name and no file or report can hold."""
    try:
        relative.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown(relative: str) -> str:
    """A name read from the disk as it can be printed: a byte that is not UTF-8 is written `\\xff`."""
    return relative.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def glob_paths(paths: frozenset[str], pattern: str) -> list[str]:
    """The paths matching a glob (`*`, `?`, `[...]` within a segment, `**` across them)."""
    if ".." in pattern.split("/") or not inside(pattern):
        return []
    matcher = _glob_regex(posixpath.normpath(pattern))
    return sorted(p for p in paths if matcher.fullmatch(p))


def matched_or_below(relative: str, patterns: tuple[str, ...]) -> bool:
    """Whether `relative`, or a folder above it, matches one of the globs (relative to the root): a
    pattern naming a folder covers everything below it."""
    if not patterns:
        return False
    matchers = [_glob_regex(posixpath.normpath(p)) for p in patterns]
    parts = relative.split("/")
    for end in range(len(parts), 0, -1):
        prefix = "/".join(parts[:end])
        if any(m.fullmatch(prefix) for m in matchers):
            return True
    return False


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """The regular expression of a pathlib-style glob over POSIX paths: `*`, `?` and `[...]` stay
    within one segment, a `**` segment spans any number of them."""
    out: list[str] = []
    parts = pattern.split("/")
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
            continue
        out.append(_segment_regex(part))
        if not last:
            out.append("/")
    return re.compile("".join(out))


def _segment_regex(part: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(part):
        char = part[i]
        close = part.find("]", i + 2) if char == "[" else -1
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif close != -1:
            inner = part[i + 1 : close].replace("\\", "\\\\")
            out.append("[^/" + inner[1:] + "]" if inner.startswith("!") else "[" + inner + "]")
            i = close
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class Listing:
    """The one walk of the disk: files, folders, links that lead out of the root, files whose path
    is not UTF-8, and whether the walk stopped at MAX_LISTED entries."""

    files: frozenset[str]
    folders: frozenset[str]
    escaping: frozenset[str]  # links whose target is outside the root: not files of the corpus
    undecodable: frozenset[str]  # not files of the corpus either: no text can name them
    truncated: bool
    linked: frozenset[str] = frozenset()  # links to folders (inside the root or not): never entered

    def under(self, folder: str, pattern: str) -> list[str]:
        """Files (and escaping links and undecodable names, which the loader reports) below `folder`
        matching `pattern`."""
        return glob_paths(self.files | self.escaping | self.undecodable, _below(folder, pattern))

    def folders_under(self, folder: str, pattern: str) -> list[str]:
        """Folders below `folder` matching `pattern`: named like the files a part reads, yet no file."""
        return glob_paths(self.folders, _below(folder, pattern))


def _below(folder: str, pattern: str) -> str:
    normal = posixpath.normpath(folder)
    return pattern if normal == "." else f"{normal}/{pattern}"


def ignored(name: str) -> bool:
    """Whether a folder named `name` is never entered (build output, tool caches, packaging metadata)."""
    return name in IGNORED_FOLDERS or name.endswith(".egg-info")


def holds_file(folder: Path, suffix: str, limit: int = 10_000) -> bool:
    """Whether `folder` holds, at any depth, a file whose name ends with `suffix`, looking at no more
    than `limit` entries and entering neither links nor ignored folders."""
    seen = 0
    for _here, folders, names in os.walk(folder):
        folders[:] = [f for f in folders if not ignored(f)]
        seen += len(folders) + len(names)
        if any(name.endswith(suffix) for name in names):
            return True
        if seen > limit:
            return True  # too large to tell: say so rather than stay silent
    return False


def _leads_to_folder(link: os.DirEntry[str]) -> bool:
    """Whether the link `link` leads to a folder (False for a dangling link or a loop, which raises)."""
    try:
        return link.is_dir()
    except OSError:
        return False


def listing(root: Path) -> Listing:
    """Every file and folder below `root`, skipping ignored folders; links that leave the root and
    files whose path is not UTF-8 are kept apart, so the loader can say so when a part of the corpus
    holds one.

    Links to folders are listed (in `linked` too) but not entered, so a link loop cannot trap the
    walk. A folder whose name is not UTF-8 is entered, but only its files are listed (as undecodable).
    """
    files: set[str] = set()
    folders: set[str] = set()
    escaping: set[str] = set()
    undecodable: set[str] = set()
    linked: set[str] = set()
    stack = [""]
    top = os.fspath(root)
    while stack:
        here = stack.pop()
        try:
            entries = sorted(os.scandir(os.path.join(top, here) if here else top), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            relative = f"{here}/{entry.name}" if here else entry.name
            named = decodable(relative)
            if entry.is_symlink() and named:
                if _leads_to_folder(entry) and not ignored(entry.name):
                    linked.add(relative)
                try:
                    target = Path(entry.path).resolve()
                    target.relative_to(root)
                except (ValueError, OSError, RuntimeError):
                    escaping.add(relative)  # leaves the root: not part of the listing
                    continue
                (folders if target.is_dir() else files).add(relative)
            elif entry.is_dir(follow_symlinks=False):
                if ignored(entry.name):
                    continue
                if named:
                    folders.add(relative)
                stack.append(relative)
            else:
                (files if named else undecodable).add(relative)
            if len(files) + len(folders) + len(undecodable) >= MAX_LISTED:
                return Listing(
                    frozenset(files),
                    frozenset(folders),
                    frozenset(escaping),
                    frozenset(undecodable),
                    True,
                    frozenset(linked),
                )
    return Listing(
        frozenset(files), frozenset(folders), frozenset(escaping), frozenset(undecodable), False, frozenset(linked)
    )

"""What wopgen's caches share: the fingerprint of the installed toolchain, which every cached result
is keyed by, writing a cache file whole or not at all, and the private folder a cache of code or
HTML must live in."""

from __future__ import annotations

import hashlib
import os
import stat
from contextlib import suppress
from functools import cache
from importlib import resources
from pathlib import Path

from wopgen import __version__

_PACKAGES = ("wopgen", "wopgen_templates", "wopgen_site")


@cache
def toolchain_fingerprint() -> str:
    """A hash of every file of the installed toolchain packages (an edit to a template, a check or a
    generator invalidates every cache keyed by it, installed or editable)."""
    digest = hashlib.sha256(__version__.encode())
    for package in _PACKAGES:
        try:
            root = resources.files(package)
        except ModuleNotFoundError:
            continue
        found = (Path(folder) / name for folder, _dirs, files in os.walk(Path(str(root))) for name in files)
        for path in sorted(found):
            if path.suffix == ".pyc" or "__pycache__" in path.parts:
                continue
            digest.update(os.fsencode(path) + b"\0")  # any name the disk holds, UTF-8 or not
            digest.update(path.read_bytes())
    return digest.hexdigest()


def write_whole(target: Path, text: str) -> None:
    """Write `text` to `target` with the writer's `write_file`, so a reader finds the old file or the new
    one, never part of one. A folder that cannot be written leaves the old file (the next run computes
    again) and never fails the run."""
    from wopgen.generate.writer import WriteError, write_file

    with suppress(WriteError):
        write_file(text, target)


def private_folder(path: Path) -> bool:
    """Make `path` (and its parents) when missing, the last one readable and writable by this user
    only; whether it is a folder this user owns that nobody else can write to."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        found = os.lstat(path)
    except OSError:
        return False
    own = not hasattr(os, "getuid") or found.st_uid == os.getuid()
    return stat.S_ISDIR(found.st_mode) and own and not found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)

"""What wopgen's caches share: the fingerprint of the installed toolchain, which every cached result
is keyed by, and the private folder a cache of code or HTML must live in. (A cache file is written
whole or not at all by the writer's `keep_file`.)"""

from __future__ import annotations

import hashlib
import os
import stat
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

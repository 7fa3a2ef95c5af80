"""What the site build tests share: a built folder read whole, and a build with or without the page cache."""

from __future__ import annotations

from pathlib import Path

from wopgen.catalogue import catalogue
from wopgen.corpus import load
from wopgen.generate.site.build import build


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by its path relative to it, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def built_site(root: Path, out: Path, page_cache: Path | None) -> dict[str, bytes]:
    """The site of the corpus at `root`, built into `out` with the page cache in `page_cache` (None: none)."""
    build(load(root), out, rules=catalogue(), page_cache=page_cache)
    return snapshot(out)

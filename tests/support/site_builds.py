"""What the site build tests share: a built folder read whole, a build with or without the page cache,
and a page cache file edited in place."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def edit_kept(cache: Path, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """Apply `change` to the one page cache file in `cache` (its JSON, as a dict) and write it back."""
    (kept,) = cache.glob("*.json")
    data: dict[str, Any] = json.loads(kept.read_text(encoding="utf-8"))
    change(data)
    kept.write_text(json.dumps(data), encoding="utf-8")
    return data

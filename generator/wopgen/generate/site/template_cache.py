"""The site's Jinja templates (the theme's and wopgen's own), compiled once and kept between builds.

mkdocs compiles mkdocs-material's Jinja templates from their source on every build (about a third
of a second of CPU for a small site), and wopgen its own page templates. `TemplateCache` keeps the
compiled code of both in a folder of the user's cache (`folder()`), one file per template:
- an entry is used only for the very template source it was compiled from (Jinja stores a digest
  of the source with the code and compiles again when they differ), so an edited or upgraded theme
  is never served stale code;
- the folder is named after the versions of Jinja, mkdocs, mkdocs-material and Python, so code
  compiled by another version of any of them is never read;
- the folder is the user's own (made private, used only when nobody else can write to it), never
  the corpus's: the entries are executable code, and a corpus is often someone else's checkout;
- a damaged entry is compiled again, a folder that cannot be written is only not reused: the cache
  never fails a build, and deleting it is always safe.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from jinja2 import Environment
from jinja2.bccache import Bucket, FileSystemBytecodeCache

from wopgen.caches import private_folder


def folder() -> Path:
    """Where `wopgen site build` keeps the compiled templates of this toolchain."""
    import jinja2
    import material  # type: ignore[import-untyped]  # the theme ships no annotations
    import mkdocs
    import platformdirs

    versions = f"jinja2-{jinja2.__version__}-mkdocs-{mkdocs.__version__}-material-{material.__version__}"
    return Path(platformdirs.user_cache_dir("wopgen")) / "site-templates" / f"{versions}-{sys.implementation.cache_tag}"


class TemplateCache(FileSystemBytecodeCache):
    """Jinja's file-system bytecode cache that never fails a build: a damaged entry is compiled again,
    an entry that cannot be written is left out."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # a damaged or truncated entry (pickle and marshal raise many kinds)
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):  # a full disk, a read-only folder: the next build compiles again
            super().dump_bytecode(bucket)


def attach(env: Environment, path: Path | None) -> Environment:
    """`env` with its compiled templates kept in `path` (None, or a folder that is not private: as it
    was)."""
    if path is not None and private_folder(path):
        env.bytecode_cache = TemplateCache(str(path))
    return env


@contextmanager
def kept(env: Environment, path: Path | None) -> Iterator[None]:
    """`env`'s compiled templates kept in `path` during the block (as `attach`), its own cache again
    afterwards: the environment is shared by the whole process."""
    saved = env.bytecode_cache
    attach(env, path)
    try:
        yield
    finally:
        env.bytecode_cache = saved


__all__ = ["TemplateCache", "attach", "folder", "kept"]

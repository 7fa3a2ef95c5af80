"""Where a side of the comparison comes from: a corpus folder, or a git ref read with git itself.

A git ref is exported with `git archive REF` into a private temporary folder, so the work tree is
never checked out or touched; both sides then go through the same `corpus.load`. A ref whose tree
has no `[tool.wopgen]` (older history) is read with the head's settings.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from wopgen.corpus import Corpus, load
from wopgen.corpus.settings import Settings, SettingsError, load_settings


class SourceError(Exception):
    """A side cannot be read (not a folder, not a ref, git missing); a usage error."""


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except OSError as exc:
        raise SourceError(f"cannot run git to read a ref: {exc.strerror or exc}") from None


def is_git_ref(root: Path, ref: str) -> bool:
    """Whether the git history around `root` has `ref` (a branch, tag or commit)."""
    if ref.startswith("-"):
        return False
    try:
        result = _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except SourceError:
        return False
    return result.returncode == 0


def _export(root: Path, ref: str, into: Path) -> Path:
    """Write the tree of `ref` for the folder `root` into `into`; return the corpus root there."""
    if not is_git_ref(root, ref):
        inside = _git(root, "rev-parse", "--is-inside-work-tree")
        if inside.returncode != 0:
            raise SourceError(f"{ref!r} is not a folder, and {root} is not inside a git repository")
        raise SourceError(f"{ref!r} is neither a folder nor a git ref (branch, tag or commit) of this repository")
    prefix = _git(root, "rev-parse", "--show-prefix").stdout.decode().strip()
    top = Path(_git(root, "rev-parse", "--show-toplevel").stdout.decode().strip() or root)
    tree = f"{ref}^{{commit}}:{prefix}" if prefix else f"{ref}^{{commit}}"  # the corpus folder's own tree
    result = _git(top, "archive", "--format=tar", tree)
    if result.returncode != 0:
        message = result.stderr.decode(errors="replace").strip()
        raise SourceError(f"git archive {ref} failed: {message}")
    with tarfile.open(fileobj=io.BytesIO(result.stdout)) as archive:
        archive.extractall(into, filter="data")
    return into


def _settings_for(corpus_root: Path, fallback: Settings, spec: str) -> Settings:
    """The side's own `[tool.wopgen]`, or the head's layout when it has none it can read.

    A side with neither its own settings nor the configured schemas folder is no corpus at all (a
    mistyped folder, a ref from before the corpus existed): comparing against it would call every
    schema an addition, so it is a usage error instead.
    """
    try:
        return load_settings(corpus_root)
    except SettingsError:
        settings = replace(fallback, root=corpus_root.resolve())
    if not (corpus_root / settings.schemas).is_dir():
        raise SourceError(
            f"{spec!r} holds no corpus: no pyproject.toml with a [tool.wopgen] table and no {settings.schemas}/ folder"
        )
    return settings


@contextmanager
def open_corpus(spec: str, root: Path, settings: Settings) -> Iterator[tuple[Corpus, str]]:
    """The corpus named by `spec` (a folder, else a git ref of the repository at `root`) and a label.

    The corpus stays valid inside the `with` block; a temporary export is removed after it.
    """
    folder = Path(spec) if Path(spec).is_absolute() else Path.cwd() / spec
    if folder.is_dir():
        yield load(folder.resolve(), _settings_for(folder, settings, spec)), spec
        return
    with tempfile.TemporaryDirectory(prefix="wopgen-compat-") as tmp:
        corpus_root = _export(root, spec, Path(tmp))
        yield load(corpus_root.resolve(), _settings_for(corpus_root, settings, spec)), spec


def baseline_available(root: Path, baseline: str) -> bool:
    """Whether a configured baseline can be read: an existing folder or a ref git history has."""
    folder = Path(baseline) if Path(baseline).is_absolute() else root / baseline
    return folder.is_dir() or is_git_ref(root, baseline)

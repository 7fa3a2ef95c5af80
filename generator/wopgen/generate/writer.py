"""The one writer: put a generated tree on disk atomically, or compare it with what is there.

A generator returns `{relative path: text or bytes}`. `write_tree` renders into a temporary
sibling folder and swaps it into place, so a failed or interrupted run never leaves a half-written
output folder. `drift` compares instead of writing, for `--check`.
"""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

Tree = Mapping[str, str | bytes]


class WriteError(Exception):
    """The tree could not be written (bad path, permissions); nothing was changed."""


def _safe(relative: str) -> PurePosixPath:
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise WriteError(f"refusing to write {relative!r}: generated paths must stay inside the output folder")
    return path


def _as_bytes(content: str | bytes) -> bytes:
    return content if isinstance(content, bytes) else content.encode("utf-8")


def write_tree(files: Tree, out: Path) -> None:
    """Replace the folder `out` with exactly `files`, atomically."""
    out = out.resolve()
    for relative in files:
        _safe(relative)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    except OSError as exc:
        raise WriteError(f"cannot create {out.parent}: {exc.strerror or exc}") from None
    try:
        for relative, content in sorted(files.items()):
            target = staging / _safe(relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_as_bytes(content))
        old = None
        if out.exists():
            old = out.with_name(f".{out.name}.old.{os.getpid()}")
            out.rename(old)
        staging.rename(out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise WriteError(f"cannot write {out}: {exc.strerror or exc}") from None


@dataclass(frozen=True)
class Drift:
    missing: list[str]  # generated but not on disk
    extra: list[str]  # on disk but no longer generated
    changed: dict[str, str]  # path -> unified diff (text) or a one-line note (binary)

    @property
    def clean(self) -> bool:
        return not (self.missing or self.extra or self.changed)

    def report(self) -> str:
        lines = [f"missing: {p}" for p in self.missing]
        lines += [f"stale (no longer generated): {p}" for p in self.extra]
        for path, diff in sorted(self.changed.items()):
            lines.append(f"changed: {path}")
            lines.append(diff.rstrip("\n"))
        return "\n".join(lines) + ("\n" if lines else "")


def drift(files: Tree, out: Path) -> Drift:
    """How `out` differs from `files` (nothing is written)."""
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} if out.is_dir() else set()
    missing = sorted(set(files) - on_disk)
    extra = sorted(on_disk - set(files))
    changed: dict[str, str] = {}
    for relative in sorted(set(files) & on_disk):
        want = _as_bytes(files[relative])
        have = (out / relative).read_bytes()
        if want == have:
            continue
        try:
            diff = difflib.unified_diff(
                have.decode("utf-8").splitlines(keepends=True),
                want.decode("utf-8").splitlines(keepends=True),
                fromfile=f"{relative} (on disk)",
                tofile=f"{relative} (generated)",
            )
            changed[relative] = "".join(diff)
        except UnicodeDecodeError:
            changed[relative] = f"binary content differs ({len(have)} -> {len(want)} bytes)"
    return Drift(missing, extra, changed)


def sync_tree(files: Tree, out: Path) -> list[str]:
    """Make the folder `out` hold exactly `files`, touching only what differs (for live preview).

    Unlike `write_tree`, the folder itself is kept, so a file watcher on it keeps working. Returns
    the relative paths written or removed.
    """
    for relative in files:
        _safe(relative)
    report = drift(files, out)
    touched = sorted([*report.missing, *report.changed, *report.extra])
    try:
        for relative in [*report.missing, *report.changed]:
            target = out / _safe(relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_as_bytes(files[relative]))
        for relative in report.extra:
            (out / relative).unlink()
    except OSError as exc:
        raise WriteError(f"cannot update {out}: {exc.strerror or exc}") from None
    return touched

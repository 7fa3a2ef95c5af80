"""The one writer: put a generated tree on disk atomically, or compare it with what is there.

A generator returns `{relative path: text or bytes}`. `write_tree` builds the new folder in a
staging folder beside the target and swaps it into place, so a failed or interrupted run never
leaves a half-written output folder. `drift` compares instead of writing, for `--check`.

The writer only ever replaces what it wrote itself: every output folder carries a manifest
(`.wopgen-output`, one `sha256  path` line per generated file, and the command that wrote them). On
regeneration the files the old manifest lists are dropped and every other file in the folder (a
`CNAME`, hand-written notes) is carried over untouched. A folder that holds files but no manifest is
refused unless the caller passes `force`, and so is a folder another command wrote (its manifest
does not list what this one would write, so regenerating there would drop the other's files); folders
that hold the corpus or a `.git`, or lie in a folder of the corpus, are refused always, and so is a
folder where a file the manifest does not list has the path of a generated one (`force` or not:
writing would overwrite it).

`create_tree` starts files people will edit from then on (`wopgen init`): it only adds files that
do not exist yet, keeps no manifest (none of it is the writer's to replace later) and leaves
nothing behind when it fails.

`write_file` puts a single file (a report) in place atomically, and `keep_file` a cache file, whose
failure never fails the run; `file_refusal` says why a path must not be one, because it is a corpus
file or lies in a corpus folder.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import difflib
import errno
import hashlib
import os
import re
import shutil
import stat
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from wopgen.corpus.files import ignored

Tree = Mapping[str, str | bytes]

MANIFEST = ".wopgen-output"
_MANIFEST_HEADER = "# files written by wopgen (sha256  path); wopgen replaces only these\n"
_WRITTEN_BY = "# written by: wopgen "  # then the command, on a line of its own
_OLD = ".wopgen-old"
_SCRATCH = ".wopgen-staging"
_STAGING_INSIDE = re.compile(re.escape(_SCRATCH) + r"\.(\d+)\.[0-9a-f]{8}")  # create_tree's, by process id


class WriteError(Exception):
    """The tree could not be written (bad path, permissions, a folder wopgen must not replace);
    nothing was changed."""


def _safe(relative: str) -> PurePosixPath:
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts or relative == MANIFEST:
        raise WriteError(f"refusing to write {relative!r}: generated paths must stay inside the output folder")
    return path


def _as_bytes(content: str | bytes) -> bytes:
    return content if isinstance(content, bytes) else content.encode("utf-8")


def manifest_text(digests: dict[str, str], command: str = "") -> str:
    """The manifest of the files whose sha256 hex digests `digests` holds, by relative path, written by
    the wopgen `command` (`models`, `site build`; none for a staging folder)."""
    written_by = f"{_WRITTEN_BY}{command}\n" if command else ""
    return _MANIFEST_HEADER + written_by + "".join(f"{digests[p]}  {p}\n" for p in sorted(digests))


def manifest_command(folder: Path) -> str:
    """The wopgen command the manifest of `folder` says wrote it ("" when it names none: a manifest of
    an earlier release, or no manifest)."""
    try:
        with (folder / MANIFEST).open(encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if not line.startswith("#"):
                    break
                if line.startswith(_WRITTEN_BY):
                    return line[len(_WRITTEN_BY) :].strip()
    except OSError:
        return ""
    return ""


def read_manifest(folder: Path) -> set[str] | None:
    """The relative paths the folder's manifest lists (None when there is no manifest).

    Entries that would leave the folder are ignored: a manifest never lets the writer remove
    anything outside the folder it sits in."""
    try:
        text = (folder / MANIFEST).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise WriteError(f"cannot read {folder / MANIFEST}: {exc.strerror or exc}") from None
    listed: set[str] = set()
    for line in text.splitlines():
        if line.startswith("#") or "  " not in line:
            continue
        relative = line.split("  ", 1)[1]
        path = PurePosixPath(relative)
        if relative and not path.is_absolute() and ".." not in path.parts and relative != MANIFEST:
            listed.add(path.as_posix())
    return listed


def _sidecar(out: Path, kind: str) -> Path:
    return out.with_name(f".{out.name}{kind}.{os.getpid()}.{uuid.uuid4().hex[:8]}")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def clean_leftovers(out: Path) -> None:
    """Remove the staging and old folders an earlier, interrupted run left beside `out`.

    If a run was stopped between its two renames (where the platform cannot swap atomically), the
    previous output is still in its `old` folder: it is put back first, so the target is never lost.
    """
    try:
        siblings = list(out.parent.iterdir())
    except OSError:
        return
    for kind in (_OLD, _SCRATCH):
        prefix = f".{out.name}{kind}."
        for path in sorted(siblings):
            if not path.name.startswith(prefix):
                continue
            pid = path.name[len(prefix) :].split(".", 1)[0]
            if pid.isdigit() and int(pid) != os.getpid() and _pid_alive(int(pid)):
                continue  # another run is still at work
            if kind == _OLD and not out.exists() and not out.is_symlink():
                try:
                    path.rename(out)
                    continue
                except OSError:
                    pass
            shutil.rmtree(path, ignore_errors=True)


def _holds(folder: Path, path: Path) -> bool:
    return folder == path or folder in path.parents


def refusal(out: Path, protected: Iterable[Path] = ()) -> str | None:
    """Why `out` must never be replaced, or None. `protected` are the corpus root and its parts.

    An output may hold none of them. It may lie below the root (`build/` is the default), but below
    no part: the next run would read the generated files as corpus files (a models package in the
    examples folder is a misplaced example, a site under a recursive schemas folder a second copy of
    every schema). The root is the protected path that holds all the others."""
    if out.parent == out:
        return f"refusing to write into {out}: it is the root of the file system"
    if (out / ".git").exists() or any(part == ".git" for part in out.parts):
        return f"refusing to write into {out}: it holds a git repository (.git)"
    kept = list(protected)
    for path in kept:
        if _holds(out, path):
            return f"refusing to write into {out}: it holds corpus files ({path})"
    for path in sorted(kept, key=lambda p: len(p.parts), reverse=True):  # the innermost folder first
        if _holds(path, out) and not all(_holds(path, other) for other in kept):
            if any(ignored(part) for part in out.relative_to(path).parts):
                break  # below a folder the corpus walk never enters (build/, node_modules/...)
            return f"refusing to write into {out}: it lies in a folder of the corpus ({path})"
    return None


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


_RENAME_EXCHANGE = 2
_libc: ctypes.CDLL | None = None


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2 RENAME_EXCHANGE); False where unsupported."""
    global _libc
    try:
        if _libc is None:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = _libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    return bool(result == 0)


def _swap(staging: Path, out: Path) -> None:
    """Put `staging` in the place of `out`; the target is never missing where the platform can swap."""
    if not out.exists():
        staging.rename(out)
        return
    if _exchange(staging, out):
        shutil.rmtree(staging, ignore_errors=True)  # now holds the previous output
        return
    old = _sidecar(out, _OLD)
    out.rename(old)
    try:
        staging.rename(out)
    except OSError:
        old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _folder(out: Path, refused: Callable[[Path], str | None]) -> Path:
    """`out` as an absolute path (a symlink followed), once it is neither a file nor a folder that
    `refused` gives a reason for; raises WriteError."""
    try:
        out = Path(os.path.realpath(out, strict=False))  # a link on the way counts, even to a folder not made yet
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, a NUL byte
        raise WriteError(f"cannot use {out} as the output folder: {exc}") from None
    reason = refused(out)
    if reason:
        raise WriteError(reason)
    if out.exists() and not out.is_dir():
        raise WriteError(f"refusing to write into {out}: it is a file, not a folder")
    return out


def prepare(out: Path, *, force: bool = False, protected: Iterable[Path] = (), command: str = "") -> Path:
    """The folder `write_tree` will replace (a symlink followed), after every refusal is checked
    and the leftovers of interrupted runs are cleaned away; raises WriteError."""
    kept = [Path(os.path.realpath(p)) for p in protected]
    out = _folder(out, lambda folder: refusal(folder, kept))
    clean_leftovers(out)
    try:
        present = any(out.iterdir()) if out.is_dir() else False
    except OSError as exc:
        raise WriteError(f"cannot read {out}: {exc.strerror or exc}") from None
    if present and read_manifest(out) is None and not force:
        raise WriteError(
            f"refusing to write into {out}: the folder holds files wopgen did not write (no {MANIFEST} "
            "manifest); choose a new or empty folder, or pass --force to add the generated files beside them"
        )
    _refuse_another_command(out, command, "write into")
    return out


def _refuse_another_command(out: Path, command: str, doing: str) -> None:
    """WriteError when the manifest of `out` says another command than `command` wrote it."""
    other = manifest_command(out) if command and out.is_dir() else ""
    if other and other != command:
        raise WriteError(
            f"refusing to {doing} {out}: it holds the output of `wopgen {other}` ({MANIFEST}), which "
            f"`wopgen {command}` would remove; give each command a folder of its own"
        )


def _refuse_foreign_clashes(out: Path, paths: Iterable[str], ours: set[str]) -> None:
    """WriteError naming what stands in `out` at a path of `paths` (the files about to be written)
    that its manifest (`ours`) does not list: a file, folder or link of someone else's, which writing
    the generated file would replace. `--force` promises the files beside the output are kept, so
    they are never overwritten; checked before anything is written, so a refusal changes nothing."""
    if not out.is_dir():
        return
    real: dict[PurePosixPath, bool] = {}  # a folder below `out`: a real one (not a link), or missing

    def real_folder(folder: PurePosixPath) -> bool:
        if folder not in real:
            path = out / folder
            real[folder] = not path.is_symlink() and (path.is_dir() or not path.exists())
        return real[folder]

    clashes = sorted(
        relative
        for relative in {PurePosixPath(path).as_posix() for path in paths}  # spelt as the manifest spells them
        if relative not in ours
        # a link or file where a folder goes fails later, as it always has: no path is followed out of `out`
        and all(real_folder(folder) for folder in reversed(PurePosixPath(relative).parents[:-1]))  # top down
        and os.path.lexists(out / relative)
    )
    if clashes:
        shown = ", ".join(clashes[:5]) + (f" and {len(clashes) - 5} more" if len(clashes) > 5 else "")
        count, them = (f"{len(clashes)} files", "them") if len(clashes) > 1 else ("1 file", "it")
        raise WriteError(
            f"refusing to write into {out}: {count} in it that wopgen did not write (no {MANIFEST} manifest "
            f"lists {them}) would be overwritten by generated ones: {shown}; move {them} out of the folder or "
            "choose another --out. Nothing was written."
        )


def scratch_beside(out: Path) -> Path:
    """A private working folder next to `out` (so it is on the same disk); the next run removes it
    if this one is killed before it can."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        scratch = _sidecar(out, _SCRATCH)
        scratch.mkdir()  # 0777 minus the umask, like every folder below it
    except OSError as exc:
        raise WriteError(f"cannot create a folder beside {out}: {exc.strerror or exc}") from None
    return scratch


def write_tree(
    files: Tree, out: Path, *, force: bool = False, protected: Iterable[Path] = (), command: str = ""
) -> None:
    """Make `out` hold `files` (and keep every file in it that wopgen did not write), atomically; the
    manifest says the wopgen `command` wrote them.

    Refused (WriteError, nothing changed): a folder that is the file-system root, holds a `.git`
    or any of the `protected` paths, or lies in one but the corpus root; a non-empty folder without
    a manifest unless `force`; a folder whose manifest names another command; a folder holding a file,
    folder or link its manifest does not list where a generated file goes, `force` or not. The folder
    keeps its permissions (and owner, where the process may set it).
    A symlinked `out` is followed: the folder it points at is replaced and the link kept. A file or
    symlink inside `out` where a generated file needs a folder fails (WriteError, nothing changed):
    nothing is written through a link.
    """
    for relative in files:
        _safe(relative)
    out = prepare(out, force=force, protected=protected, command=command)
    ours = (read_manifest(out) or set()) if out.is_dir() else set()
    _refuse_foreign_clashes(out, files, ours)
    staging = scratch_beside(out)
    try:
        for entry in sorted(out.iterdir()) if out.is_dir() else []:
            _carry_over(entry, staging / entry.name, out, ours)
        digests: dict[str, str] = {}
        folders: set[PurePosixPath] = set()  # the folders below staging already known to be real ones
        for relative in sorted(files):  # one file's content at a time, read once: `files` may be lazy
            inside = _safe(relative)
            target = staging / inside
            _refuse_links_above(staging, inside, folders)
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink() or target.exists():
                _remove(target)
            content = _as_bytes(files[relative])
            target.write_bytes(content)
            digests[relative] = hashlib.sha256(content).hexdigest()
        (staging / MANIFEST).write_text(manifest_text(digests, command), encoding="utf-8")
        _keep_mode_and_owner(out, staging)
        _swap(staging, out)
    except BaseException as exc:  # a generator's error or an interrupt too: no staging folder is left behind
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, OSError):
            raise WriteError(f"cannot write {out}: {exc.strerror or exc}") from None
        raise


def _refuse_links_above(staging: Path, relative: PurePosixPath, folders: set[PurePosixPath]) -> None:
    """Fail (as a file in the way does) where a symlink carried over from the output stands where a
    generated file needs a folder: writing through it would write outside the output."""
    for folder in reversed(relative.parents[:-1]):  # from the top down; the last parent is "."
        if folder in folders:
            continue
        if (staging / folder).is_symlink():
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(staging / folder))
        folders.add(folder)


class FolderFiles(Mapping[str, bytes]):
    """The files of a folder as a tree for `write_tree`, each read from disk only when asked for, so
    a large tree is never held in memory as a whole."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.paths = [p.relative_to(folder).as_posix() for p in sorted(folder.rglob("*")) if p.is_file()]
        self._known = set(self.paths)

    def __getitem__(self, relative: str) -> bytes:
        if relative not in self._known:
            raise KeyError(relative)
        return (self.folder / relative).read_bytes()

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def move_tree(
    folder: Path, out: Path, *, force: bool = False, protected: Iterable[Path] = (), command: str = ""
) -> int:
    """Make `out` hold the files of `folder` exactly as `write_tree(FolderFiles(folder), out, ...)`
    would (the same refusals, files carried over, manifest and atomic swap), by turning `folder`
    itself into the new output instead of copying its files; returns the number of files.

    `folder` is the caller's to give up: a folder on the same disk as `out` (made beside it) that
    nothing else writes to meanwhile. It is emptied of the files it held when this returns; what is
    left of it when this fails (or when `out` lies on another disk) is the caller's to remove. Its
    empty folders are dropped, as the writer writes only the folders that hold files. A folder
    holding anything but folders and regular files (a symbolic link) is copied file by file instead.
    """
    out = prepare(out, force=force, protected=protected, command=command)
    found = _plain_files(folder)
    if found is None or not _same_disk(folder, out.parent):
        files = FolderFiles(folder)
        write_tree(files, out, force=force, protected=protected, command=command)
        return len(files)
    for relative in found:
        _safe(relative)
    ours = (read_manifest(out) or set()) if out.is_dir() else set()
    _refuse_foreign_clashes(out, found, ours)
    try:
        digests = {relative: _digest(folder / relative) for relative in found}
        for entry in sorted(out.iterdir()) if out.is_dir() else []:
            _carry_beside(entry, folder / entry.name, out, ours)
        (folder / MANIFEST).write_text(manifest_text(digests, command), encoding="utf-8")
        _keep_mode_and_owner(out, folder)
        _swap(folder, out)
    except OSError as exc:
        raise WriteError(f"cannot write {out}: {exc.strerror or exc}") from None
    return len(found)


def _keep_mode_and_owner(out: Path, replacement: Path) -> None:
    """Give the folder about to replace `out` the permissions of `out` (a private `chmod 700` output stays
    private), and its owner and group where this process may set them."""
    try:
        kept = out.stat()
    except FileNotFoundError:
        return  # a new folder: made as every folder is, under the umask
    os.chmod(replacement, stat.S_IMODE(kept.st_mode))
    mine = replacement.stat()
    if (mine.st_uid, mine.st_gid) != (kept.st_uid, kept.st_gid):
        with suppress(PermissionError):
            os.chown(replacement, kept.st_uid, kept.st_gid)


def _plain_files(folder: Path) -> list[str] | None:
    """The relative paths of the files below `folder`, sorted, once its empty folders are removed;
    None when it holds anything but folders and regular files."""
    files: list[str] = []
    for parent, folders, names in os.walk(folder, topdown=False):
        base = Path(parent)
        for name in folders:
            if (base / name).is_symlink():
                return None
            with suppress(OSError):
                (base / name).rmdir()  # only when empty (its own folders went first)
        for name in names:
            path = base / name
            if path.is_symlink() or not path.is_file():
                return None
            files.append(path.relative_to(folder).as_posix())
    return sorted(files)


def _same_disk(folder: Path, other: Path) -> bool:
    try:
        return folder.stat().st_dev == other.stat().st_dev
    except OSError:
        return False


def _digest(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _carry_beside(source: Path, target: Path, out: Path, ours: set[str]) -> None:
    """`_carry_over` into a folder that already holds the generated files: a folder of both is merged,
    a file or link standing where the generated files need a folder fails (as writing the generated
    file would), and what stands where a generated file goes is not carried (it is wopgen's own:
    `_refuse_foreign_clashes` has refused anyone else's before)."""
    if target.is_symlink() or not target.exists():
        _carry_over(source, target, out, ours)
        return
    relative = source.relative_to(out).as_posix()
    if relative == MANIFEST or relative in ours or not target.is_dir():
        return  # not carried, or replaced by the generated file
    if source.is_symlink() or not source.is_dir():
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
    shutil.copystat(source, target)  # as `_carry_over` gives a folder it carries
    for entry in sorted(source.iterdir()):
        _carry_beside(entry, target / entry.name, out, ours)


def create_tree(files: Tree, out: Path) -> None:
    """Add `files` to the folder `out` (made when missing): all of them, or nothing at all.

    It only adds: a file it would write that already exists, a folder it would write into that is a
    file or a symbolic link (which could lead out of `out`), is refused before anything is written,
    and nothing else in `out` is touched, so `out` may be a
    fresh git work tree or a folder with notes in it. Refused too (WriteError, nothing changed): the
    root of the file system, a path inside a `.git` folder, a file. The files are written into a
    staging folder inside `out` (same disk, and `out` itself is kept: it may be the working
    directory), then moved into place one by one; when any step fails, what was moved is removed
    again, and so are the folders this call made and the staging folder. No manifest is written.
    """
    for relative in files:
        _safe(relative)
    out = _folder(out, _adding_refusal)
    made = [folder for folder in (out, *out.parents) if not folder.exists()]  # deepest first
    staging = out / f"{_SCRATCH}.{os.getpid()}.{uuid.uuid4().hex[:8]}"
    moved: list[Path] = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        _clean_killed_stagings(out)
        _refuse_what_is_in_the_way(out, files)
        staging.mkdir()
        for relative in sorted(files):
            target = staging / _safe(relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_as_bytes(files[relative]))
        for relative in sorted(files):
            place = out / _safe(relative)
            for folder in reversed(place.relative_to(out).parents[:-1]):  # outermost first
                if not (out / folder).is_dir():
                    (out / folder).mkdir()  # a file in the way fails here
                    made.insert(0, out / folder)
            if place.exists() or place.is_symlink():  # it appeared while this run wrote
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(place))
            (staging / relative).rename(place)
            moved.append(place)
        shutil.rmtree(staging)
    except BaseException as exc:  # an interrupt too: no half-written corpus is left behind
        for path in moved:
            with suppress(OSError):
                path.unlink()
        shutil.rmtree(staging, ignore_errors=True)
        for folder in made:  # deepest first; a folder someone else filled meanwhile stays
            with suppress(OSError):
                folder.rmdir()
        if isinstance(exc, OSError):
            raise WriteError(f"cannot write {exc.filename or out}: {exc.strerror or exc}") from None
        raise


def _refuse_what_is_in_the_way(out: Path, files: Tree) -> None:
    """WriteError naming what `create_tree` would have to replace or write through in `out`."""
    present = sorted(r for r in files if (out / r).exists() or (out / r).is_symlink())
    if present:
        shown = ", ".join(present[:5]) + (", ..." if len(present) > 5 else "")
        raise WriteError(f"refusing to write into {out}: it already has {shown}; only new files are written")
    folders = sorted({str(folder) for r in files for folder in PurePosixPath(r).parents[:-1]})
    for folder in folders:
        path = out / folder
        if path.is_symlink():
            raise WriteError(
                f"refusing to write into {out}: {folder} is a symbolic link; files go into real folders only"
            )
        if path.exists() and not path.is_dir():
            raise WriteError(f"refusing to write into {out}: {folder} is a file, where a folder of new files goes")


def _adding_refusal(out: Path) -> str | None:
    """Why `create_tree` must not add files to `out`, or None."""
    if out.parent == out:
        return f"refusing to write into {out}: it is the root of the file system"
    if ".git" in out.parts:
        return f"refusing to write into {out}: it is inside a git repository's own folder (.git)"
    return None


def _clean_killed_stagings(folder: Path) -> None:
    """Remove the staging folders that `create_tree` runs killed before cleaning up left in `folder`."""
    for entry in folder.iterdir():
        ours = _STAGING_INSIDE.fullmatch(entry.name)
        if ours and not _pid_alive(int(ours[1])) and entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _carry_over(source: Path, target: Path, out: Path, ours: set[str]) -> None:
    """Copy (hard-link where possible) what `source` holds that wopgen did not write into `target`."""
    relative = source.relative_to(out).as_posix()
    if relative == MANIFEST or relative in ours:
        return
    if source.is_dir() and not source.is_symlink():
        target.mkdir()
        shutil.copystat(source, target)
        entries = sorted(source.iterdir())
        for entry in entries:
            _carry_over(entry, target / entry.name, out, ours)
        if entries and not any(target.iterdir()):
            target.rmdir()  # it held only files wopgen wrote
        return
    if source.is_symlink():
        os.symlink(os.readlink(source), target)
    else:
        _link_or_copy(str(source), str(target))


def file_refusal(out: Path, protected: Iterable[Path]) -> str | None:
    """Why the single file `out` must never be written, or None: it is, or lies in, one of `protected`
    (the corpus's own files and folders, not its root), however it is spelt or linked to."""
    target = Path(os.path.realpath(out))
    for path in protected:
        if _holds(Path(os.path.realpath(path)), target):
            return f"refusing to write {out}: it is part of the corpus ({path})"
    return None


def write_file(content: str, out: Path) -> None:
    """Make the file `out` hold `content`, atomically: written beside it, then renamed over it, so a
    failed or interrupted run leaves the earlier file (or none), never part of the new one. A
    symlinked `out` is followed: the file it points at is replaced and the link kept."""
    target = Path(os.path.realpath(out))
    scratch = _sidecar(target, _SCRATCH)
    try:
        scratch.write_text(content, encoding="utf-8")
        scratch.replace(target)
    except BaseException as exc:  # an interrupt too: no scratch file is left behind
        with suppress(OSError):
            scratch.unlink()
        if isinstance(exc, OSError):
            raise WriteError(f"cannot write {out}: {exc.strerror or exc}") from None
        raise


def keep_file(content: str, out: Path) -> None:
    """`write_file` for a cache: a reader finds the old file or the new one, never part of one, and a
    folder that cannot be written leaves the old file (the next run computes again) without failing
    the run."""
    with suppress(WriteError):
        write_file(content, out)


@dataclass(frozen=True)
class Drift:
    missing: list[str]  # generated but not on disk
    extra: list[str]  # on disk but no longer generated
    changed: dict[str, str]  # path -> unified diff (text) or a one-line note (binary)
    # On disk where a file is generated, but not listed by the folder's manifest: someone else's file,
    # which writing refuses to overwrite (`_refuse_foreign_clashes`), whatever it holds. One that
    # differs is in `changed` too; the report names it here only.
    foreign: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.missing or self.extra or self.changed or self.foreign)

    def report(self) -> str:
        lines = [f"missing: {p}" for p in self.missing]
        lines += [f"stale (no longer generated): {p}" for p in self.extra]
        lines += [f"not written by wopgen (writing refuses to overwrite it): {p}" for p in self.foreign]
        for path, diff in sorted(self.changed.items()):
            if path in self.foreign:
                continue
            lines.append(f"changed: {path}")
            lines.append(diff.rstrip("\n"))
        return "\n".join(lines) + ("\n" if lines else "")


def drift(files: Tree, out: Path, command: str = "") -> Drift:
    """How `out` differs from `files` (nothing is written). Files the manifest does not list are
    not wopgen's and do not count as stale. With `command`, a folder another command wrote is a
    WriteError, as it is for `write_tree`: comparing with it would call its files stale."""
    _refuse_another_command(out, command, "compare with")
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} if out.is_dir() else set()
    on_disk.discard(MANIFEST)
    ours = read_manifest(out) if out.is_dir() else None
    missing = sorted(set(files) - on_disk)
    extra = sorted((on_disk if ours is None else on_disk & ours) - set(files))
    foreign = [] if ours is None else sorted((set(files) & on_disk) - ours)
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
    return Drift(missing, extra, changed, foreign)


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

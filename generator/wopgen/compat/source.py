"""Where a side of the comparison comes from: a corpus folder, a git ref, or one schema file.

A git ref is exported with `git archive REF`, streamed member by member into a private temporary
folder (never held in memory whole), so the work tree is never checked out or touched; both sides
then go through the same `corpus.load`. A link in the ref's tree that leads outside it is not
extracted and becomes a `compat-ref-link-outside` finding. A ref whose tree has no
`[tool.wopgen]` (older history) is read with the head's settings. A single schema file (draft-07
`definitions` or 2020-12 `$defs`) is a corpus of that one schema, named by the path as given.
"""

from __future__ import annotations

import os
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

from wopgen.compat import rules as R
from wopgen.compat.change import Change, Side
from wopgen.corpus import Corpus, load
from wopgen.corpus.documents import ParseError, parse_json
from wopgen.corpus.settings import PYPROJECT, Settings, SettingsError, SettingsMissing, load_settings

MAX_SCHEMA_FILE_BYTES = 64 * 1024 * 1024


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


@dataclass
class Opened:
    """One side: its corpus, the label it is reported under, and findings met while reading it."""

    corpus: Corpus
    label: str
    findings: list[Change] = field(default_factory=list)


def _export(root: Path, ref: str, into: Path, findings: list[Change]) -> Path:
    """Stream the tree of `ref` for the folder `root` into `into`; return the corpus root there.

    Members are extracted one at a time through the tarfile "data" filter; one it refuses (a link
    out of the tree, an absolute path) is skipped and recorded in `findings`.
    """
    if not is_git_ref(root, ref):
        inside = _git(root, "rev-parse", "--is-inside-work-tree")
        if inside.returncode != 0:
            raise SourceError(f"{ref!r} is not a folder, and {root} is not inside a git repository")
        raise SourceError(f"{ref!r} is neither a folder nor a git ref (branch, tag or commit) of this repository")
    prefix = _git(root, "rev-parse", "--show-prefix").stdout.decode().strip()
    top = Path(_git(root, "rev-parse", "--show-toplevel").stdout.decode().strip() or root)
    tree = f"{ref}^{{commit}}:{prefix}" if prefix else f"{ref}^{{commit}}"  # the corpus folder's own tree
    with tempfile.TemporaryFile() as errors:
        try:
            process = subprocess.Popen(
                ["git", "-C", str(top), "archive", "--format=tar", tree], stdout=subprocess.PIPE, stderr=errors
            )
        except OSError as exc:
            raise SourceError(f"cannot run git to read a ref: {exc.strerror or exc}") from None
        assert process.stdout is not None
        try:
            _extract_stream(process.stdout, into, ref, findings)
        except tarfile.TarError as exc:
            process.kill()
            process.wait()
            raise SourceError(f"git archive {ref} gave an unreadable archive: {exc}") from None
        finally:
            process.stdout.close()
        if process.wait() != 0:
            errors.seek(0)
            message = errors.read().decode(errors="replace").strip()
            raise SourceError(f"git archive {ref} failed: {message}")
    return into


def _extract_stream(stream: object, into: Path, ref: str, findings: list[Change]) -> None:
    destination = os.path.realpath(into)
    with tarfile.open(fileobj=stream, mode="r|") as archive:  # type: ignore[call-overload]
        for member in archive:
            try:
                safe = tarfile.data_filter(member, destination)
            except tarfile.FilterError as exc:
                message = f"{member.name} in {ref} is not extracted: {exc}"
                place = Side(member.name, "", 1)
                findings.append(Change(R.REF_LINK_OUTSIDE.id, R.REF_LINK_OUTSIDE.severity, message, place, None))
                continue
            archive.extract(safe, destination, set_attrs=False, filter="fully_trusted")


def _schema_file(path: Path, label: str) -> Corpus:
    """A corpus of the one schema file at `path`, keyed by `label`."""
    try:
        size = path.stat().st_size
        if size > MAX_SCHEMA_FILE_BYTES:
            raise SourceError(f"{label} is {size} bytes, over the {MAX_SCHEMA_FILE_BYTES} limit for a schema file")
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read {label}: {exc.strerror or exc}") from None
    try:
        doc = parse_json(label, raw)
    except ParseError as exc:
        raise SourceError(f"{label}:{exc.line}:{exc.col}: {exc.message}") from None
    if not isinstance(doc.data, dict):
        raise SourceError(f"{label} is not a JSON Schema object")
    settings = Settings(root=path.parent.resolve())
    declared = doc.data.get("$id")
    if isinstance(declared, str) and urlsplit(declared).scheme in ("http", "https"):
        # The file's own web `$id` is the corpus base, so its `$ref`s to itself resolve instead of
        # leaving the corpus (they would be compared as text, never followed).
        settings = replace(settings, id_base=urljoin(urldefrag(declared)[0], "."))
    return Corpus(settings=settings, schemas={label: doc})


def is_schema_file(spec: str) -> bool:
    """Whether `spec` names a file on disk (a single schema) rather than a folder or a ref."""
    return bool(spec) and Path(spec).is_file()


def _settings_for(corpus_root: Path, fallback: Settings, spec: str, findings: list[Change]) -> Settings:
    """The side's own `[tool.wopgen]`, or the layout of `fallback` (the current settings) when it has
    none it can read; a table it has but that cannot be read is said in `findings`
    (`compat-settings-unreadable`), since its layout may differ.

    A side with neither its own settings nor the configured schemas folder is no corpus at all (a
    mistyped folder, a ref from before the corpus existed): comparing against it would call every
    schema an addition, so it is a usage error instead.
    """
    reason = ""  # why the side's own table cannot be read, when it has one
    try:
        return load_settings(corpus_root)
    except SettingsMissing:
        settings = replace(fallback, root=corpus_root.resolve())
    except SettingsError as exc:
        settings = replace(fallback, root=corpus_root.resolve())
        reason = str(exc).removeprefix(f"{corpus_root / PYPROJECT}: ")
        message = f"the [tool.wopgen] table of {spec} cannot be read ({reason}); its files are read with the current settings' layout"
        hint = "fix the table in that version, or compare against a version whose table this wopgen reads"
        findings.append(
            Change(
                R.SETTINGS_UNREADABLE.id, R.SETTINGS_UNREADABLE.severity, message, Side(PYPROJECT, "", 1), None, hint
            )
        )
    if not (corpus_root / settings.schemas).is_dir():
        table = (
            f"its [tool.wopgen] table cannot be read ({reason})"
            if reason
            else "no pyproject.toml with a [tool.wopgen] table"
        )
        raise SourceError(f"{spec!r} holds no corpus: {table} and no {settings.schemas}/ folder")
    return settings


@contextmanager
def open_side(spec: str, root: Path, settings: Settings) -> Iterator[Opened]:
    """The side named by `spec`: a schema file, a folder, else a git ref of the repository at `root`.

    The corpus stays valid inside the `with` block; a temporary export is removed after it.
    """
    if not spec.strip():
        raise SourceError(
            "an empty name is neither a folder, a file nor a git ref (is the variable that names it set?)"
        )
    folder = Path(spec) if Path(spec).is_absolute() else Path.cwd() / spec
    if folder.is_file():
        yield Opened(_schema_file(folder, spec), spec)
        return
    findings: list[Change] = []
    if folder.is_dir():
        yield Opened(load(folder.resolve(), _settings_for(folder, settings, spec, findings)), spec, findings)
        return
    with tempfile.TemporaryDirectory(prefix="wopgen-compat-") as tmp:
        corpus_root = _export(root, spec, Path(tmp), findings)
        yield Opened(load(corpus_root.resolve(), _settings_for(corpus_root, settings, spec, findings)), spec, findings)


def baseline_available(root: Path, baseline: str) -> bool:
    """Whether a configured baseline can be read: an existing folder or a ref git history has."""
    folder = Path(baseline) if Path(baseline).is_absolute() else root / baseline
    return folder.is_dir() or is_git_ref(root, baseline)

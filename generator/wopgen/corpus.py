"""The one loader: `load(root) -> Corpus`. Every corpus file is read and parsed here, once.

Checks and generators are pure functions of the `Corpus`. Problems met while reading (unreadable
files, malformed JSON or YAML, files that leave the root) become diagnostics, not exceptions.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import referencing
import referencing.exceptions
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from referencing.jsonschema import DRAFT202012

from wopgen.diagnostics import Diagnostic, Severity
from wopgen.jsondoc import JsonDoc, JsonLoadError, decode_text, parse_json
from wopgen.markdown import MarkdownDoc, parse_markdown
from wopgen.rfcmeta import Rfc, parse_rfc
from wopgen.rules import define
from wopgen.settings import PYPROJECT, Settings, load_settings
from wopgen.yamldoc import YamlDoc, YamlLoadError, parse_yaml

SCHEMA_SUFFIX = ".schema.json"
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_LISTED = 200_000
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

UNREADABLE = define(
    "corpus-unreadable",
    "error",
    "A corpus file cannot be read as UTF-8 text (permissions, encoding, byte-order mark, size).",
)
OUTSIDE_ROOT = define(
    "corpus-outside-root",
    "error",
    "A corpus path resolves outside the corpus root (for example through a symlink); it is not read.",
)
MISSING_PART = define(
    "corpus-missing",
    "warning",
    "A part of the corpus does not exist: any folder or file that [tool.wopgen] names (an error, since the "
    "checks of that part would pass in silence), or the default schemas, docs or rfcs folder (a warning).",
)
INVALID_YAML = define("corpus-invalid-yaml", "error", "A YAML file in the corpus does not parse.")
FILE_LIMIT = define(
    "corpus-file-limit",
    "warning",
    f"The repository holds more than {MAX_LISTED:,} files outside ignored folders; only the first are listed, "
    "so a check that looks a file up may call a later one missing.",
)
SCHEMA_INVALID_JSON = define(
    "schema-invalid-json", "error", "A schema file is not valid JSON; the position of the error is given."
)
EXAMPLE_INVALID_JSON = define(
    "example-invalid-json", "error", "An example file is not valid JSON; the position of the error is given."
)
EXAMPLE_MISPLACED = define(
    "example-misplaced",
    "error",
    "A file under the examples folder is not at <schema-name>/valid/*.json or <schema-name>/invalid/*.json.",
)


@dataclass(frozen=True)
class Example:
    schema_name: str
    kind: str  # "valid" | "invalid"
    doc: JsonDoc
    why: str = ""

    @property
    def path(self) -> str:
        return self.doc.path


def _refuse(uri: str) -> referencing.Resource[Any]:
    """Retrieval hook for the registry: nothing outside the corpus is ever fetched."""
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


@dataclass
class Corpus:
    """Everything in the corpus, parsed, with the diagnostics met while reading it."""

    settings: Settings
    schemas: dict[str, JsonDoc] = field(default_factory=dict)  # keyed by relative path
    examples: list[Example] = field(default_factory=list)
    docs: dict[str, MarkdownDoc] = field(default_factory=dict)
    rfcs: dict[str, Rfc] = field(default_factory=dict)
    api: dict[str, YamlDoc] = field(default_factory=dict)
    invariants: YamlDoc | None = None
    changelog: MarkdownDoc | None = None
    load_diagnostics: list[Diagnostic] = field(default_factory=list)
    # Every file and folder of the repository (relative, POSIX), listed once by `load`; links that
    # lead out of the root and the ignored folders are left out. `exists` and `glob` ask this list.
    files: frozenset[str] = frozenset()
    folders: frozenset[str] = frozenset()

    @property
    def root(self) -> Path:
        return self.settings.root

    # --- schemas -------------------------------------------------------------------------

    def schema_name(self, path: str) -> str:
        return Path(path).name[: -len(SCHEMA_SUFFIX)]

    def expected_id(self, path: str) -> str:
        return self.settings.id_base + Path(path).name

    @cached_property
    def schemas_by_name(self) -> dict[str, JsonDoc]:
        return {self.schema_name(p): d for p, d in self.schemas.items()}

    @cached_property
    def schemas_by_uri(self) -> dict[str, JsonDoc]:
        """Each schema under its declared `$id` and under base + file name (for relative refs)."""
        table: dict[str, JsonDoc] = {}
        for _path, doc in sorted(self.schemas.items()):
            if not isinstance(doc.data, dict):
                continue
            declared = doc.data.get("$id")
            if isinstance(declared, str) and declared not in table:
                table[declared] = doc
        for path, doc in sorted(self.schemas.items()):
            if isinstance(doc.data, dict):
                table.setdefault(self.expected_id(path), doc)
        return table

    def metaschema_errors(self, path: str) -> tuple[ValidationError, ...] | None:
        """What the 2020-12 metaschema says about the schema at `path` (None: too deeply nested to tell).

        Computed once per schema; the schema checks report it, and the registry leaves out every
        schema with errors, since `referencing` cannot crawl a keyword of the wrong type.
        """
        cache = self._metaschema_errors
        if path not in cache:
            try:
                found = Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(self.schemas[path].data)
                cache[path] = tuple(sorted(found, key=lambda e: list(map(str, e.absolute_path))))
            except RecursionError:
                cache[path] = None
        return cache[path]

    @cached_property
    def _metaschema_errors(self) -> dict[str, tuple[ValidationError, ...] | None]:
        return {}

    def resolvable(self, path: str) -> bool:
        """Whether the schema at `path` is in the registry: a JSON object the metaschema accepts."""
        return isinstance(self.schemas[path].data, dict) and self.metaschema_errors(path) == ()

    @cached_property
    def registry(self) -> referencing.Registry[Any]:
        """One immutable registry of every schema that passes the metaschema; unknown URIs are
        refused, never fetched. A schema left out is reported by `schema-metaschema`, and every
        `$ref` into it is unresolvable rather than a crash."""
        resources = []
        for uri, doc in self.schemas_by_uri.items():
            if not self.resolvable(doc.path):
                continue
            resource = referencing.Resource.from_contents(doc.data, default_specification=DRAFT202012)
            resources.append((uri, resource))
        registry: referencing.Registry[Any] = referencing.Registry(retrieve=_refuse)  # type: ignore[call-arg]
        return registry.with_resources(resources).crawl()

    def resolves(self, base_uri: str, ref: str) -> bool:
        """Whether `ref`, read against `base_uri`, leads to a node in the registry.

        A pointer through a string or a number (`#/title/x`) raises ValueError or TypeError inside
        `referencing`; that is the same finding as a missing target, not a crash.
        """
        try:
            self.registry.resolver(base_uri=base_uri).lookup(ref)
        except (referencing.exceptions.Unresolvable, ValueError, TypeError):
            return False
        return True

    def uri_of(self, path: str) -> str:
        doc = self.schemas[path]
        declared = doc.data.get("$id") if isinstance(doc.data, dict) else None
        return declared if isinstance(declared, str) else self.expected_id(path)

    def validator(self, path: str, pointer: str = "") -> Validator:
        """A validator for the schema at `path`, or for the subschema at `pointer` inside it.

        Every validator shares one resolver over the registry, so making one costs nothing
        however large the corpus is.
        """
        key = (path, pointer)
        cache = self._validators
        if key not in cache:
            target = urljoin(self.uri_of(path), "#" + pointer) if pointer else self.uri_of(path)
            cache[key] = self._base_validator.evolve(schema={"$ref": target})
        return cache[key]

    @cached_property
    def _base_validator(self) -> Draft202012Validator:
        return Draft202012Validator({}, registry=self.registry, format_checker=Draft202012Validator.FORMAT_CHECKER)

    @cached_property
    def _validators(self) -> dict[tuple[str, str], Validator]:
        return {}

    # --- RFCs ----------------------------------------------------------------------------

    @cached_property
    def rfcs_by_number(self) -> dict[int, Rfc]:
        table: dict[int, Rfc] = {}
        for path in sorted(self.rfcs):
            rfc = self.rfcs[path]
            number = rfc.file_number if rfc.file_number is not None else rfc.number
            if number is not None:
                table.setdefault(number, rfc)
        return table

    # --- files ---------------------------------------------------------------------------

    def inside(self, relative: str) -> bool:
        """Whether a corpus-relative path stays below the root when read as written (no `..` out, not absolute)."""
        if not relative or relative.startswith("/"):
            return False
        normal = posixpath.normpath(relative)
        return normal != ".." and not normal.startswith("../")

    def exists(self, relative: str) -> bool:
        """Whether the repository has this file or folder, as listed when the corpus was loaded."""
        if not self.inside(relative):
            return False
        normal = posixpath.normpath(relative)
        return normal == "." or normal in self.files or normal in self.folders

    def glob(self, pattern: str) -> list[str]:
        """Listed files and folders matching a glob (`*`, `?`, `[...]` within a segment, `**` across them)."""
        if ".." in pattern.split("/") or not self.inside(pattern):
            return []
        matcher = _glob_regex(posixpath.normpath(pattern))
        return sorted(p for p in self.files | self.folders if matcher.fullmatch(p))


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


def _listing(root: Path, diagnostics: list[Diagnostic]) -> tuple[frozenset[str], frozenset[str]]:
    """Every file and folder below `root`, skipping ignored folders and links that leave the root.

    Links to folders are listed but not entered, so a link loop cannot trap the walk.
    """
    files: set[str] = set()
    folders: set[str] = set()
    stack = [""]
    while stack:
        here = stack.pop()
        try:
            entries = sorted(os.scandir(root / here), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            relative = f"{here}/{entry.name}" if here else entry.name
            if entry.is_symlink():
                try:
                    target = Path(entry.path).resolve()
                    target.relative_to(root)
                except (ValueError, OSError, RuntimeError):
                    continue  # leaves the root: as if it were not there
                (folders if target.is_dir() else files).add(relative)
            elif entry.is_dir():
                if entry.name in IGNORED_FOLDERS or entry.name.endswith(".egg-info"):
                    continue
                folders.add(relative)
                stack.append(relative)
            else:
                files.add(relative)
            if len(files) + len(folders) >= MAX_LISTED:
                diagnostics.append(
                    FILE_LIMIT.at(
                        ".", 1, f"stopped listing files at {MAX_LISTED:,}", "move generated files under build/"
                    )
                )
                return frozenset(files), frozenset(folders)
    return frozenset(files), frozenset(folders)


class _Reader:
    """Reads files for one load, turning every failure into a diagnostic."""

    def __init__(self, settings: Settings, diagnostics: list[Diagnostic]) -> None:
        self.root = settings.root
        self.diagnostics = diagnostics

    def relative(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def read_bytes(self, path: Path) -> bytes | None:
        rel = self.relative(path)
        try:
            path.resolve().relative_to(self.root)
        except (ValueError, OSError, RuntimeError):
            self.diagnostics.append(
                OUTSIDE_ROOT.at(
                    rel, 1, "resolves outside the corpus root; not read", "replace the symlink with the file itself"
                )
            )
            return None
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                self.diagnostics.append(UNREADABLE.at(rel, 1, f"file is {size} bytes, over the {MAX_FILE_BYTES} limit"))
                return None
            return path.read_bytes()
        except OSError as exc:
            self.diagnostics.append(UNREADABLE.at(rel, 1, f"cannot read: {exc.strerror or exc}"))
            return None

    def read_text(self, path: Path) -> str | None:
        raw = self.read_bytes(path)
        if raw is None:
            return None
        try:
            return decode_text(raw)
        except JsonLoadError as exc:
            self.diagnostics.append(UNREADABLE.at(self.relative(path), exc.line, exc.message, col=exc.col))
            return None

    def read_json(self, path: Path, rule: Any) -> JsonDoc | None:
        raw = self.read_bytes(path)
        if raw is None:
            return None
        rel = self.relative(path)
        try:
            return parse_json(rel, raw)
        except JsonLoadError as exc:
            self.diagnostics.append(rule.at(rel, exc.line, exc.message, col=exc.col))
            return None

    def read_yaml(self, path: Path) -> YamlDoc | None:
        text = self.read_text(path)
        if text is None:
            return None
        try:
            return parse_yaml(self.relative(path), text)
        except YamlLoadError as exc:
            self.diagnostics.append(INVALID_YAML.at(self.relative(path), exc.line, exc.message, col=exc.col))
            return None

    def read_markdown(self, path: Path) -> MarkdownDoc | None:
        text = self.read_text(path)
        return None if text is None else parse_markdown(self.relative(path), text)


def _files(folder: Path, pattern: str) -> list[Path]:
    return sorted(p for p in folder.glob(pattern) if p.is_file() or p.is_symlink())


_EXAMPLE_KINDS = ("valid", "invalid")
_WHY_SUFFIX = ".why"


def load(root: Path, settings: Settings | None = None) -> Corpus:
    """Read the corpus at `root` (settings from its pyproject.toml unless given)."""
    settings = settings or load_settings(root)
    diagnostics: list[Diagnostic] = []
    reader = _Reader(settings, diagnostics)
    files, folders = _listing(settings.root, diagnostics)
    corpus = Corpus(settings=settings, load_diagnostics=diagnostics, files=files, folders=folders)

    def missing(name: str, relative: str, kind: str) -> None:
        if settings.names(name):  # point at the setting: that is where the typo usually is
            diagnostics.append(
                MISSING_PART.at(
                    PYPROJECT,
                    settings.line(name),
                    f"[tool.wopgen] {name} = {relative!r}: there is no such {kind}",
                    f"create {relative} or correct the path",
                    severity=Severity.ERROR,
                )
            )
            return
        diagnostics.append(
            MISSING_PART.at(
                relative,
                1,
                f"the {name} {kind} {relative!r} does not exist",
                f"create it or set {name} in [tool.wopgen] in pyproject.toml",
            )
        )

    def folder(name: str, relative: str) -> Path | None:
        """A part every corpus has: missing is always a finding."""
        path = settings.path(relative)
        if not path.is_dir():
            missing(name, relative, "folder")
            return None
        return path

    def optional(name: str, relative: str, kind: str) -> Path | None:
        """A part a corpus may leave out: missing is a finding only when [tool.wopgen] names it."""
        path = settings.path(relative)
        present = path.is_dir() if kind == "folder" else path.is_file() or path.is_symlink()
        if present:
            return path
        if settings.names(name):
            missing(name, relative, kind)
        return None

    schemas_dir = folder("schemas", settings.schemas)
    if schemas_dir:
        for path in _files(schemas_dir, "*" + SCHEMA_SUFFIX):
            doc = reader.read_json(path, SCHEMA_INVALID_JSON)
            if doc is not None:
                corpus.schemas[doc.path] = doc

    examples_dir = optional("examples", settings.examples, "folder")
    if examples_dir:
        _load_examples(corpus, reader, examples_dir)

    docs_dir = folder("docs", settings.docs)
    if docs_dir:
        for path in _files(docs_dir, "**/*.md"):
            md = reader.read_markdown(path)
            if md is not None:
                corpus.docs[md.path] = md

    rfcs_dir = folder("rfcs", settings.rfcs)
    if rfcs_dir:
        for path in _files(rfcs_dir, "*.md"):
            if path.name.lower() == "readme.md":
                continue
            md = reader.read_markdown(path)
            if md is not None:
                corpus.rfcs[md.path] = parse_rfc(md.path, md, path.name)

    api_dir = optional("api", settings.api, "folder")
    if api_dir:
        for path in _files(api_dir, "*.yaml"):
            ydoc = reader.read_yaml(path)
            if ydoc is not None:
                corpus.api[ydoc.path] = ydoc

    invariants = optional("invariants", settings.invariants, "file")
    if invariants:
        corpus.invariants = reader.read_yaml(invariants)

    changelog = optional("changelog", settings.changelog, "file")
    if changelog:
        corpus.changelog = reader.read_markdown(changelog)
    return corpus


_EXAMPLE_NAME = re.compile(r"^[^/]+\.json$")


def _load_examples(corpus: Corpus, reader: _Reader, examples_dir: Path) -> None:
    for path in sorted(examples_dir.rglob("*")):
        if path.is_dir():
            continue
        rel = reader.relative(path)
        parts = path.relative_to(examples_dir).parts
        if path.suffix == _WHY_SUFFIX and len(parts) == 3 and parts[1] == "invalid":
            continue  # read alongside its example below
        if len(parts) != 3 or parts[1] not in _EXAMPLE_KINDS or not _EXAMPLE_NAME.match(parts[2]):
            corpus.load_diagnostics.append(
                EXAMPLE_MISPLACED.at(
                    rel,
                    1,
                    "not an example location",
                    "put examples at <schema-name>/valid/*.json or <schema-name>/invalid/*.json",
                )
            )
            continue
        doc = reader.read_json(path, EXAMPLE_INVALID_JSON)
        if doc is None:
            continue
        why = ""
        why_path = path.with_suffix(_WHY_SUFFIX)
        if parts[1] == "invalid" and why_path.is_file():
            text = reader.read_text(why_path)
            why = (text or "").strip()
        corpus.examples.append(Example(parts[0], parts[1], doc, why))

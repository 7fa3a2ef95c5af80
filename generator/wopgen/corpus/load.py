"""The one loader: `load(root) -> Corpus`. Every corpus file is read and parsed here, once.

Problems met while reading (unreadable files, malformed JSON or YAML, files that leave the root)
become diagnostics, not exceptions.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from wopgen.catalogue import define
from wopgen.corpus.documents import DuplicateKey, JsonDoc, JsonLoadError, decode_text, parse_json
from wopgen.corpus.files import MAX_LISTED, listing
from wopgen.corpus.markdown import MarkdownDoc, parse_markdown
from wopgen.corpus.model import SCHEMA_SUFFIX, Corpus, Example
from wopgen.corpus.rfc import parse_rfc
from wopgen.corpus.settings import PYPROJECT, Settings, load_settings
from wopgen.corpus.yamldoc import YamlDoc, YamlLoadError, parse_yaml
from wopgen.diagnostics import Diagnostic, Severity

MAX_FILE_BYTES = 8 * 1024 * 1024

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
DUPLICATE_KEY = define(
    "corpus-duplicate-key",
    "error",
    "A JSON object or YAML mapping writes the same key twice; parsers keep only the later value, so the "
    "earlier one is silently lost.",
    '{"required": ["a"], "type": "object", "required": ["b"]}',
)
EMPTY = define(
    "corpus-empty",
    "error",
    "No schema, no RFC and no prose page was found: every check would pass on nothing (a wrong --root or "
    "[tool.wopgen] folder setting).",
)
EXAMPLE_MISPLACED = define(
    "example-misplaced",
    "error",
    "A file under the examples folder is not at <schema-name>/valid/*.json or <schema-name>/invalid/*.json.",
)


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
            doc = parse_json(rel, raw)
        except JsonLoadError as exc:
            self.diagnostics.append(rule.at(rel, exc.line, exc.message, col=exc.col))
            return None
        self.duplicates(rel, doc.duplicates)
        return doc

    def duplicates(self, rel: str, found: list[DuplicateKey]) -> None:
        for dup in found:
            self.diagnostics.append(
                DUPLICATE_KEY.at(
                    rel,
                    dup.line,
                    f"key {dup.key!r} is written twice in one object (first on line {dup.first_line}); "
                    "only this later value is kept",
                    "remove one of the two or merge them",
                    col=dup.col,
                )
            )

    def read_yaml(self, path: Path) -> YamlDoc | None:
        text = self.read_text(path)
        if text is None:
            return None
        try:
            doc = parse_yaml(self.relative(path), text)
        except YamlLoadError as exc:
            self.diagnostics.append(INVALID_YAML.at(self.relative(path), exc.line, exc.message, col=exc.col))
            return None
        self.duplicates(doc.path, doc.duplicates)
        return doc

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
    files, folders, truncated = listing(settings.root)
    if truncated:
        diagnostics.append(
            FILE_LIMIT.at(".", 1, f"stopped listing files at {MAX_LISTED:,}", "move generated files under build/")
        )
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
    if not corpus.schemas and not corpus.rfcs and not corpus.docs:
        diagnostics.append(
            EMPTY.at(
                PYPROJECT,
                settings.line("schemas"),
                f"no schema ({settings.schemas}/*{SCHEMA_SUFFIX}), RFC ({settings.rfcs}/*.md) or page "
                f"({settings.docs}/**/*.md) was found in {settings.root}; there is nothing to check",
                "point --root at the corpus, or set schemas, rfcs and docs in [tool.wopgen]",
            )
        )
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

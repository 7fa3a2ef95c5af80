"""The one loader: `load(root) -> Corpus`. Every corpus file is read and parsed here, once.

Problems met while reading (unreadable files, malformed JSON or YAML, files that leave the root)
become diagnostics, not exceptions.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
import stat
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

from wopgen.corpus.documents import (
    MAX_FILE_BYTES,
    DuplicateKey,
    JsonDoc,
    ParseError,
    YamlDoc,
    decode_text,
    parse_json,
    parse_yaml,
)
from wopgen.corpus.files import Listing, decodable, holds_file, listing, matched_or_below, shown
from wopgen.corpus.graph import beside, ref_strings
from wopgen.corpus.markdown import MarkdownDoc, parse_markdown
from wopgen.corpus.markdown_memo import MarkdownMemo
from wopgen.corpus.model import Corpus, Example, Instance, ParsedOnUse, gc_paused
from wopgen.corpus.rfc import Rfc, parse_rfc
from wopgen.corpus.settings import Settings, load_settings
from wopgen.corpus_rules import (
    DUPLICATE_KEY,
    EMPTY,
    EXAMPLE_INVALID_JSON,
    EXAMPLE_MISPLACED,
    FILE_LIMIT,
    INSTANCE_INVALID_JSON,
    INSTANCE_UNMATCHED,
    INVALID_YAML,
    MAX_LISTED,
    MISSING_PART,
    OUTSIDE_ROOT,
    SCHEMA_INVALID_JSON,
    UNREADABLE,
)
from wopgen.diagnostics import Diagnostic, Severity

# Opening a named pipe waits for a writer unless O_NONBLOCK is given (POSIX; elsewhere none waits).
_NO_WAIT = getattr(os, "O_NONBLOCK", 0)


class _Reader:
    """Reads files for one load, turning every failure into a diagnostic, and keeps a digest of every
    file it read (`Corpus.sources`). Files are named by their path relative to the root (as the one
    walk lists them) or by a `Path`."""

    def __init__(
        self,
        settings: Settings,
        diagnostics: list[Diagnostic],
        listed: frozenset[str] = frozenset(),
        memo: MarkdownMemo | None = None,
    ) -> None:
        self.root = settings.root
        self.memo = memo
        self.diagnostics = diagnostics
        self.listed = listed  # files the one walk found inside the root: no need to resolve them again
        self.sources: dict[str, str] = {}
        # Every JSON file read so far, by relative path (None: it could not be read or parsed, which
        # was reported then): a file two parts name (an instance that is also an example) is read and
        # reported once.
        self.json_docs: dict[str, JsonDoc | None] = {}

    def relative(self, path: Path | str) -> str:
        if isinstance(path, str):
            return path
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def read_bytes(self, path: Path | str) -> bytes | None:
        rel = self.relative(path)
        where = os.path.join(self.root, rel) if isinstance(path, str) else path
        try:
            if rel not in self.listed:
                Path(where).resolve().relative_to(self.root)
        except (ValueError, OSError, RuntimeError):
            self.diagnostics.append(
                OUTSIDE_ROOT.at(
                    rel, 1, "resolves outside the corpus root; not read", "replace the symlink with the file itself"
                )
            )
            return None
        try:
            raw, problem = _read_regular(where)
        except OSError as exc:
            self.diagnostics.append(UNREADABLE.at(rel, 1, f"cannot read: {exc.strerror or exc}"))
            return None
        if problem:
            self.diagnostics.append(UNREADABLE.at(rel, 1, problem))
            return None
        self.sources[rel] = hashlib.blake2b(raw, digest_size=16).hexdigest()
        return raw

    def named(self, rel: str) -> bool:
        """Whether the listed file `rel` has a name the corpus can use. A name that is not UTF-8 is
        reported (in a printable form) instead of read: no page or `$ref` can name the file, and no
        report or generated file could hold its name."""
        if decodable(rel):
            return True
        self.diagnostics.append(
            UNREADABLE.at(shown(rel), 1, "the file name is not valid UTF-8; not read", "rename the file")
        )
        return False

    def read_text(self, path: Path | str) -> str | None:
        raw = self.read_bytes(path)
        if raw is None:
            return None
        try:
            return decode_text(raw)
        except ParseError as exc:
            self.diagnostics.append(UNREADABLE.at(self.relative(path), exc.line, exc.message, col=exc.col))
            return None

    def read_json(self, path: Path | str, rule: Any) -> JsonDoc | None:
        """The JSON document at `path`, read and parsed once per load; a parse error is a `rule` finding."""
        rel = self.relative(path)
        if rel not in self.json_docs:
            self.json_docs[rel] = self._parse_json(path, rel, rule)
        return self.json_docs[rel]

    def _parse_json(self, path: Path | str, rel: str, rule: Any) -> JsonDoc | None:
        raw = self.read_bytes(path)
        if raw is None:
            return None
        try:
            doc = parse_json(rel, raw)
        except ParseError as exc:
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

    def read_yaml(self, path: Path | str) -> YamlDoc | None:
        text = self.read_text(path)
        if text is None:
            return None
        try:
            doc = parse_yaml(self.relative(path), text)
        except ParseError as exc:
            self.diagnostics.append(INVALID_YAML.at(self.relative(path), exc.line, exc.message, col=exc.col))
            return None
        self.duplicates(doc.path, doc.duplicates)
        return doc

    def parse_markdown(self, rel: str, text: str) -> MarkdownDoc:
        if self.memo is None:
            return parse_markdown(rel, text)
        return self.memo.parse(rel, text, self.sources[rel])

    def read_markdown_later(self, path: Path | str) -> Callable[[], MarkdownDoc] | None:
        """Read the file now (a failure is a load finding); parse it when it is first asked for."""
        text = self.read_text(path)
        if text is None:
            return None
        rel = self.relative(path)
        return lambda: self.parse_markdown(rel, text)


_DATA_SUFFIXES = (".yaml", ".yml", ".json")


def _read_api_shared(corpus: Corpus, reader: _Reader, excluded: tuple[str, ...]) -> None:
    """Read the files the API documents share parts from (`corpus.api_shared`), following `$ref`s from
    document to file: a listed YAML or JSON file that is no schema, document or excluded file. Read
    here, they are read once, with the loader's guards, and their bytes count in what the checks saw."""
    todo = list(corpus.api.values())
    while todo:
        doc = todo.pop()
        for _where, ref in ref_strings(doc.data):
            target = urldefrag(ref)[0]
            if not target or "://" in target or not target.endswith(_DATA_SUFFIXES):
                continue
            rel = beside(doc.path, target)
            known = rel in corpus.api or rel in corpus.api_shared or rel in corpus.schemas
            if known or rel not in corpus.files or matched_or_below(rel, excluded):
                continue
            shared = reader.read_yaml(rel)
            if shared is not None:
                corpus.api_shared[rel] = shared
                todo.append(shared)


def _read_regular(where: str | Path) -> tuple[bytes, str | None]:
    """The bytes of the file at `where`, or why it is not read.

    What is open is asked what it is, so nothing but a regular file is ever read: a named pipe would
    never end, a device might not either. Read with `os.read` on the descriptor: a buffered file
    object around it costs as much again as the read itself on the small files of a corpus."""
    descriptor = os.open(where, os.O_RDONLY | _NO_WAIT)
    try:
        found = os.fstat(descriptor)
        problem = _unusable(found)
        if problem:
            return b"", problem
        chunks = []
        while chunk := os.read(descriptor, max(found.st_size + 1, 65536)):  # to the end, should it grow
            chunks.append(chunk)
        return b"".join(chunks), None
    finally:
        os.close(descriptor)


def _unusable(found: os.stat_result) -> str | None:
    """Why the file `found` describes is not read, or None: only a regular file within the size limit is."""
    if not stat.S_ISREG(found.st_mode):
        return "not a regular file (a named pipe, a device or a socket); not read"
    if found.st_size > MAX_FILE_BYTES:
        return f"file is {found.st_size} bytes, over the {MAX_FILE_BYTES} limit"
    return None


_EXAMPLE_KINDS = ("valid", "invalid")
_WHY_SUFFIX = ".why"


def load(root: Path, settings: Settings | None = None, *, memo: MarkdownMemo | None = None) -> Corpus:
    """Read the corpus at `root` (settings from its pyproject.toml unless given). Markdown pages are
    parsed through `memo` when one is given, so pages it has seen unchanged are not parsed again."""
    with gc_paused():
        return _load(root, settings, memo)


def _load(root: Path, settings: Settings | None, memo: MarkdownMemo | None) -> Corpus:
    settings = settings or load_settings(root)
    diagnostics: list[Diagnostic] = []
    listed = listing(settings.root)
    reader = _Reader(settings, diagnostics, listed.files, memo)

    excluded = settings.conventions.exclude

    def _kept(paths: list[str]) -> list[str]:
        """`paths` in path order, without those `exclude` names (or lies below)."""
        return [rel for rel in sorted(paths, key=_path_order) if not matched_or_below(rel, excluded)]

    def _files(relative: str, pattern: str) -> list[str]:
        """The listed files of a part matching `pattern` (relative to the root, in path order), less
        those `exclude` names: the disk is walked once, by `listing`. Those whose name is not UTF-8 are
        reported, not returned, and so is a folder named as such a file would be (`x.schema.json/`),
        which would be left out unseen."""
        if "." in pattern.rsplit("/", 1)[-1]:  # a pattern naming files by their suffix
            for folder in _kept(listed.folders_under(relative, pattern)):
                message = f"a folder named like the files {pattern!r} reads; only files are read, so it is skipped"
                diagnostics.append(UNREADABLE.at(folder, 1, message, "rename the folder, or move its files out"))
        return [rel for rel in _kept(listed.under(relative, pattern)) if reader.named(rel)]

    if listed.truncated:
        diagnostics.append(
            FILE_LIMIT.at(".", 1, f"stopped listing files at {MAX_LISTED:,}", "move generated files under build/")
        )
    diagnostics.extend(_linked_folders(settings, listed))
    pages: ParsedOnUse[MarkdownDoc] = ParsedOnUse()
    rfcs: ParsedOnUse[Rfc] = ParsedOnUse()
    changelogs: ParsedOnUse[MarkdownDoc] = ParsedOnUse()
    corpus = Corpus(
        settings=settings,
        load_diagnostics=diagnostics,
        files=listed.files,
        folders=listed.folders,
        docs=pages,
        rfcs=rfcs,
        changelogs=changelogs,
    )

    def missing(name: str, relative: str, kind: str) -> None:
        if settings.conventions.is_external(relative):
            return  # declared to live outside this checkout (external-paths)
        if settings.names(name):  # point at the setting: that is where the typo usually is
            diagnostics.append(
                MISSING_PART.at(
                    settings.source_path(),
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
                f"create it or set {name} in [tool.wopgen] in {settings.source_path()}",
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
        present = path.is_dir() if kind == "folder" else path.is_symlink() or (path.exists() and not path.is_dir())
        if present:
            return path
        if settings.names(name):
            missing(name, relative, kind)
        return None

    conventions = settings.conventions
    suffix = conventions.schema_suffix
    instance_files = [(entry, listed.under(".", entry.files)) for entry in settings.instances]
    schemas_dir = folder("schemas", settings.schemas)
    if schemas_dir:
        examples = posixpath.normpath(settings.examples)
        apart = examples not in (".", posixpath.normpath(settings.schemas))
        instances = {rel for _, files in instance_files for rel in files}
        for path in _files(settings.schemas, ("**/*" if conventions.schemas_recursive else "*") + suffix):
            if (apart and _below_or_at(examples, path)) or path in instances:
                continue  # an example or an instance, however it is named (`.json` schemas beside them)
            doc = reader.read_json(path, SCHEMA_INVALID_JSON)
            if doc is not None:
                corpus.schemas[doc.path] = doc
        single = schemas_dir / conventions.examples_schema
        if conventions.examples_layout == "per-def" and single.is_file() and not single.name.endswith(suffix):
            doc = reader.read_json(single, SCHEMA_INVALID_JSON)  # a single-file schema named otherwise (schema.json)
            if doc is not None:
                corpus.schemas[doc.path] = doc

    examples_dir = optional("examples", settings.examples, "folder")
    if examples_dir:
        found = [(rel, _below(settings.examples, rel)) for rel in _files(settings.examples, "**/*")]
        if conventions.examples_layout == "per-def":
            _load_def_examples(corpus, reader, found)
        else:
            _load_examples(corpus, reader, found)

    # Pages and RFCs are read now and parsed when first asked for: a check that reads none of them
    # (`--select schema-`) does not pay for their Markdown.
    docs_dir = folder("docs", settings.docs)
    if docs_dir:
        for rel in _files(settings.docs, "**/*.md"):
            page = reader.read_markdown_later(rel)
            if page is not None:
                pages.later(rel, page)

    rfcs_dir = folder("rfcs", settings.rfcs) if conventions.rfcs_enabled else None
    if rfcs_dir:
        for rel in _files(settings.rfcs, conventions.rfc_files):
            if not conventions.is_rfc_file(_below(settings.rfcs, rel)):
                continue
            text = reader.read_text(rel)
            if text is not None:
                rfcs.later(rel, partial(_rfc, reader, reader.relative(rel), text), text)

    api_dir = optional("api", settings.api, "folder")
    if api_dir:
        for path in sorted(
            {*_files(settings.api, "*.yaml"), *_files(settings.api, "*.yml"), *_files(settings.api, "*.json")}
        ):
            ydoc = reader.read_yaml(path)
            if ydoc is not None:
                corpus.api[ydoc.path] = ydoc
        _read_api_shared(corpus, reader, excluded)

    invariants = optional("invariants", settings.invariants, "file")
    if invariants:
        corpus.invariants = reader.read_yaml(invariants)

    changelog = optional("changelog", settings.changelog, "file")
    if changelog:
        page = reader.read_markdown_later(changelog)
        if page is not None:
            changelogs.later(reader.relative(changelog), page)

    for entry, listed_matches in instance_files:
        matched = _kept(listed_matches)
        if not matched and not listed.truncated:
            what = "matches only files `exclude` names" if listed_matches else "matches no file"
            diagnostics.append(
                INSTANCE_UNMATCHED.at(
                    settings.source_path(),
                    entry.line,
                    f"[tool.wopgen] instances: files = {entry.files!r} {what}, so nothing is validated "
                    f"against {entry.target}",
                    "correct the glob: it is relative to the corpus root, `*` stays within a folder and `**` "
                    "crosses folders (build/, .git/ and the other ignored folders are never listed)",
                    col=entry.col,
                )
            )
        for rel in filter(reader.named, matched):  # a name that is not UTF-8 is reported, not read
            doc = reader.read_json(rel, INSTANCE_INVALID_JSON)
            if doc is not None:
                corpus.instances.append(Instance(entry, doc))
    corpus.sources = reader.sources
    if not corpus.schemas and not corpus.rfcs and not corpus.docs and not listed.truncated:
        diagnostics.append(
            EMPTY.at(
                settings.source_path(),
                settings.line("schemas"),
                f"no schema ({settings.schemas}/*{settings.conventions.schema_suffix}), RFC ({settings.rfcs}/*.md) or page "
                f"({settings.docs}/**/*.md) was found in {settings.root}; there is nothing to check",
                "point --root at the corpus, or set schemas, rfcs and docs in [tool.wopgen]",
            )
        )
    return corpus


def _linked_folders(settings: Settings, listed: Listing) -> list[Diagnostic]:
    """A finding for each link to a folder through which a part of the corpus would be read: the part
    itself or a folder above it (`docs = "spec/v1"`, `spec/v1` a link), or a folder below a part read
    recursively (the pages, the examples, schemas with `schemas-recursive`). The walk never enters a
    link to a folder, so a loop cannot trap it; the files in one would be left out in silence."""
    conventions = settings.conventions
    # (part, folder, what it reads below its folder: the suffix of its files, or None when not recursive)
    schemas = conventions.schema_suffix if conventions.schemas_recursive else None
    parts = [("schemas", settings.schemas, schemas), ("docs", settings.docs, ".md")]
    parts += [("examples", settings.examples, ".json"), ("api", settings.api, None)]
    parts += [("rfcs", settings.rfcs, None)] if conventions.rfcs_enabled else []
    found = []
    for link in sorted(listed.linked, key=_path_order):
        real = os.path.realpath(settings.root / link)
        target = os.path.relpath(real, settings.root).replace(os.sep, "/")
        for name, relative, suffix in parts:
            part = posixpath.normpath(relative)
            if part == link or part.startswith(link + "/"):
                hint = f"replace the link with the folder, or set {name} in [tool.wopgen] to the folder it leads to"
            elif suffix is not None and (part == "." or link.startswith(part + "/")):
                if _below_or_at(part, target):
                    break  # a loop, or a second name for a folder of the part: its files are read there
                if not holds_file(Path(real), suffix):
                    continue  # images, scripts: nothing the part would read
                hint = "replace the link with the folder it leads to"
            else:
                continue
            rule = OUTSIDE_ROOT if link in listed.escaping else UNREADABLE
            message = f"a link to a folder; links to folders are not followed, so the {name} files in it are not read"
            found.append(rule.at(link, 1, message, hint))
            break
    return found


def _below_or_at(folder: str, relative: str) -> bool:
    """Whether the normalised relative path `relative` is `folder` or lies below it."""
    if relative == ".." or relative.startswith("../"):
        return False
    return folder == "." or relative == folder or relative.startswith(folder + "/")


def _path_order(relative: str) -> list[str]:
    """Sort key of relative paths: folder by folder, as paths (not strings) compare."""
    return relative.split("/")


def _below(folder: str, relative: str) -> str:
    """`relative` (a listed file below `folder`) relative to `folder`."""
    normal = posixpath.normpath(folder)
    return relative if normal == "." else relative[len(normal) + 1 :]


def _rfc(reader: _Reader, rel: str, text: str) -> Rfc:
    return parse_rfc(rel, text, posixpath.basename(rel), partial(reader.parse_markdown, rel, text))


def _suffix(name: str) -> str:
    """The suffix of a file name as `pathlib` reads it (`.why`; none for `.why` itself)."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def _why(rel: str) -> str:
    """The note beside an example: its name with `.why` for `.json`."""
    return rel.removesuffix(".json") + _WHY_SUFFIX


_EXAMPLE_NAME = re.compile(r"^[^/]+\.json$")


def _load_def_examples(corpus: Corpus, reader: _Reader, found: list[tuple[str, str]]) -> None:
    """The per-`$defs` layout: `<DefName>/*.json` and `<DefName>/valid/*.json` are valid examples,
    `<DefName>/invalid/*.json` invalid ones, each of `examples-schema#/$defs/<DefName>`."""
    for rel, inner in found:
        parts = inner.split("/")
        if _suffix(parts[-1]) == _WHY_SUFFIX and len(parts) == 3 and parts[1] == "invalid":
            continue
        flat = len(parts) == 2 and _EXAMPLE_NAME.match(parts[1])
        nested = len(parts) == 3 and parts[1] in _EXAMPLE_KINDS and _EXAMPLE_NAME.match(parts[2])
        if not (flat or nested):
            corpus.load_diagnostics.append(
                EXAMPLE_MISPLACED.at(
                    rel,
                    1,
                    "not an example location",
                    "put examples at <DefName>/*.json (valid), <DefName>/valid/*.json or <DefName>/invalid/*.json",
                )
            )
            continue
        doc = reader.read_json(rel, EXAMPLE_INVALID_JSON)
        if doc is None:
            continue
        kind = parts[1] if nested else "valid"
        why_path = _why(rel)
        listed = why_path in corpus.files
        why = (reader.read_text(why_path) or "").strip() if kind == "invalid" and listed else ""
        corpus.examples.append(Example(parts[0], kind, doc, why, def_name=parts[0]))


def _load_examples(corpus: Corpus, reader: _Reader, found: list[tuple[str, str]]) -> None:
    # With schemas-recursive, a schema below a sub-folder keeps it in its name (envelopes/error), and
    # so does its examples folder (envelopes/error/valid/*.json).
    depth = None if corpus.settings.conventions.schemas_recursive else 3
    for rel, inner in found:
        parts = inner.split("/")
        shaped = len(parts) >= 3 and (depth is None or len(parts) == depth) and parts[-2] in _EXAMPLE_KINDS
        if _suffix(parts[-1]) == _WHY_SUFFIX and shaped and parts[-2] == "invalid":
            continue  # read alongside its example below
        if not shaped or not _EXAMPLE_NAME.match(parts[-1]):
            corpus.load_diagnostics.append(
                EXAMPLE_MISPLACED.at(
                    rel,
                    1,
                    "not an example location",
                    "put examples at <schema-name>/valid/*.json or <schema-name>/invalid/*.json",
                )
            )
            continue
        doc = reader.read_json(rel, EXAMPLE_INVALID_JSON)
        if doc is None:
            continue
        why = ""
        why_path = _why(rel)
        if parts[-2] == "invalid" and why_path in corpus.files:
            text = reader.read_text(why_path)
            why = (text or "").strip()
        corpus.examples.append(Example("/".join(parts[:-2]), parts[-2], doc, why))

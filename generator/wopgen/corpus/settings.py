"""Corpus settings: where the corpus lives and how it is laid out (`[tool.wopgen]`)."""

from __future__ import annotations

import hashlib
import itertools
import posixpath
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from wopgen.corpus.conventions import (
    CONVENTION_KEYS,
    ConventionError,
    Conventions,
    Setting,
    convention_reference,
    default_text,
    key_of,
    parse_conventions,
)

PYPROJECT = "pyproject.toml"
TABLE = "[tool.wopgen]"
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]")
_KEY = re.compile(r"""^\s*("?)([A-Za-z0-9_-]+)\1\s*=""")


class SettingsError(Exception):
    """The settings are missing or malformed; the CLI reports this as a usage error (exit 2)."""


class SettingsMissing(SettingsError):
    """There is no `[tool.wopgen]` table to read: no pyproject.toml, or one without the table."""


@dataclass(frozen=True)
class Settings:
    """Where each part of the corpus lives, relative to the corpus root."""

    root: Path
    schemas: str = "schemas"
    examples: str = "schemas/examples"
    docs: str = "spec/v1"
    rfcs: str = "spec/rfcs"
    api: str = "spec/api"
    invariants: str = "spec/security/invariants.yaml"
    changelog: str = "CHANGELOG.md"
    id_base: str = "https://openwop.dev/spec/v1/"
    external_rfcs: frozenset[int] = field(default_factory=frozenset)
    reserved_rfcs: frozenset[int] = field(default_factory=frozenset)  # numbers another RFC series uses
    baseline: str | None = None
    models_package: str = "wop_models"
    instances: tuple[InstanceSet, ...] = ()  # files outside the examples validated against a schema
    conventions: Conventions = field(default_factory=Conventions)  # the house rules (corpus/conventions.py)
    source: Path | None = None  # the file the table was read from (pyproject.toml, or --config FILE)
    source_digest: str = field(default="", compare=False)  # a hash of that file's text, as it was read
    rules: RuleSettings = field(default_factory=lambda: RuleSettings())  # [tool.wopgen.rules]
    site: SiteSettings = field(default_factory=lambda: SiteSettings())  # [tool.wopgen.site]
    # The pyproject.toml line of each key as written there (`id-base`, not `id_base`), and of the
    # table header under "[tool.wopgen]"; diagnostics about a setting point at it.
    lines: Mapping[str, int] = field(default_factory=dict, compare=False)
    configured: frozenset[str] = field(default_factory=frozenset)  # the keys [tool.wopgen] sets itself

    def path(self, relative: str) -> Path:
        return self.root / relative

    def names(self, key: str) -> bool:
        """Whether `[tool.wopgen]` sets `key` itself (rather than leaving the default)."""
        return key in self.configured

    def line(self, key: str) -> int:
        """The pyproject.toml line of `key`, else of the [tool.wopgen] header, else 1."""
        return self.lines.get(key) or self.lines.get(TABLE, 1)

    def source_path(self) -> str:
        """The settings file as a finding names it: relative to the root when it lies inside it (as
        `pyproject.toml` does), else its absolute path (a `--config` file kept elsewhere)."""
        if self.source is None:
            return PYPROJECT
        try:
            return self.source.relative_to(self.root).as_posix()
        except ValueError:
            return self.source.as_posix()


@dataclass(frozen=True)
class InstanceSet:
    """One entry of `instances`: the files a glob matches (relative to the corpus root) are JSON
    documents that must validate against `schema` (relative to the schemas folder), or against the
    subschema at `pointer` inside it."""

    files: str
    schema: str
    pointer: str = ""
    line: int = field(default=1, compare=False)  # where the entry is written in the settings file
    col: int = field(default=1, compare=False)

    @property
    def target(self) -> str:
        """The schema as the setting names it: `name.schema.json`, or `name.schema.json#/$defs/X`."""
        return f"{self.schema}#{self.pointer}" if self.pointer else self.schema


# (key, field, kind, meaning) of every key that says where the corpus lives and what it is called;
# the default shown for each is the `Settings` field's own. The conventions add theirs
# (corpus/conventions.py); `wopgen config` documents both from these two tables.
_PARTS: tuple[tuple[str, str, str, str], ...] = (
    ("schemas", "schemas", "path", "Folder of the JSON Schemas (`*.schema.json`; see `schema-suffix`)."),
    ("examples", "examples", "path", "Folder of the schema examples; optional unless set (see `examples-layout`)."),
    ("docs", "docs", "path", "Folder of the normative prose pages (`**/*.md`)."),
    ("rfcs", "rfcs", "path", "Folder of the RFCs (see `rfc-files`, `rfc-exclude`, `rfcs-enabled`)."),
    (
        "api",
        "api",
        "path",
        "Folder of the API description: `operations.yaml`/`channels.yaml`, or an OpenAPI 3.1 and/or AsyncAPI 3.x "
        "document; optional unless set.",
    ),
    ("invariants", "invariants", "path", "The security invariants file; optional."),
    ("changelog", "changelog", "path", "The changelog (Keep a Changelog); optional unless set."),
    (
        "id-base",
        "id_base",
        "string",
        "Every schema's `$id` is this base followed by its path below the schemas folder; ends with `/`.",
    ),
    (
        "external-rfcs",
        "external_rfcs",
        "list of numbers",
        "RFC numbers the corpus cites that live elsewhere; citing them (and linking to their files) is no finding.",
    ),
    (
        "reserved-rfcs",
        "reserved_rfcs",
        "list of numbers",
        "RFC numbers another RFC series already uses; no RFC here may take one (`rfc-number-reserved`), "
        "and `wopgen rfc new` skips them.",
    ),
    ("baseline", "baseline", "string", "Git ref or folder `wopgen check` compares against for compatibility."),
    ("models-package", "models_package", "string", "Python package name of `wopgen models`."),
    (
        "instances",
        "instances",
        "list of tables",
        'JSON files outside the examples that must validate against a schema, each entry `{ files = "<glob>", '
        'schema = "<schema>" }`: `files` is relative to the corpus root (`*` within a folder, `**` across '
        "folders), `schema` relative to the schemas folder, optionally with a `#/$defs/...` JSON pointer "
        "(`instance-*` rules; a glob that matches nothing is `instance-unmatched`).",
    ),
)
_KEYS = {key: name for key, name, kind, _ in _PARTS if kind in ("path", "string")}  # string values
_NUMBER_LISTS = {key: name for key, name, kind, _ in _PARTS if kind == "list of numbers"}  # lists of RFC numbers


# (key, kind, meaning) of the keys of the `[tool.wopgen.rules]` and `[tool.wopgen.site]` tables, under
# their dotted names: `rules.select = [...]` in `[tool.wopgen]` is the same key as `select` in
# `[tool.wopgen.rules]`. Their defaults are those of `RuleSettings` and `SiteSettings`.
_TABLE_KEYS: tuple[tuple[str, str, str], ...] = (
    (
        "rules.select",
        "list of rule ids or prefixes",
        "Run only these rules (ids or prefixes such as `schema-`); `check --select` replaces the list.",
    ),
    ("rules.ignore", "list of rule ids or prefixes", "Never report these rules; `check --ignore` adds to the list."),
    (
        "rules.severity",
        "table of rule id or prefix -> error|warning|info",
        "Report these rules at another severity; of several matching prefixes the longest decides.",
    ),
    (
        "rules.per-path-ignores",
        "table of glob -> list of rule ids or prefixes",
        "Do not report these rules in the files a glob (from the corpus root) matches.",
    ),
    ("site.repo-url", "string", "Repository linked from the site's header (an http(s) URL); else `repository-url`."),
    (
        "site.edit-uri",
        "string",
        "Appended to the repository URL for the edit link of each page, e.g. `edit/main/`; empty means `blob/HEAD/`.",
    ),
    ("site.version", "string", "A version label in the footer of every page, after the site title."),
    ("site.description", "string", "What the corpus specifies, in the words the site's home page opens with."),
    (
        "site.raw-html",
        "bool",
        "Publish raw HTML written in pages and RFCs (trusted authors only); else it shows as text.",
    ),
)


def _table_values(settings: Settings) -> dict[str, object]:
    """The value `settings` holds for each key of `_TABLE_KEYS`."""
    rules, site = settings.rules, settings.site
    return {
        "rules.select": list(rules.select),
        "rules.ignore": list(rules.ignore),
        "rules.severity": dict(rules.severity),
        "rules.per-path-ignores": {glob: list(ids) for glob, ids in rules.per_path_ignores},
        "site.repo-url": site.repo_url,
        "site.edit-uri": site.edit_uri,
        "site.version": site.version,
        "site.description": site.description,
        "site.raw-html": site.raw_html,
    }


def settings_reference() -> tuple[Setting, ...]:
    """Every key of `[tool.wopgen]` with its kind, default and meaning, parts first; the keys of its
    `rules` and `site` tables last."""
    defaults = Settings(root=Path())
    parts = (Setting(key, kind, default_text(getattr(defaults, name)), meaning) for key, name, kind, meaning in _PARTS)
    table_defaults = _table_values(defaults)
    tables = (Setting(key, kind, default_text(table_defaults[key]), meaning) for key, kind, meaning in _TABLE_KEYS)
    return (*parts, *convention_reference(), *tables)


def setting_values(settings: Settings) -> dict[str, object]:
    """The value `settings` holds for every key `settings_reference` documents (lists of numbers sorted)."""
    values: dict[str, object] = {key: getattr(settings, name) for key, name in _KEYS.items()}
    values.update({key: sorted(getattr(settings, name)) for key, name in _NUMBER_LISTS.items()})
    values["instances"] = [{"files": entry.files, "schema": entry.target} for entry in settings.instances]
    for f in fields(settings.conventions):
        key = key_of(f.name)
        if key is not None:
            values[key] = getattr(settings.conventions, f.name)
    values.update(_table_values(settings))
    return values


# The settings that name a part of the corpus (their key is their field): each must stay inside the corpus root.
PARTS = tuple(name for _, name, kind, _ in _PARTS if kind == "path")


def find_settings(start: Path) -> Settings:
    """The settings of the first folder, from `start` up, whose pyproject.toml has `[tool.wopgen]`
    (each pyproject.toml on the way parsed once)."""
    here = start.resolve()
    for folder in (here, *here.parents):
        candidate = folder / PYPROJECT
        if not candidate.is_file():
            continue
        tool, text = _parse(candidate)
        if "wopgen" in tool:
            return _settings(folder, candidate, tool, text)
    raise SettingsError(
        f"no {PYPROJECT} with a [tool.wopgen] table in {here} or any parent folder; run inside a corpus or pass --root"
    )


def _parse(pyproject: Path) -> tuple[dict[str, Any], str]:
    """The [tool] table of `pyproject` and the file's text (read once)."""
    try:
        text = pyproject.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{pyproject}: cannot read settings: {exc}") from exc
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        raise SettingsError(f"{pyproject}: cannot read settings: values nested too deeply") from None
    tool = data.get("tool", {})
    return (tool if isinstance(tool, dict) else {}), text


def key_lines(text: str) -> dict[str, int]:
    """The line of the [tool.wopgen] header and of each `key = ...` directly under it (1-based)."""
    lines: dict[str, int] = {}
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            inside = header.group(1) == "tool.wopgen"
            if header.group(1) == "tool.wopgen.rules":
                lines.setdefault("rules", number)
            if header.group(1) == "tool.wopgen.instances":  # the [[tool.wopgen.instances]] form
                lines.setdefault("instances", number)
            if inside:
                lines[TABLE] = number
            continue
        key = _KEY.match(line) if inside else None
        if key:
            lines.setdefault(key.group(2), number)
    return lines


def load_settings(root: Path, config: Path | None = None) -> Settings:
    """Read `[tool.wopgen]` from `root/pyproject.toml`, or from `config` when given (paths in it are
    still relative to `root`); unknown keys are an error."""
    pyproject = config if config is not None else root / PYPROJECT
    if not pyproject.is_file():
        if config is not None:
            raise SettingsError(f"{config}: no such settings file")
        raise SettingsMissing(f"{root}: no {PYPROJECT} with a [tool.wopgen] table here")
    tool, text = _parse(pyproject)
    return _settings(root, pyproject, tool, text)


def _settings(root: Path, pyproject: Path, tool: dict[str, Any], text: str) -> Settings:
    table = tool.get("wopgen")
    if not isinstance(table, dict):
        raise SettingsMissing(f"{pyproject}: no [tool.wopgen] table")
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key in _NUMBER_LISTS:
            if not isinstance(value, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in value):
                raise SettingsError(f"{pyproject}: {key} must be a list of RFC numbers")
            values[_NUMBER_LISTS[key]] = frozenset(value)
        elif key in CONVENTION_KEYS:
            continue  # read below by parse_conventions
        elif key == "rules":
            values["rules"] = rule_settings(pyproject, value)
        elif key == "site":
            values["site"] = site_settings(pyproject, value)
        elif key == "instances":
            values["instances"] = instance_sets(pyproject, root.resolve(), value, text)
        elif key in _KEYS:
            if not isinstance(value, str):
                raise SettingsError(f"{pyproject}: [tool.wopgen] {key} must be a string")
            values[_KEYS[key]] = value
        else:
            known = ", ".join(sorted([*_KEYS, *_NUMBER_LISTS, *CONVENTION_KEYS, "instances", "rules", "site"]))
            raise SettingsError(f"{pyproject}: unknown [tool.wopgen] key {key!r} (known: {known})")
    base = values.get("id_base", Settings.id_base)
    if not base.endswith("/"):
        raise SettingsError(f"{pyproject}: id-base must end with '/' (got {base!r})")
    for part in PARTS:
        if part in values:
            _inside_root(pyproject, root.resolve(), part, values[part])
    try:
        conventions = parse_conventions(table)
    except ConventionError as exc:
        raise SettingsError(f"{pyproject}: [tool.wopgen] {exc}") from None
    configured = frozenset(table)
    return Settings(
        root=root.resolve(),
        lines=key_lines(text),
        configured=configured,
        conventions=conventions,
        source=pyproject.resolve(),
        source_digest=hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest(),
        **values,
    )


def _inside_root(pyproject: Path, root: Path, key: str, value: str) -> None:
    """A part of the corpus is a path below the corpus root: not absolute, no way out through `..` or a link."""
    if "\x00" in value:
        raise SettingsError(f"{pyproject}: [tool.wopgen] {key} = {value!r} holds a NUL byte; give a plain path")
    try:
        target = (root / value).resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, an unusable name
        raise SettingsError(f"{pyproject}: [tool.wopgen] {key} = {value!r} cannot be resolved: {exc}") from None
    if Path(value).is_absolute() or not value.strip() or not target.is_relative_to(root):
        raise SettingsError(
            f"{pyproject}: [tool.wopgen] {key} = {value!r} is not a path inside the corpus root {root}; "
            "give a path relative to pyproject.toml that stays below it"
        )


# --- instances: JSON files validated against a schema ------------------------------------------------

_INSTANCE_KEYS = ("files", "schema")
_WILDCARDS = re.compile(r"[*?\[]")
_POINTER_TOKEN = re.compile(r"^(?:[^~]|~[01])*$")


def instance_sets(pyproject: Path, root: Path, value: object, text: str) -> tuple[InstanceSet, ...]:
    """Read `instances`: a list of tables `{ files = "<glob>", schema = "<schema>[#/pointer]" }`.

    Its shape is checked here, and that each glob stays below the corpus root; whether the schema
    exists and the pointer leads somewhere is asked of the loaded corpus (`instance-schema-unresolved`),
    as a part that does not exist is (`corpus-missing`)."""
    shape = 'a list of tables, each { files = "<glob>", schema = "<schema file>" }'
    if not isinstance(value, list):
        raise SettingsError(f"{pyproject}: [tool.wopgen] instances must be {shape}")
    places = _instance_places(text, value)
    entries: list[InstanceSet] = []
    for index, entry in enumerate(value):
        name = f"[tool.wopgen] instances[{index}]"
        if not isinstance(entry, dict):
            raise SettingsError(f"{pyproject}: {name} must be a table such as {shape.split('each ', 1)[1]}")
        unknown = sorted(set(entry) - set(_INSTANCE_KEYS))
        if unknown:
            raise SettingsError(
                f"{pyproject}: unknown key {unknown[0]!r} in {name} (known: {', '.join(_INSTANCE_KEYS)})"
            )
        for key in _INSTANCE_KEYS:
            found = entry.get(key)
            if not isinstance(found, str) or not found.strip() or "\x00" in found:
                what = (
                    "a glob relative to the corpus root" if key == "files" else "a schema file below the schemas folder"
                )
                raise SettingsError(f'{pyproject}: {name} needs {key} = "...", {what}')
        files, schema = entry["files"], entry["schema"]
        _glob_inside_root(pyproject, root, name, files)
        path, _, fragment = schema.partition("#")
        normal = posixpath.normpath(path) if path else ""
        if not path or path.startswith("/") or normal == ".." or normal.startswith("../"):
            raise SettingsError(
                f"{pyproject}: {name} schema = {schema!r} is not a path below the schemas folder; "
                "name the schema file relative to it (workflow-definition.schema.json)"
            )
        if fragment and (not fragment.startswith("/") or not all(map(_POINTER_TOKEN.match, fragment.split("/")))):
            raise SettingsError(
                f"{pyproject}: {name} schema = {schema!r}: what follows '#' must be a JSON pointer such as "
                "#/$defs/Name (a '/' before each member, '~' written ~0 and '/' inside a name ~1)"
            )
        line, col = places[index]
        entries.append(InstanceSet(files, normal, fragment, line=line, col=col))
    return tuple(entries)


def _glob_inside_root(pyproject: Path, root: Path, name: str, glob: str) -> None:
    """A glob of instance files stays below the corpus root: relative, no `..`, and its fixed folders
    (those before the first wildcard) no link out of the root."""
    parts = glob.split("/")
    fixed = list(itertools.takewhile(lambda part: not _WILDCARDS.search(part), parts))
    try:
        target = (root / "/".join(fixed)).resolve() if fixed else root
    except (OSError, RuntimeError, ValueError):
        target = None
    if Path(glob).is_absolute() or ".." in parts or target is None or not target.is_relative_to(root):
        raise SettingsError(
            f"{pyproject}: {name} files = {glob!r} leaves the corpus root {root}; give a glob relative to the "
            "corpus root that stays below it (conformance-fixtures/**/*.json)"
        )


def _instance_places(text: str, entries: list[Any]) -> list[tuple[int, int]]:
    """The settings-file line and column of each entry: where its `files = "..."` is written, searched
    in order from the `instances` key (TOML keeps no positions), else the line of that key."""
    known = key_lines(text)
    start = known.get("instances") or known.get(TABLE, 1)
    at = sum(len(line) for line in text.splitlines(keepends=True)[: start - 1])
    found: list[tuple[int, int]] = []
    for entry in entries:
        glob = entry.get("files") if isinstance(entry, dict) else None
        match = (
            re.compile(r"""\bfiles\s*=\s*(["'])""" + re.escape(glob) + r"\1").search(text, at)
            if isinstance(glob, str)
            else None
        )
        if match is None:
            found.append((start, 1))
            continue
        line_start = text.rfind("\n", 0, match.start()) + 1
        found.append((text.count("\n", 0, match.start()) + 1, match.start() - line_start + 1))
        at = match.end()
    return found


# --- [tool.wopgen.rules]: which rules run, at which severity, and where they are ignored ------------


@dataclass(frozen=True)
class RuleSettings:
    """`[tool.wopgen.rules]`: `select` and `ignore` (rule ids or prefixes, as on the command line),
    `severity` (rule id or prefix -> error|warning|info) and `per-path-ignores` (glob -> ids)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: tuple[tuple[str, str], ...] = ()
    per_path_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()


_SEVERITIES = ("error", "warning", "info")


def _id_list(pyproject: Path, key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise SettingsError(f"{pyproject}: [tool.wopgen.rules] {key} must be a list of rule ids or prefixes")
    return tuple(v.strip() for v in value)


def rule_settings(pyproject: Path, table: object) -> RuleSettings:
    """Read `[tool.wopgen.rules]`; its shape is checked here, its rule ids by the CLI against the catalogue."""
    if not isinstance(table, dict):
        raise SettingsError(f"{pyproject}: [tool.wopgen] rules must be a table ([tool.wopgen.rules])")
    known = ("select", "ignore", "severity", "per-path-ignores")
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise SettingsError(f"{pyproject}: unknown [tool.wopgen.rules] key {unknown[0]!r} (known: {', '.join(known)})")
    severity = table.get("severity", {})
    if not isinstance(severity, dict) or not all(v in _SEVERITIES for v in severity.values()):
        raise SettingsError(
            f"{pyproject}: [tool.wopgen.rules] severity must map rule ids to one of {', '.join(_SEVERITIES)}"
        )
    paths = table.get("per-path-ignores", {})
    if not isinstance(paths, dict):
        raise SettingsError(f"{pyproject}: [tool.wopgen.rules] per-path-ignores must map globs to lists of rule ids")
    return RuleSettings(
        select=_id_list(pyproject, "select", table.get("select", [])),
        ignore=_id_list(pyproject, "ignore", table.get("ignore", [])),
        severity=tuple(sorted(severity.items())),
        per_path_ignores=tuple(
            (glob, _id_list(pyproject, f"per-path-ignores {glob!r}", ids)) for glob, ids in sorted(paths.items())
        ),
    )


# --- [tool.wopgen.site]: what the docs site says about where the corpus lives --------------------


@dataclass(frozen=True)
class SiteSettings:
    """`[tool.wopgen.site]`: `repo-url` (the repository link in the header), `edit-uri` (appended to
    it for the edit link of every page rendered from a corpus file, e.g. `edit/main/`) and
    `version` (the label shown next to the site name) and `description` (what the corpus specifies, in
    the words the home page opens with; without one it opens neutrally)."""

    repo_url: str = ""
    edit_uri: str = ""
    version: str = ""
    description: str = ""
    raw_html: bool = False  # `raw-html = true`: publish raw HTML written in pages and RFCs (trusted authors only)


def site_settings(pyproject: Path, table: object) -> SiteSettings:
    if not isinstance(table, dict):
        raise SettingsError(f"{pyproject}: [tool.wopgen] site must be a table ([tool.wopgen.site])")
    keys = {"repo-url": "repo_url", "edit-uri": "edit_uri", "version": "version", "description": "description"}
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key == "raw-html":
            if not isinstance(value, bool):
                raise SettingsError(f"{pyproject}: [tool.wopgen.site] raw-html must be true or false")
            values["raw_html"] = value
            continue
        if key not in keys:
            raise SettingsError(
                f"{pyproject}: unknown [tool.wopgen.site] key {key!r} (known: {', '.join([*keys, 'raw-html'])})"
            )
        if not isinstance(value, str):
            raise SettingsError(f"{pyproject}: [tool.wopgen.site] {key} must be a string")
        values[keys[key]] = value
    if values.get("repo_url") and not values["repo_url"].startswith(("https://", "http://")):
        raise SettingsError(f"{pyproject}: [tool.wopgen.site] repo-url must be an http(s) URL")
    return SiteSettings(**values)

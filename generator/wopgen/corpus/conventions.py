"""The conventions of a corpus: every house rule the checks apply that another corpus may not share.

Each convention is a key of `[tool.wopgen]` whose default keeps the strictness this repository has
always had, so a corpus that sets none of them is checked exactly as before. `_CONVENTIONS` documents
each (key, field, kind, meaning; the default is the dataclass's), `settings.py` adds the keys saying
where the corpus lives, and `wopgen config` prints both.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import PurePosixPath
from typing import Any

from wopgen.corpus.files import inside
from wopgen.corpus.rfc import SECTIONS as RFC_SECTIONS

BANNER_LEVELS = ("Stable", "Stabilizing", "Draft", "Experimental", "Deprecated")
DIRECTIONS = ("client-sent", "host-emitted", "artifact")
# The opening of a status banner: `> **Status: Draft**` (the level alone inside the bold).
BANNER_PATTERN = r"^>\s*\*\*Status:\s*(?P<level>[A-Za-z]+)\*\*"
EXAMPLE_LAYOUTS = ("per-schema", "per-def")
AFFECTS_MODES = ("backticked", "path-like")
SECTION_MATCHES = ("exact", "prefix")
EXAMPLE_KINDS = ("valid", "invalid")


class ConventionError(ValueError):
    """A convention key holds a value of the wrong kind; the message names the key."""


@dataclass(frozen=True)
class Conventions:
    """The house rules of one corpus (see `_CONVENTIONS` for what each means)."""

    direction_required: bool = True
    direction_key: str = "x-wop-direction"
    directions: tuple[str, ...] = DIRECTIONS
    schemas_recursive: bool = False
    schema_suffix: str = ".schema.json"
    examples_layout: str = "per-schema"
    examples_schema: str = ""
    examples_required: tuple[str, ...] = EXAMPLE_KINDS
    rfcs_enabled: bool = True
    rfc_files: str = "*.md"
    rfc_exclude: tuple[str, ...] = ("README.md",)
    rfc_sections: tuple[str, ...] = RFC_SECTIONS
    rfc_section_match: str = "exact"
    affects_paths: str = "backticked"
    banner_pattern: str = BANNER_PATTERN
    banner_levels: tuple[str, ...] = BANNER_LEVELS
    external_paths: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    site_title: str = "OpenWOP v1"
    repository_url: str = ""

    # --- questions the checks ask ------------------------------------------------------

    def is_rfc_file(self, relative: str) -> bool:
        """Whether a file below the RFC folder (path relative to it) is an RFC, not a template or index."""
        path = PurePosixPath(relative)
        if any(path.match(pattern) or path.name.lower() == pattern.lower() for pattern in self.rfc_exclude):
            return False
        return path.match(self.rfc_files) or (self.rfc_files.startswith("**/") and path.match(self.rfc_files[3:]))

    def section_present(self, wanted: str, titles: set[str]) -> bool:
        """Whether an H2 title of `titles` (lower case) is the section `wanted` under the match rule."""
        key = wanted.strip().lower()
        if self.rfc_section_match == "exact":
            return key in titles
        return any(t == key or (t.startswith(key) and not t[len(key) : len(key) + 1].isalnum()) for t in titles)

    def section_title(self, wanted: str, titles: list[str]) -> str | None:
        """The first H2 title that is the section `wanted` (any case), or None."""
        for title in titles:
            if self.section_present(wanted, {title.strip().lower()}):
                return title
        return None

    def is_external(self, relative: str) -> bool:
        """Whether a cited path is declared to live outside this checkout (`external-paths`)."""
        path = PurePosixPath(relative)
        return any(path.match(pattern) or relative == pattern.rstrip("/") for pattern in self.external_paths)


# Repository paths as Affects writes them: `schemas/x.schema.json`, `spec/v1/page.md#anchor`,
# `RFCS/0037`, `CHANGELOG.md`. No spaces, no leading slash (an HTTP route), and either a folder
# separator or a file extension of a document type.
_PATH_LIKE = re.compile(r"^(?:[\w.-]+/)+[\w.{}*-]*/?$|^[\w-]+(?:\.[\w-]+)*\.(?:md|json|ya?ml|toml|txt)$")


def looks_like_path(token: str) -> bool:
    """Whether a backticked Affects token reads as a repository path rather than a field or a route."""
    return bool(_PATH_LIKE.match(token.split("#", 1)[0]))


_RFC_FILE = re.compile(r"^(\d{4})-[^/]*\.md$")


def numbered_rfc(relative: str, rfcs_folder: str) -> int | None:
    """The number of an RFC file path (`<rfcs>/NNNN-slug.md`) or RFC folder shorthand (`<rfcs>/NNNN`)."""
    folder, _, name = relative.rstrip("/").rpartition("/")
    if posixpath.normpath(folder or ".") != posixpath.normpath(rfcs_folder):
        return None
    if name.isdigit() and len(name) == 4:
        return int(name)
    numbered = _RFC_FILE.match(name)
    return int(numbered.group(1)) if numbered else None


@dataclass(frozen=True)
class Setting:
    """One documented key of `[tool.wopgen]`."""

    key: str
    kind: str
    default: str
    meaning: str


# (key, field, kind, meaning); the default is read from the dataclass.
_CONVENTIONS: tuple[tuple[str, str, str, str], ...] = (
    (
        "direction-required",
        "direction_required",
        "bool",
        "Whether every schema must declare who produces its instances under `direction-key` "
        "(`schema-direction`). When false, a declared value is still checked.",
    ),
    ("direction-key", "direction_key", "string", "The schema keyword holding the direction annotation."),
    ("directions", "directions", "list of strings", "The values the direction annotation may take."),
    (
        "schemas-recursive",
        "schemas_recursive",
        "bool",
        "Whether schemas in sub-folders of the schemas folder are loaded too (`envelopes/*.schema.json`); "
        "their `$id` is `id-base` + the path below the schemas folder.",
    ),
    (
        "schema-suffix",
        "schema_suffix",
        "string",
        "How the name of a schema file ends: the files in the schemas folder so named are the schemas, and a "
        "schema's name is its file name without it (`.json` reads a folder of plain `name.json` schemas as "
        "it is). Files below the examples folder are never read as schemas.",
    ),
    (
        "examples-layout",
        "examples_layout",
        "per-schema | per-def",
        "`per-schema`: `<examples>/<schema-name>/{valid,invalid}/*.json` against each schema; "
        "`per-def`: `<examples>/<DefName>/*.json` (valid) and `<DefName>/invalid/*.json` against "
        "`<examples-schema>#/$defs/<DefName>` of one single-file schema.",
    ),
    (
        "examples-schema",
        "examples_schema",
        "path",
        'With `examples-layout = "per-def"`: the single-file schema, relative to the schemas folder.',
    ),
    (
        "examples-required",
        "examples_required",
        "list of valid/invalid",
        "Which kinds of example every schema (or `$def` folder) must have (`example-missing`); "
        '`["valid"]` allows valid-only folders, `[]` asks for none.',
    ),
    ("rfcs-enabled", "rfcs_enabled", "bool", "False says the corpus has no RFCs: the RFC folder is not read."),
    ("rfc-files", "rfc_files", "glob", "Which files below the RFC folder are RFCs."),
    (
        "rfc-exclude",
        "rfc_exclude",
        "list of globs",
        "Files below the RFC folder that are not RFCs (an index, a template such as `0000-template.md`).",
    ),
    ("rfc-sections", "rfc_sections", "list of strings", "The H2 sections every RFC must have (`rfc-section-missing`)."),
    (
        "rfc-section-match",
        "rfc_section_match",
        "exact | prefix",
        "`exact`: the H2 title is the section name; `prefix`: it starts with it (`## Proposal — Phased` is "
        "`Proposal`).",
    ),
    (
        "affects-paths",
        "affects_paths",
        "backticked | path-like",
        "Which backticked Affects items must exist (`rfc-affects-missing`) and are shown as files on the RFC's "
        "card: all of them, or only those that look like repository paths (a `/` or a document extension; "
        "`RFCS/0037` names the RFC file numbered 0037).",
    ),
    (
        "banner-pattern",
        "banner_pattern",
        "regex",
        "How a status banner opens (`doc-banner`); a named group `level` captures the status level.",
    ),
    ("banner-levels", "banner_levels", "list of strings", "The status levels a banner may name."),
    (
        "external-paths",
        "external_paths",
        "list of globs",
        "Files the corpus links to or names in Affects that live outside this checkout (a partial copy); "
        "a link to one is not `doc-link-broken`.",
    ),
    (
        "exclude",
        "exclude",
        "list of globs",
        "Files no part of the corpus reads, as globs relative to the corpus root; a folder covers what is below "
        "it (another corpus's schemas in a sub-folder, a tool's configuration in the API folder). They stay on "
        "disk, so a link to one still resolves.",
    ),
    ("site-title", "site_title", "string", "Title of the docs site and of `wopgen init`'s pages."),
    (
        "repository-url",
        "repository_url",
        "string",
        "URL of the corpus's repository (the site's `repo-url` overrides it there). The docs site links it from"
        " its header and edit links, and a page's link to a file it does not publish (a test, a script) to the"
        " file in the repository.",
    ),
)

CONVENTION_KEYS = frozenset(key for key, *_ in _CONVENTIONS)


def default_text(value: Any) -> str:
    """A default as `wopgen config` shows it: TOML-like, `none` for no value."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, frozenset):
        return "[" + ", ".join(str(v) for v in sorted(value)) + "]"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(f'"{v}"' for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f'"{k}" = {default_text(v)}' for k, v in value.items()) + "}"
    return f'"{value}"' if value else '""'


def convention_reference() -> tuple[Setting, ...]:
    """Every convention key of `[tool.wopgen]` with its kind, default and meaning."""
    defaults = Conventions()
    return tuple(
        Setting(key, kind, default_text(getattr(defaults, name)), meaning) for key, name, kind, meaning in _CONVENTIONS
    )


def key_of(name: str) -> str | None:
    """The `[tool.wopgen]` key of a `Conventions` field, or None for a derived one."""
    return next((key for key, field_name, *_ in _CONVENTIONS if field_name == name), None)


_CHOICES = {
    "examples_layout": EXAMPLE_LAYOUTS,
    "rfc_section_match": SECTION_MATCHES,
    "affects_paths": AFFECTS_MODES,
}


def parse_conventions(table: Mapping[str, Any]) -> Conventions:
    """The conventions named in `table` (the `[tool.wopgen]` keys in CONVENTION_KEYS), defaults elsewhere."""
    names = {key: name for key, name, *_ in _CONVENTIONS}
    types = {f.name: f.default for f in fields(Conventions) if f.init}
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in names:
            continue
        name = names[key]
        default = types[name]
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ConventionError(f"{key} must be true or false")
        elif isinstance(default, tuple):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConventionError(f"{key} must be a list of strings")
            value = tuple(value)
        elif not isinstance(value, str):
            raise ConventionError(f"{key} must be a string")
        values[name] = value
    for name, choices in _CHOICES.items():
        if name in values and values[name] not in choices:
            key = next(k for k, n in names.items() if n == name)
            raise ConventionError(f"{key} must be one of {', '.join(choices)} (got {values[name]!r})")
    if "examples_required" in values and not set(values["examples_required"]) <= set(EXAMPLE_KINDS):
        raise ConventionError("examples-required may list only valid and invalid")
    if values.get("examples_layout") == "per-def" and not values.get("examples_schema"):
        raise ConventionError('examples-layout = "per-def" needs examples-schema (the single-file schema)')
    for pattern in values.get("exclude", ()):
        if not inside(pattern) or ".." in pattern.split("/"):
            raise ConventionError(f"exclude: {pattern!r} is not a glob inside the corpus root")
    suffix = values.get("schema_suffix")
    if suffix is not None and (not suffix.startswith(".") or not suffix.endswith(".json") or "/" in suffix):
        raise ConventionError(
            f"schema-suffix must be a file name ending such as .schema.json or .json (got {suffix!r})"
        )
    url = values.get("repository_url")
    if url and not url.startswith(("https://", "http://")):
        raise ConventionError(f"repository-url must be an http(s) URL (got {url!r})")
    pattern = values.get("banner_pattern")
    if pattern is not None:
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise ConventionError(f"banner-pattern is not a regular expression: {exc}") from None
        if "level" not in compiled.groupindex:
            raise ConventionError("banner-pattern needs a named group (?P<level>...) for the status level")
    return Conventions(**values)

"""Broken corpora give findings and exit codes through the real CLI, never a traceback.

Each case is a corpus the review of the toolchain crashed or passed in silence: a schema keyword of
the wrong type (the `$ref` registry could not crawl it), a rendered OpenAPI document validated after
the schema checks had failed, a generator (`api`, `site build`) that wrote output from a corpus
whose API description does not parse, and a `[tool.wopgen]` path that switched checks off.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from referencing.exceptions import Unresolvable

from support.api_corpus import api_files
from support.corpus_factory import PYPROJECT, good_files, write
from wopgen.checks import api as api_checks
from wopgen.cli import cli
from wopgen.corpus import load
from wopgen.diagnostics import Diagnostic

THING = "schemas/thing.schema.json"
PAYLOADS = "schemas/run-event-payloads.schema.json"
OPS = "spec/api/operations.yaml"
RUN_EVENT_ID = "https://openwop.dev/spec/v1/run-event.schema.json"


def run(root: Path, *args: str) -> Result:
    """The real CLI; an exception escaping it fails the test instead of being caught by the runner."""
    result = CliRunner().invoke(cli, ["--root", str(root), *args], catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def findings(result: Result) -> list[dict[str, Any]]:
    data = json.loads(result.output)
    found: list[dict[str, Any]] = data["diagnostics"]
    return found


def corpus(tmp_path: Path, edit: Callable[[dict[str, Any]], None], base: Callable[[], dict[str, Any]]) -> Path:
    files = base()
    edit(files)
    return write(tmp_path / "corpus", files)


def set_key(path: str, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(files: dict[str, Any]) -> None:
        files[path][key] = value

    return edit


# --- a schema keyword of the wrong type -------------------------------------------------------------

WRONG_TYPES = {
    "properties-list": set_key(THING, "properties", [1]),
    "defs-list": set_key(THING, "$defs", [1]),
    "defs-entry-number": set_key(THING, "$defs", {"a": 5}),
    "id-number": set_key(THING, "$id", 5),
    "schema-number": set_key(THING, "$schema", 5),
    "ref-number": set_key(THING, "$ref", 5),
}


@pytest.mark.parametrize("case", sorted(WRONG_TYPES))
def test_wrong_keyword_type_is_a_metaschema_finding_for_check(tmp_path: Path, case: str) -> None:
    root = corpus(tmp_path, WRONG_TYPES[case], api_files)
    result = run(root, "check", "--format", "json")
    assert result.exit_code == 1
    found = findings(result)
    assert ("schema-metaschema", THING) in {(d["rule"], d["path"]) for d in found}
    # The examples of a schema the metaschema rejects cannot be checked, and say so.
    thing_examples = {d["rule"] for d in found if d["path"].startswith("schemas/examples/thing/")}
    assert thing_examples == {"example-unverifiable"}


@pytest.mark.parametrize("command", ["models", "api", "host generate", "site build"])
@pytest.mark.parametrize("case", ["properties-list", "schema-number", "ref-number"])
def test_wrong_keyword_type_stops_every_generator(tmp_path: Path, case: str, command: str) -> None:
    root = corpus(tmp_path, WRONG_TYPES[case], api_files)
    out = tmp_path / "out"
    result = run(root, *command.split(), "--out", str(out))
    assert result.exit_code == 1
    assert "[schema-metaschema]" in result.output
    assert not out.exists()


def test_wrong_keyword_type_stops_conformance(tmp_path: Path) -> None:
    root = corpus(tmp_path, WRONG_TYPES["defs-list"], api_files)
    result = run(root, "conformance")
    assert result.exit_code == 1
    assert "[schema-metaschema]" in result.output


@pytest.mark.parametrize("index", [[], {"title": "I", "properties": {"run.started": 5}}])
def test_malformed_event_index_is_a_finding(tmp_path: Path, index: Any) -> None:
    def edit(files: dict[str, Any]) -> None:
        files[PAYLOADS]["$defs"]["_typeIndex"] = index

    root = corpus(tmp_path, edit, api_files)
    result = run(root, "check", "--format", "json")
    assert result.exit_code == 1
    assert ("schema-metaschema", PAYLOADS) in {(d["rule"], d["path"]) for d in findings(result)}
    out = tmp_path / "site"
    built = run(root, "site", "build", "--out", str(out))
    assert built.exit_code == 1
    assert "[schema-metaschema]" in built.output
    assert not out.exists()


def test_pointer_through_a_scalar_is_unresolved(tmp_path: Path) -> None:
    def edit(files: dict[str, Any]) -> None:
        files[THING]["properties"]["name"] = {"$ref": "#/title/x"}
        files[THING]["properties"]["size"] = {"$ref": "#/required/x"}

    root = corpus(tmp_path, edit, good_files)
    found = findings(run(root, "check", "--format", "json"))
    assert [d["rule"] for d in found if d["path"] == THING].count("schema-ref-unresolved") == 2


# --- the rendered OpenAPI document after failed schema checks ---------------------------------------


def _cycle(files: dict[str, Any]) -> None:
    thing = files[THING]
    thing["$defs"]["a"] = {"$ref": "#/$defs/b"}
    thing["$defs"]["b"] = {"$ref": "#/$defs/a"}
    thing["properties"]["zz"] = {"$ref": "#/$defs/a"}


def _not_an_object(name: str) -> Callable[[dict[str, Any]], None]:
    def edit(files: dict[str, Any]) -> None:
        files[f"schemas/{name}.schema.json"] = []

    return edit


RENDER_CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str, str]] = {
    "ref-cycle": (_cycle, "schema-ref-cycle", THING),
    "root-pointer-to-nowhere": (set_key(THING, "$ref", "#/nope"), "schema-ref-unresolved", THING),
    "duplicate-id": (set_key(THING, "$id", RUN_EVENT_ID), "schema-id-duplicate", THING),
    "capabilities-array": (_not_an_object("capabilities"), "schema-metaschema", "schemas/capabilities.schema.json"),
    "envelope-array": (_not_an_object("error-envelope"), "schema-metaschema", "schemas/error-envelope.schema.json"),
}


@pytest.mark.parametrize("select", [(), ("--select", "schema-")])
@pytest.mark.parametrize("case", sorted(RENDER_CASES))
def test_api_documents_are_not_rendered_from_a_blocked_corpus(tmp_path: Path, case: str, select: tuple[str]) -> None:
    edit, rule, path = RENDER_CASES[case]
    root = corpus(tmp_path, edit, api_files)
    result = run(root, "check", "--format", "json", *select)
    assert result.exit_code == 1
    found = findings(result)
    assert (rule, path) in {(d["rule"], d["path"]) for d in found}
    assert not [d for d in found if d["rule"] in ("api-openapi", "api-asyncapi")]


@pytest.mark.parametrize(
    ("error", "words"),
    [(RecursionError("deep"), "a $ref cycle"), (Unresolvable(ref="#/nope"), "'#/nope' leads nowhere")],
)
def test_openapi_validation_that_cannot_finish_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: Exception, words: str
) -> None:
    import openapi_spec_validator

    class Broken:
        def __init__(self, document: Any) -> None:
            pass

        def iter_errors(self) -> Any:
            raise error

    monkeypatch.setattr(openapi_spec_validator, "OpenAPIV31SpecValidator", Broken)
    root = write(tmp_path / "corpus", api_files())
    found: list[Diagnostic] = list(api_checks.check(load(root)))
    assert [(d.rule, d.path) for d in found] == [("api-openapi", OPS)]
    assert words in found[0].message


# --- an API description that does not parse stops api and site --------------------------------------


@pytest.mark.parametrize(
    ("text", "rule"),
    [("operations: [ {\n", "corpus-invalid-yaml"), ("info: 5\noperations: []\n", "api-shape")],
)
@pytest.mark.parametrize("command", [("api",), ("site", "build")])
def test_unreadable_api_description_stops_api_and_site(
    tmp_path: Path, text: str, rule: str, command: tuple[str, ...]
) -> None:
    def edit(files: dict[str, Any]) -> None:
        files[OPS] = text

    root = corpus(tmp_path, edit, api_files)
    out = tmp_path / "out"
    result = run(root, *command, "--out", str(out))
    assert result.exit_code == 1
    assert f"[{rule}]" in result.output
    assert not out.exists()


def test_api_writes_both_documents_from_a_good_corpus(tmp_path: Path) -> None:
    root = write(tmp_path / "corpus", api_files())
    out = tmp_path / "out"
    result = run(root, "api", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [".wopgen-output", "asyncapi.yaml", "openapi.yaml"]


# --- [tool.wopgen] paths ----------------------------------------------------------------------------


def _settings(files: dict[str, Any], extra: str) -> None:
    files["pyproject.toml"] = PYPROJECT + extra


def test_every_named_part_that_is_missing_is_an_error(tmp_path: Path) -> None:
    extra = (
        'api = "spec/apiz"\ninvariants = "spec/security/nope.yaml"\nexamples = "schemas/ex"\n'
        'changelog = "CHANGES.md"\ndocs = "spec/v9"\n'
    )
    root = corpus(tmp_path, lambda files: _settings(files, extra), api_files)
    result = run(root, "check", "--format", "json", "--select", "corpus-")
    assert result.exit_code == 1
    first = PYPROJECT.count("\n") + 1  # the line of the first added key
    missing = [(d["path"], d["line"], d["severity"]) for d in findings(result) if d["rule"] == "corpus-missing"]
    assert missing == [("pyproject.toml", line, "error") for line in range(first, first + 5)]
    assert "api = 'spec/apiz'" in result.output


def test_named_file_that_is_a_folder_is_missing(tmp_path: Path) -> None:
    root = corpus(tmp_path, lambda files: _settings(files, 'invariants = "spec/security"\n'), good_files)
    found = findings(run(root, "check", "--format", "json"))
    assert [(d["rule"], d["path"], d["message"]) for d in found if d["rule"] == "corpus-missing"] == [
        ("corpus-missing", "pyproject.toml", "[tool.wopgen] invariants = 'spec/security': there is no such file")
    ]


def test_absent_default_folder_is_a_warning_at_its_path(tmp_path: Path) -> None:
    files = good_files()
    del files["spec/rfcs/0001-things.md"]
    root = write(tmp_path / "corpus", files)
    found = findings(run(root, "check", "--format", "json", "--select", "corpus-"))
    assert [(d["rule"], d["path"], d["severity"]) for d in found] == [("corpus-missing", "spec/rfcs", "warning")]


def test_absent_default_parts_are_not_findings(tmp_path: Path) -> None:
    # The fixture has no spec/api/ and no CHANGELOG.md, and its [tool.wopgen] names neither.
    root = write(tmp_path / "corpus", good_files())
    result = run(root, "check")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("value", ["/etc", "../x", "spec/../../x", ""])
def test_named_part_outside_the_root_is_a_usage_error(tmp_path: Path, value: str) -> None:
    root = corpus(tmp_path, lambda files: _settings(files, f"api = {value!r}\n"), good_files)
    result = run(root, "check")
    assert result.exit_code == 2
    assert "not a path inside the corpus root" in result.output


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_named_part_linked_out_of_the_root_is_a_usage_error(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    root = corpus(tmp_path, lambda files: _settings(files, 'api = "spec/linked"\n'), good_files)
    (root / "spec" / "linked").symlink_to(outside)
    result = run(root, "check")
    assert result.exit_code == 2
    assert "api = 'spec/linked'" in result.output


@pytest.mark.parametrize("command", [("api",), ("site", "build")])
def test_a_named_part_that_is_missing_stops_generators(tmp_path: Path, command: tuple[str, ...]) -> None:
    root = corpus(tmp_path, lambda files: _settings(files, 'api = "spec/apiz"\n'), api_files)
    out = tmp_path / "out"
    result = run(root, *command, "--out", str(out))
    assert result.exit_code == 1
    assert "[corpus-missing]" in result.output
    assert not out.exists()

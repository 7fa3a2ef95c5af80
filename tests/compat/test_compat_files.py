"""`wopgen compat` on two plain schema files: draft-07 `definitions` or 2020-12 `$defs`, roles by
`--direction` or by reachability from `--client-root`/`--server-root`, and the github/sarif outputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from wopgen.cli import cli

DRAFT7 = "http://json-schema.org/draft-07/schema#"
DRAFT2020 = "https://json-schema.org/draft/2020-12/schema"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def write(path: Path, body: dict[str, Any]) -> str:
    path.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    return str(path)


def protocol(required_in_request: list[str], required_in_result: list[str], table: str = "definitions") -> Any:
    """A request a client sends and a result a host emits, both using one shared definition."""
    ref = f"#/{table}/"
    return {
        "$schema": DRAFT7 if table == "definitions" else DRAFT2020,
        table: {
            "ClientRequest": {"anyOf": [{"$ref": ref + "AskRequest"}]},
            "ServerResult": {"anyOf": [{"$ref": ref + "AskResult"}]},
            "AskRequest": {
                "type": "object",
                "properties": {"question": {"type": "string"}, "meta": {"$ref": ref + "Meta"}},
                "required": required_in_request,
            },
            "AskResult": {
                "type": "object",
                "properties": {"answer": {"type": "string"}, "meta": {"$ref": ref + "Meta"}},
                "required": required_in_result,
            },
            "Meta": {"type": "object", "properties": {"trace": {"type": "string"}}},
        },
    }


ROOTS = ("--client-root", "ClientRequest", "--server-root", "ServerResult")


def json_changes(result: Result) -> list[dict[str, Any]]:
    doc = json.loads(result.output)
    changes: list[dict[str, Any]] = doc["changes"]
    return changes


@pytest.mark.parametrize("table", ["definitions", "$defs"])
def test_roles_come_from_what_reaches_each_definition(tmp_path: Path, table: str) -> None:
    old = write(tmp_path / "old.json", protocol([], [], table))
    new = write(tmp_path / "new.json", protocol(["question"], [], table))
    result = run("compat", "--against", old, "--head", new, *ROOTS, "--format", "json")
    assert result.exit_code == 1, result.output
    (change,) = json_changes(result)
    assert (change["rule"], change["severity"], change["direction"]) == (
        "compat-required-added",
        "error",
        "client-sent",
    )
    assert change["base"]["path"] == old and change["head"]["path"] == new
    assert change["base"]["pointer"] == f"/{table}/AskRequest/required"
    assert change["hint"]

    newer = write(tmp_path / "newer.json", protocol([], ["answer"], table))
    result = run("compat", "--against", old, "--head", newer, *ROOTS, "--format", "json")
    assert result.exit_code == 0, result.output  # a host now always sends `answer`: readers gain a guarantee
    (change,) = json_changes(result)
    assert (change["rule"], change["severity"], change["direction"]) == (
        "compat-required-added",
        "info",
        "host-emitted",
    )


def test_a_definition_reached_from_both_sides_is_an_artifact(tmp_path: Path) -> None:
    base = protocol([], [])
    head = protocol([], [])
    head["definitions"]["Meta"]["required"] = ["trace"]
    old, new = write(tmp_path / "old.json", base), write(tmp_path / "new.json", head)
    result = run("compat", "--against", old, "--head", new, *ROOTS, "--format", "json")
    assert result.exit_code == 1
    directions = {c["direction"] for c in json_changes(result) if c["base"]["pointer"] == "/definitions/Meta/required"}
    assert directions == {"artifact"}


def test_direction_sets_the_role_without_roots(tmp_path: Path) -> None:
    old = write(tmp_path / "old.json", protocol([], []))
    new = write(tmp_path / "new.json", protocol(["question"], []))
    assert run("compat", "--against", old, "--head", new).exit_code == 1  # artifact by default
    result = run("compat", "--against", old, "--head", new, "--direction", "host-emitted", "--format", "json")
    assert result.exit_code == 0
    assert {c["severity"] for c in json_changes(result)} == {"info"}


@pytest.mark.parametrize("declared", ["https://example.test/schemas/protocol.json", "http://example.test/p"])
def test_a_file_that_declares_a_web_id_follows_its_own_refs(tmp_path: Path, declared: str) -> None:
    base, head = protocol([], []), protocol([], [])
    for user in ("AskRequest", "AskResult"):
        head["definitions"][user]["properties"]["meta"]["$ref"] = "#/definitions/Trace"
    head["definitions"]["Trace"] = head["definitions"].pop("Meta")  # renamed
    head["definitions"]["Trace"]["required"] = ["trace"]  # and tightened, seen through the new name
    old = write(tmp_path / "old.json", {"$id": declared, **base})
    new = write(tmp_path / "new.json", {"$id": declared, **head})
    result = run("compat", "--against", old, "--head", new, *ROOTS, "--format", "json")
    found = {(c["rule"], c["severity"], c["direction"]) for c in json_changes(result)}
    assert found == {  # each side's refs lead to the definition, whatever its name
        ("compat-def-removed", "warning", "artifact"),
        ("compat-required-added", "error", "artifact"),  # Trace is reached by a request and a result
    }


def test_a_ref_that_leaves_the_file_is_compared_by_the_uri_it_names(tmp_path: Path) -> None:
    def schema(ref: str) -> dict[str, Any]:
        return {"$id": "https://example.test/schemas/app.json", "properties": {"lint": {"$ref": ref}}}

    old = write(tmp_path / "old.json", schema("https://example.test/schemas/lint.json"))
    same = write(tmp_path / "same.json", schema("lint.json"))  # relative to the $id: the same URI
    other = write(tmp_path / "other.json", schema("format.json"))
    assert json_changes(run("compat", "--against", old, "--head", same, "--format", "json")) == []
    (change,) = json_changes(run("compat", "--against", old, "--head", other, "--format", "json"))
    assert change["rule"] == "compat-keyword-changed"


def test_files_are_compared_outside_any_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no pyproject.toml with [tool.wopgen] anywhere up from here
    write(tmp_path / "a.json", protocol([], []))
    write(tmp_path / "b.json", protocol([], []))
    result = run("compat", "--against", "a.json", "--head", "b.json")
    assert result.exit_code == 0, result.output
    assert "no changes" in result.output


def test_usage_errors(tmp_path: Path) -> None:
    old = write(tmp_path / "old.json", protocol([], []))
    new = write(tmp_path / "new.json", protocol([], []))
    unknown = run("compat", "--against", old, "--head", new, "--client-root", "Nope")
    assert unknown.exit_code == 2 and "no definition named 'Nope'" in unknown.output
    mixed = run("compat", "--against", old, "--head", str(tmp_path))
    assert mixed.exit_code == 2 and "is a schema file but" in mixed.output
    alone = run("--root", str(tmp_path), "compat", "--against", old)
    assert alone.exit_code == 2
    broken = tmp_path / "broken.json"
    broken.write_text('{"definitions": {', encoding="utf-8")
    bad = run("compat", "--against", old, "--head", str(broken))
    assert bad.exit_code == 2 and "broken.json:1" in bad.output
    assert "Traceback" not in bad.output


def test_github_and_sarif_outputs(tmp_path: Path) -> None:
    old = write(tmp_path / "old.json", protocol([], []))
    new = write(tmp_path / "new.json", protocol(["question"], []))
    github = run("compat", "--against", old, "--head", new, *ROOTS, "--format", "github")
    assert github.exit_code == 1
    (line,) = github.output.splitlines()
    assert line.startswith(f"::error file={new},line=")
    assert "title=compat-required-added::" in line and "(hint: " in line
    sarif = run("compat", "--against", old, "--head", new, *ROOTS, "--format", "sarif")
    assert sarif.exit_code == 1
    doc = json.loads(sarif.output)
    (found,) = doc["runs"][0]["results"]
    assert found["ruleId"] == "compat-required-added" and found["level"] == "error"
    assert found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == new
    rule_ids = {r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]}
    assert "compat-schema-renamed" in rule_ids


@pytest.mark.parametrize(
    ("before", "after", "pointer"),
    [("definitions", "$defs", "/$defs"), ("$defs", "definitions", "/definitions"), ("$defs", "", "")],
)
def test_a_removed_definition_points_at_the_heads_own_table(
    tmp_path: Path, before: str, after: str, pointer: str
) -> None:
    kept = {"type": "object", "properties": {"trace": {"type": "string"}}}
    base: dict[str, Any] = {"$schema": DRAFT2020, before: {"Kept": kept, "Gone": {"type": "string"}}}
    head: dict[str, Any] = {"$schema": DRAFT2020, **({after: {"Kept": kept}} if after else kept)}
    old, new = write(tmp_path / "old.json", base), write(tmp_path / "new.json", head)
    result = run("compat", "--against", old, "--head", new, "--format", "json")
    removed = [c for c in json_changes(result) if c["rule"] == "compat-def-removed"]
    assert {c["base"]["pointer"] for c in removed} >= {f"/{before}/Gone"}
    assert {c["head"]["pointer"] for c in removed} == {pointer}  # a table the head has, else its root


def bundle(version: str, tag: dict[str, Any], items: dict[str, Any]) -> dict[str, Any]:
    """A draft-07 bundle whose definitions are keyed by their versioned `$id`s, as published bundles
    of versioned specifications are: each release renames every definition."""
    site = f"https://example.test/definitions/{version}/"
    text = {"type": "string"}
    docs = {"type": "object", "properties": {"url": text, "title": text, "lang": text}, "required": ["url"]}
    return {
        "$schema": DRAFT7,
        "type": "object",
        "properties": {"tags": {"type": "array", "items": items}},
        "definitions": {
            site + "tag.json": {"$id": site + "tag.json", **tag},
            site + "docs.json": {"$id": site + "docs.json", **docs},
            site + "Reference.json": {"$id": site + "Reference.json", "type": "object", "required": ["$ref"]},
        },
    }


def tag(docs: dict[str, Any], *required: str) -> dict[str, Any]:
    members = {"name": {"type": "string"}, "docs": docs, "note": {"type": "string"}}
    return {"type": "object", "properties": members, "required": ["name", *required]}


OLD, NEW = "https://example.test/definitions/1.0/", "https://example.test/definitions/2.0/"
EITHER = {"oneOf": [{"$ref": NEW + "Reference.json"}, {"$ref": NEW + "docs.json"}]}  # little of its old shape left


def compare_bundles(tmp_path: Path, head_tag: dict[str, Any], head_items: dict[str, Any]) -> set[tuple[str, str]]:
    base = bundle("1.0", tag({"$ref": OLD + "docs.json"}), {"$ref": OLD + "tag.json"})
    old, new = write(tmp_path / "old.json", base), write(tmp_path / "new.json", bundle("2.0", head_tag, head_items))
    result = run("compat", "--against", old, "--head", new, "--direction", "client-sent", "--format", "json")
    renames = ("compat-def-removed", "compat-schema-renamed")  # every definition has a new key
    return {(c["rule"], c["severity"]) for c in json_changes(result) if c["rule"] not in renames}


@pytest.mark.parametrize(
    ("head_tag", "found"),
    [  # the old definition pairs with the one of the same file name, and is compared with it
        (tag(EITHER), set()),
        (tag(EITHER, "note"), {("compat-required-added", "error")}),
    ],
)
def test_a_definition_keyed_by_a_versioned_id_pairs_with_its_new_key_in_a_union(
    tmp_path: Path, head_tag: dict[str, Any], found: set[tuple[str, str]]
) -> None:
    items = {"oneOf": [{"$ref": NEW + "Reference.json"}, {"$ref": NEW + "tag.json"}]}
    assert compare_bundles(tmp_path, head_tag, items) == {("compat-branch-added", "info"), *found}


def test_a_definition_replaced_by_another_in_a_union_is_still_a_break(tmp_path: Path) -> None:
    items = {"oneOf": [{"$ref": NEW + "Reference.json"}, {"$ref": NEW + "docs.json"}]}  # no tag.json: tags lost
    assert "error" in {severity for _, severity in compare_bundles(tmp_path, tag(EITHER), items)}

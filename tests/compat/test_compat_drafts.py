"""`wopgen compat` on two plain schema files of an older draft: whether another branch of a union
still takes an enum value a branch lost is asked of the validators, in the draft the file declares,
though the 2020-12 metaschema rejects the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from wopgen.cli import cli

DRAFT4 = "http://json-schema.org/draft-04/schema#"
DRAFT7 = "http://json-schema.org/draft-07/schema#"


def write(path: Path, body: dict[str, Any]) -> str:
    path.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    return str(path)


def compared(tmp_path: Path, base: dict[str, Any], head: dict[str, Any]) -> tuple[int, set[tuple[str, str]]]:
    """The exit code and (rule, message up to its first `;`) of each change from `base` to `head`."""
    old, new = write(tmp_path / "old.json", base), write(tmp_path / "new.json", head)
    result = CliRunner().invoke(cli, ["compat", "--against", old, "--head", new, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, {(c["rule"], c["message"].split(";")[0]) for c in json.loads(result.output)["changes"]}


def targets(values: list[str]) -> dict[str, Any]:
    """A draft-07 file (its tuple `items` the 2020-12 metaschema rejects) whose `target` is one of
    `values`, or a name the `named` definition takes: one its pattern matches, except es5."""
    return {
        "$schema": DRAFT7,
        "definitions": {
            "target": {"anyOf": [{"enum": values}, {"$ref": "#/definitions/named"}]},
            "named": {"type": "string", "pattern": "^[Ee][Ss](5|20[0-9]{2})$", "not": {"const": "es5"}},
            "pair": {"type": "array", "items": [{"type": "string"}, {"$ref": "#/definitions/target"}]},
        },
    }


def test_a_value_another_branch_of_a_draft_07_union_takes_moves_nothing(tmp_path: Path) -> None:
    code, found = compared(tmp_path, targets(["es5", "ES2020", "esnext"]), targets(["esnext"]))
    assert found == {
        ("compat-enum-value-covered", 'enum value "ES2020" removed'),  # the named branch takes it
        ("compat-enum-value-removed", 'enum value "es5" removed'),  # the named branch excludes it
    }
    assert code == 1


def bounded(values: list[int]) -> dict[str, Any]:
    """A draft-04 file: one of `values`, or an integer from 0 up to 10, 10 excluded (a draft-04
    boolean `exclusiveMaximum`, which the 2020-12 metaschema rejects)."""
    below = {"type": "integer", "minimum": 0, "maximum": 10, "exclusiveMaximum": True}
    return {"$schema": DRAFT4, "definitions": {"level": {"anyOf": [{"enum": values}, below]}}}


def test_a_draft_04_branch_is_read_in_draft_04(tmp_path: Path) -> None:
    code, found = compared(tmp_path, bounded([1, 5, 10]), bounded([1]))
    assert found == {
        ("compat-enum-value-covered", "enum value 5 removed"),
        ("compat-enum-value-removed", "enum value 10 removed"),  # the bound excludes 10
    }
    assert code == 1


def test_a_branch_behind_a_ref_out_of_the_file_takes_nothing_for_sure(tmp_path: Path) -> None:
    def far(values: list[str]) -> dict[str, Any]:
        return {"$schema": DRAFT7, "anyOf": [{"enum": values}, {"$ref": "https://elsewhere.test/names.json"}]}

    code, found = compared(tmp_path, far(["a", "b"]), far(["a"]))
    assert found == {("compat-enum-value-removed", 'enum value "b" removed')}  # never fetched, so not shown
    assert code == 1


def test_a_schema_uri_that_is_not_a_string_is_refused_by_name(tmp_path: Path) -> None:
    code, found = compared(tmp_path, {"$schema": 5, "type": "string"}, {"type": "string"})
    assert code == 1
    assert {rule for rule, _ in found} == {"compat-schema-invalid"}


def test_a_draft_03_file_is_read_against_its_own_metaschema(tmp_path: Path) -> None:
    old = {"$schema": "http://json-schema.org/draft-03/schema#", "properties": {"a": {"required": True}}}
    new = {**old, "properties": {"a": {"required": True}, "b": {"type": "string"}}}
    code, found = compared(tmp_path, old, new)
    assert (code, {rule for rule, _ in found}) == (0, {"compat-property-added"})

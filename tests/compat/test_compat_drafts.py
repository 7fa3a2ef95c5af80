"""`wopgen compat` on two plain schema files of an older draft, each checked against the metaschema
of the draft it declares."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from wopgen.cli import cli


def write(path: Path, body: dict[str, Any]) -> str:
    path.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    return str(path)


def compared(tmp_path: Path, base: dict[str, Any], head: dict[str, Any]) -> tuple[int, set[tuple[str, str]]]:
    """The exit code and (rule, message up to its first `;`) of each change from `base` to `head`."""
    old, new = write(tmp_path / "old.json", base), write(tmp_path / "new.json", head)
    result = CliRunner().invoke(cli, ["compat", "--against", old, "--head", new, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, {(c["rule"], c["message"].split(";")[0]) for c in json.loads(result.output)["changes"]}


def test_a_schema_uri_that_is_not_a_string_is_refused_by_name(tmp_path: Path) -> None:
    code, found = compared(tmp_path, {"$schema": 5, "type": "string"}, {"type": "string"})
    assert code == 1
    assert {rule for rule, _ in found} == {"compat-schema-invalid"}


def test_a_draft_03_file_is_read_against_its_own_metaschema(tmp_path: Path) -> None:
    old = {"$schema": "http://json-schema.org/draft-03/schema#", "properties": {"a": {"required": True}}}
    new = {**old, "properties": {"a": {"required": True}, "b": {"type": "string"}}}
    code, found = compared(tmp_path, old, new)
    assert (code, {rule for rule, _ in found}) == (0, {"compat-property-added"})

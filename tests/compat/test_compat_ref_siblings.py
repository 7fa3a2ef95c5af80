"""Keywords beside a `$ref`: laid over its target where they are written (2019-09 and later), ignored
where the draft says so (04 to 07), and never laid over when that would change what they mean."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.compat_support import corpus_files, thing
from support.corpus_factory import write
from wopgen.cli import cli
from wopgen.compat.normalize import Resolver, root
from wopgen.corpus import load

DRAFT7 = "http://json-schema.org/draft-07/schema#"
DRAFT201909 = "https://json-schema.org/draft/2019-09/schema"
DRAFT2020 = "https://json-schema.org/draft/2020-12/schema"


def changes(tmp_path: Path, base: dict[str, Any], head: dict[str, Any]) -> list[dict[str, Any]]:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(base, indent=2), encoding="utf-8")
    new.write_text(json.dumps(head, indent=2), encoding="utf-8")
    result = CliRunner().invoke(cli, ["compat", "--against", str(old), "--head", str(new), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    found: list[dict[str, Any]] = json.loads(result.output)["changes"]
    return found


def extended(own: dict[str, Any]) -> dict[str, Any]:
    """An object that is the shared extension rules plus members of its own."""
    return {"$ref": "#/$defs/extensions", "type": "object", "properties": own, "unevaluatedProperties": False}


def protocol(link: dict[str, Any], server: dict[str, Any]) -> dict[str, Any]:
    extensions = {"patternProperties": {"^x-": True}}
    return {
        "$schema": DRAFT2020,
        "$defs": {"extensions": extensions, "link": extended(link), "server": extended(server)},
    }


def test_each_object_laid_over_a_shared_target_is_compared_where_it_is_written(tmp_path: Path) -> None:
    text = {"type": "string"}
    base = protocol({"href": text, "body": text}, {"url": text, "name": text})
    head = protocol({"href": text}, {"url": text})  # each object loses a member of its own
    found = changes(tmp_path, base, head)
    removed = sorted(c["base"]["pointer"] for c in found if c["rule"] == "compat-property-removed")
    assert removed == ["/$defs/link/properties/body", "/$defs/server/properties/name"]


def test_a_draft7_ref_ignores_its_siblings(tmp_path: Path) -> None:
    def schema(limit: int) -> dict[str, Any]:
        name = {"$ref": "#/definitions/text", "maxLength": limit}  # a draft-07 validator never reads maxLength
        return {
            "$schema": DRAFT7,
            "type": "object",
            "properties": {"name": name},
            "definitions": {"text": {"type": "string"}},
        }

    assert changes(tmp_path, schema(8), schema(4)) == []
    tightened = schema(8)
    tightened["definitions"]["text"]["maxLength"] = 4  # what the reference leads to still counts
    assert {c["rule"] for c in changes(tmp_path, schema(8), tightened)} == {"compat-bound-tightened"}


def test_a_draft7_ref_read_again_with_its_siblings_changes_only_what_they_say(tmp_path: Path) -> None:
    """Draft-07 reads `item` as `named` alone; 2019-09 reads the closure beside the reference too, which
    refuses every member (no `properties` sits beside it). The reference itself names what `item` was."""

    def schema(draft: str, minimum: int, target: str = "named") -> dict[str, Any]:
        named = {"type": "object", "properties": {"a": {"type": "integer", "minimum": minimum}}}
        item = {"$ref": f"#/definitions/{target}", "additionalProperties": False}
        return {"$schema": draft, "properties": {"item": item}, "definitions": {"named": named, "other": named}}

    (tmp_path / "same").mkdir()
    (tmp_path / "other").mkdir()
    found = changes(tmp_path / "same", schema(DRAFT7, 0), schema(DRAFT201909, 1))
    rules = sorted((c["rule"], c["base"]["pointer"]) for c in found)
    assert ("compat-additional-properties-closed", "/definitions/named/additionalProperties") in rules
    assert ("compat-bound-tightened", "/definitions/named/properties/a/minimum") in rules  # where it sits
    assert all(rule != "compat-keyword-changed" for rule, _ in rules)
    # a reference to another definition than the one the base read is a change of its own
    found = changes(tmp_path / "other", schema(DRAFT7, 0), schema(DRAFT201909, 0, "other"))
    assert "compat-keyword-changed" in {c["rule"] for c in found}


@pytest.mark.parametrize(
    ("siblings", "laid"),
    [
        ({"minProperties": 1}, True),  # a keyword of its own: it means the same in the target's object
        ({"required": ["b"]}, False),  # the target's `required` too: one object holds only one of them
        ({"additionalProperties": False}, False),  # beside the $ref it sees none of the target's properties
        ({"unevaluatedProperties": False}, True),  # it does see what the target evaluates
        ({"type": "object"}, True),  # the target's `type` with the same value: one thing asked twice
        ({"type": ["object", "null"]}, False),  # another value: one object holds only one of them
    ],
)
def test_siblings_are_laid_over_only_where_they_mean_the_same(
    tmp_path: Path, siblings: dict[str, Any], laid: bool
) -> None:
    body = {"$defs": {"named": {"type": "object", "properties": {"a": {}}, "required": ["a"]}}}
    body["properties"] = {"item": {"$ref": "#/$defs/named", **siblings}}
    corpus = load(write(tmp_path, corpus_files({"thing": thing(body)})))
    resolver = Resolver(corpus)
    item = root(corpus.schemas["schemas/thing.schema.json"]).child("properties", "item")
    seen = resolver.deref(item)
    assert ("$ref" not in seen.node) == laid
    if laid:  # it sits where the siblings are written, each member read where it is
        assert seen.pointer == "/properties/item"
        assert seen.child("required").pointer == "/$defs/named/required"
        assert seen.child(next(iter(siblings))).pointer == f"/properties/item/{next(iter(siblings))}"

"""A `type` a schema gains (or loses) where every schema applying it already holds the value to that
type: no value moves. The types come from the objects that apply it in place (`allOf`, `anyOf`,
`oneOf`, `not`, `if`/`then`/`else`) and from the `$ref`s that lead to it, up to where the value is a
member, an item or a root; a way of applying it that holds the value to no such type keeps the change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.compat_support import outcome, run_compat, thing
from wopgen.cli import cli

DRAFT7 = "http://json-schema.org/draft-07/schema#"
DRAFT2020 = "https://json-schema.org/draft/2020-12/schema"
NARROWED = ("compat-type-narrowed", "error")
SHAPE = {"properties": {"name": {"type": "string"}}}  # what the definition says of objects
TYPED = {"type": "object", **SHAPE}


def compared(tmp_path: Path, base: dict[str, Any], head: dict[str, Any], *options: str) -> set[tuple[str, str]]:
    """(rule, severity) of each change between two plain schema files."""
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(base), encoding="utf-8")
    new.write_text(json.dumps(head), encoding="utf-8")
    args = ["compat", "--against", str(old), "--head", str(new), "--format", "json", *options]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    return {(c["rule"], c["severity"]) for c in json.loads(result.output)["changes"]}


def file_with(definition: dict[str, Any], **root: Any) -> dict[str, Any]:
    """A draft-07 file whose root is `root` and whose one definition `d` is `definition`."""
    return {"$schema": DRAFT7, **root, "definitions": {"d": definition}}


USE = {"$ref": "#/definitions/d"}


@pytest.mark.parametrize(
    "root",
    [
        pytest.param({"type": "object", "allOf": [USE]}, id="allOf-beside-type"),
        pytest.param({"type": "object", "allOf": [{"anyOf": [USE, {"required": ["id"]}]}]}, id="anyOf-in-allOf"),
        pytest.param({"type": "object", "oneOf": [USE, {"required": ["id"]}]}, id="oneOf-beside-type"),
        pytest.param({"properties": {"p": {"type": "object", "allOf": [USE]}}}, id="member"),
        pytest.param({"type": "object", "if": {"required": ["id"]}, "then": USE}, id="then"),
    ],
)
def test_a_type_every_use_already_forces_narrows_nothing(tmp_path: Path, root: dict[str, Any]) -> None:
    assert compared(tmp_path, file_with(SHAPE, **root), file_with(TYPED, **root)) == set()


def test_the_types_forced_further_up_a_chain_of_definitions_count(tmp_path: Path) -> None:
    """`d` is applied by `e`, which only the root applies, beside `"type": "object"`."""
    chain = {"allOf": [USE], "properties": {"other": {"type": "string"}}}
    base = file_with(SHAPE, type="object", allOf=[{"$ref": "#/definitions/e"}])
    head = file_with(TYPED, type="object", allOf=[{"$ref": "#/definitions/e"}])
    base["definitions"]["e"] = head["definitions"]["e"] = chain
    assert compared(tmp_path, base, head) == set()


def test_a_type_beside_a_ref_counts_where_the_draft_reads_it(tmp_path: Path) -> None:
    def body(definition: dict[str, Any]) -> dict[str, Any]:
        use = {"$ref": "#/$defs/d", "type": "object"}
        return {"$schema": DRAFT2020, "properties": {"p": use}, "$defs": {"d": definition}}

    assert compared(tmp_path, body(SHAPE), body(TYPED)) == set()


def test_a_type_loosened_where_every_use_forces_it_widens_nothing(tmp_path: Path) -> None:
    root = {"type": "object", "allOf": [USE]}
    assert (
        compared(tmp_path, file_with(TYPED, **root), file_with(SHAPE, **root), "--direction", "host-emitted") == set()
    )


@pytest.mark.parametrize(
    "root",
    [
        pytest.param({"type": "object", "allOf": [USE], "properties": {"p": USE}}, id="also-a-member-of-any-type"),
        pytest.param({"anyOf": [{"type": "object"}, USE]}, id="type-in-another-branch"),
        pytest.param({"properties": {"p": {"$ref": "#/definitions/d", "type": "object"}}}, id="draft-07-ref-sibling"),
        pytest.param({"type": "object"}, id="applied-by-nothing"),
        pytest.param(
            {"type": ["object", "string"], "anyOf": [USE, {"type": "object", "required": ["id"]}]}, id="a-string-too"
        ),
    ],
)
def test_a_type_some_use_does_not_force_still_narrows(tmp_path: Path, root: dict[str, Any]) -> None:
    assert compared(tmp_path, file_with(SHAPE, **root), file_with(TYPED, **root)) == {NARROWED}


def test_a_definition_named_as_a_root_is_applied_directly(tmp_path: Path) -> None:
    root = {"type": "object", "allOf": [USE]}
    assert compared(tmp_path, file_with(SHAPE, **root), file_with(TYPED, **root), "--client-root", "d") == {NARROWED}


def test_a_definition_of_a_corpus_may_be_applied_by_name(tmp_path: Path) -> None:
    """A corpus publishes its definitions: other documents may apply one on its own."""

    def body(definition: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "allOf": [{"$ref": "#/$defs/d"}], "$defs": {"d": definition}}

    changes = run_compat(tmp_path, {"thing": thing(body(SHAPE))}, {"thing": thing(body(TYPED))})
    assert outcome(changes) == {NARROWED}


def test_an_all_of_member_of_a_corpus_schema_takes_the_type_beside_it(tmp_path: Path) -> None:
    """The second member cannot be laid into the object (both list `properties`), so it is compared on
    its own: its `type` is the one beside the allOf."""
    first = {"properties": {"id": {"type": "string"}}}

    def body(member: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "allOf": [first, member]}

    changes = run_compat(tmp_path, {"thing": thing(body(SHAPE))}, {"thing": thing(body(TYPED))})
    assert outcome(changes) == set()

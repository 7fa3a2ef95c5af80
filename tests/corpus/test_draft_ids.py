"""The `$ref` graph reads each schema in the draft its `$schema` names, as the registry does: draft-04
names a schema's URI with `id`, drafts 4 to 7 keep subschemas under `definitions` and `dependencies`,
and an id beside a `$ref` there means nothing. A reference inside an embedded resource resolves
against that resource, so the graph and the validators agree on where every `$ref` lands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from wopgen.checks import schemas
from wopgen.corpus import Corpus
from wopgen.corpus.documents import parse_json
from wopgen.corpus.graph import Located, Status
from wopgen.corpus.settings import Settings

DRAFT4 = "http://json-schema.org/draft-04/schema#"
DRAFT7 = "http://json-schema.org/draft-07/schema#"
NAME = "one.schema.json"
OWN = "https://openwop.dev/spec/v1/one.schema.json"  # what the default settings expect of NAME


def single(tmp_path: Path, schema: dict[str, Any]) -> Corpus:
    return Corpus(settings=Settings(root=tmp_path), schemas={NAME: parse_json(NAME, json.dumps(schema).encode())})


def landing(corpus: Corpus, pointer: str) -> tuple[Status, Located | None]:
    site = corpus.graph.site_at(Located(NAME, pointer))
    assert site is not None, f"no $ref site at {pointer}"
    return site.status, site.target


# A resource embedded under another URI, holding a JSON pointer into itself: in draft-04 named by `id`,
# in draft-07 by `$id` under `definitions`, and in 2020-12 by `$id` under `definitions` too, which
# the registry crawls in every draft.
EMBEDDED = {
    DRAFT4: "id",
    DRAFT7: "$id",
    "https://json-schema.org/draft/2020-12/schema": "$id",
}


@pytest.mark.parametrize(("dialect", "key"), EMBEDDED.items())
def test_a_pointer_inside_an_embedded_resource_resolves_in_it(tmp_path: Path, dialect: str, key: str) -> None:
    schema = {
        "$schema": dialect,
        "definitions": {
            "lib": {
                key: "https://example.test/lib.json",
                "definitions": {"count": {"type": "integer"}},
                "properties": {"n": {"$ref": "#/definitions/count"}},
            }
        },
        "properties": {"whole": {"$ref": "https://example.test/lib.json#/definitions/count"}},
    }
    corpus = single(tmp_path, schema)
    assert landing(corpus, "/definitions/lib/properties/n") == (
        Status.RESOLVED,
        Located(NAME, "/definitions/lib/definitions/count"),
    )
    assert landing(corpus, "/properties/whole") == (
        Status.RESOLVED,
        Located(NAME, "/definitions/lib/definitions/count"),
    )
    # the validators reach the same subschema
    assert corpus.accepts(NAME, "/properties/whole", 3)
    assert not corpus.accepts(NAME, "/properties/whole", "three")


def test_an_id_under_an_unknown_keyword_is_no_resource(tmp_path: Path) -> None:
    schema = {
        "x-library": {"$id": "https://example.test/lib.json", "$defs": {"count": {"type": "integer"}}},
        "properties": {"n": {"$ref": "https://example.test/lib.json"}},
    }
    status, _ = landing(single(tmp_path, schema), "/properties/n")
    assert status is Status.EXTERNAL  # neither the registry nor the graph holds that URI


@pytest.mark.parametrize("dialect", [DRAFT4, DRAFT7])
def test_an_id_beside_a_ref_is_ignored_before_2019(tmp_path: Path, dialect: str) -> None:
    key = "id" if dialect == DRAFT4 else "$id"
    schema = {
        "$schema": dialect,
        "definitions": {
            "aside": {key: "https://example.test/aside.json", "$ref": "#/definitions/word"},
            "word": {"type": "string"},
        },
    }
    corpus = single(tmp_path, schema)
    assert landing(corpus, "/definitions/aside") == (Status.RESOLVED, Located(NAME, "/definitions/word"))


def test_a_fragment_id_names_an_anchor_before_2019(tmp_path: Path) -> None:
    schema = {
        "$schema": DRAFT7,
        "definitions": {"word": {"$id": "#word", "type": "string"}},
        "properties": {"w": {"$ref": "#word"}},
    }
    corpus = single(tmp_path, schema)
    assert landing(corpus, "/properties/w") == (Status.RESOLVED, Located(NAME, "/definitions/word"))


def test_draft4_dependencies_hold_subschemas(tmp_path: Path) -> None:
    schema = {
        "$schema": DRAFT4,
        "dependencies": {
            "a": {
                "id": "https://example.test/dep.json",
                "properties": {"b": {"$ref": "#/definitions/x"}},
                "definitions": {"x": {"type": "integer"}},
            }
        },
    }
    corpus = single(tmp_path, schema)
    assert landing(corpus, "/dependencies/a/properties/b") == (
        Status.RESOLVED,
        Located(NAME, "/dependencies/a/definitions/x"),
    )


def schema_id_findings(tmp_path: Path, schema: dict[str, Any]) -> list[str]:
    return [d.message for d in schemas.check(single(tmp_path, schema)) if d.rule == "schema-id"]


def test_a_draft4_schema_names_its_uri_with_id(tmp_path: Path) -> None:
    assert schema_id_findings(tmp_path, {"$schema": DRAFT4, "id": OWN}) == []
    assert schema_id_findings(tmp_path, {"$schema": DRAFT4, "id": "https://example.test/x.json"}) == [
        f"id is 'https://example.test/x.json', expected {OWN!r}"
    ]
    # `$id` means nothing in draft-04: the schema declares no URI
    assert schema_id_findings(tmp_path, {"$schema": DRAFT4, "$id": OWN}) == [f"id is missing, expected {OWN!r}"]
    assert schema_id_findings(tmp_path, {"$id": OWN}) == []


def test_an_unresolved_pointer_is_hinted_in_the_schemas_draft(tmp_path: Path) -> None:
    schema = {"$schema": DRAFT7, "properties": {"a": {"$ref": "#/definitions/none"}}}
    found = [d for d in schemas.check(single(tmp_path, schema)) if d.rule == "schema-ref-unresolved"]
    assert [d.hint for d in found] == [
        'point at an existing subschema (#/definitions/<name>), or declare the anchor it names ("$id": "#<name>")'
    ]


def test_defs_of_a_draft7_schema_hold_subschemas(tmp_path: Path) -> None:
    """Drafts 4 to 7 do not name `$defs`, but schemas declaring them keep definitions there and refer to
    them by pointer: a member named `default` inside one is a member, not instance data."""
    schema = {
        "$schema": DRAFT7,
        "$defs": {
            "column": {"type": "object", "properties": {"default": {"$ref": "#/$defs/value"}}},
            "value": {"type": ["string", "number"]},
        },
        "$ref": "#/$defs/column",
    }
    corpus = single(tmp_path, schema)
    assert [d.message for d in schemas.check(corpus) if d.rule == "schema-defs-unused"] == []
    assert landing(corpus, "/$defs/column/properties/default") == (Status.RESOLVED, Located(NAME, "/$defs/value"))

"""schema-keyword-ignored: a keyword that the draft a schema declares does not have is reported where it
is written; in a draft that has it, it is no finding. schema-ref-siblings-ignored: a keyword that
constrains values beside a `$ref` in drafts 4 to 7, which apply the `$ref` alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from wopgen.checks import schema_keywords
from wopgen.corpus import Corpus
from wopgen.corpus.documents import parse_json
from wopgen.corpus.settings import Settings

NAME = "one.schema.json"
DRAFT4 = "http://json-schema.org/draft-04/schema#"
DRAFT7 = "http://json-schema.org/draft-07/schema#"
CURRENT = "https://json-schema.org/draft/2020-12/schema"


def found(tmp_path: Path, schema: dict[str, Any]) -> list[tuple[int, str]]:
    corpus = Corpus(
        settings=Settings(root=tmp_path), schemas={NAME: parse_json(NAME, json.dumps(schema, indent=2).encode())}
    )
    return [(d.line, d.message.split("`")[1]) for d in schema_keywords.check(corpus)]


@pytest.mark.parametrize(
    ("dialect", "body", "ignored"),
    [
        (DRAFT4, {"properties": {"kind": {"const": "on"}}}, ["const"]),
        (DRAFT7, {"properties": {"kind": {"const": "on"}}}, []),
        (DRAFT7, {"if": {"required": ["a"]}, "then": {"required": ["b"]}}, []),
        (DRAFT4, {"if": {"required": ["a"]}, "then": {"required": ["b"]}}, ["if", "then"]),
        (CURRENT, {"dependencies": {"a": ["b"]}}, ["dependencies"]),
        (DRAFT7, {"dependencies": {"a": ["b"]}}, []),
        (DRAFT7, {"dependentRequired": {"a": ["b"]}}, ["dependentRequired"]),
        (CURRENT, {"prefixItems": [{}], "additionalItems": False}, ["additionalItems"]),
        # instance data and names are not keywords
        (DRAFT4, {"enum": [{"const": 1}], "properties": {"const": {"type": "string"}}}, []),
    ],
)
def test_a_keyword_the_declared_draft_lacks_is_reported(
    tmp_path: Path, dialect: str, body: dict[str, Any], ignored: list[str]
) -> None:
    assert sorted(keyword for _line, keyword in found(tmp_path, {"$schema": dialect, **body})) == sorted(ignored)


def test_the_finding_is_where_the_keyword_is_written(tmp_path: Path) -> None:
    schema = {"$schema": DRAFT4, "properties": {"kind": {"const": "on"}}}
    text = json.dumps(schema, indent=2).splitlines()
    line = next(n for n, t in enumerate(text, start=1) if '"const"' in t)
    assert found(tmp_path, schema) == [(line, "const")]


# schema-ref-siblings-ignored: before 2019-09 a `$ref` is applied alone.
BASE = {"type": "object", "properties": {"name": {"type": "string"}}}


def beside_ref(tmp_path: Path, dialect: str, member: dict[str, Any]) -> list[str]:
    definitions = {
        "base": BASE,
        "either": {"oneOf": [{"type": "integer"}, {"$ref": "#/definitions/base"}]},
        "kinds": {"enum": ["a", "b"]},
    }
    schema = {"$schema": dialect, "properties": {"m": member}, "definitions": definitions}
    corpus = Corpus(
        settings=Settings(root=tmp_path), schemas={NAME: parse_json(NAME, json.dumps(schema, indent=2).encode())}
    )
    return [d.message for d in schema_keywords.check(corpus) if d.rule == "schema-ref-siblings-ignored"]


@pytest.mark.parametrize(
    ("dialect", "member", "named"),
    [
        (DRAFT7, {"$ref": "#/definitions/base", "required": ["name"]}, "`required` beside `$ref` is ignored"),
        (DRAFT4, {"$ref": "#/definitions/base", "maxProperties": 1, "not": {}}, "`maxProperties`, `not` beside"),
        (DRAFT7, {"$ref": "#/definitions/base", "type": "string"}, "`type` beside"),  # the target says object
        # what is no finding: 2019-09 and later apply keywords beside a `$ref`; words constrain nothing; a
        # `type` the target says too changes nothing; an `allOf` holds both
        (CURRENT, {"$ref": "#/definitions/base", "required": ["name"]}, None),
        (DRAFT7, {"$ref": "#/definitions/base", "description": "d", "default": {}, "title": "t"}, None),
        (DRAFT7, {"$ref": "#/definitions/base", "type": "object"}, None),
        (DRAFT7, {"$ref": "#/definitions/base", "type": ["object", "null"]}, None),  # the target takes objects only
        (DRAFT7, {"$ref": "#/definitions/either", "type": ["integer", "object"]}, None),  # its branches' types
        (DRAFT7, {"$ref": "#/definitions/either", "type": "object"}, "`type` beside"),  # it takes integers too
        (DRAFT7, {"$ref": "#/definitions/kinds", "type": "string"}, None),  # it lists strings only
        (DRAFT7, {"allOf": [{"$ref": "#/definitions/base"}, {"required": ["name"]}]}, None),
        # a keyword of a type the target takes no value of refuses nothing it takes (renovate's `items`
        # beside a `$ref` to an object); one of a type it takes still does
        (DRAFT7, {"$ref": "#/definitions/base", "items": {"type": "string"}, "minLength": 2}, None),
        (DRAFT7, {"$ref": "#/definitions/kinds", "minLength": 2}, "`minLength` beside"),
    ],
)
def test_a_keyword_beside_a_ref_is_reported_where_the_draft_ignores_it(
    tmp_path: Path, dialect: str, member: dict[str, Any], named: str | None
) -> None:
    messages = beside_ref(tmp_path, dialect, member)
    assert [named in m for m in messages] == [True] if named else messages == []

"""A schema is read in the draft its `$schema` declares: the metaschema of that draft admits it to
the registry, and both engines validate against it with that draft's meaning, though the 2020-12
metaschema (the corpus convention `check` reports) may reject it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft3Validator, Draft4Validator, Draft7Validator, Draft202012Validator

from wopgen.corpus import Corpus
from wopgen.corpus.documents import parse_json
from wopgen.corpus.settings import Settings
from wopgen.corpus.validation import draft, metaschema_accepts

DRAFT4 = "http://json-schema.org/draft-04/schema#"
DRAFT7 = "http://json-schema.org/draft-07/schema#"
NAME = "one.schema.json"

# draft-07: an array `items` is a tuple (the 2020-12 metaschema rejects it), `$ref` siblings are ignored
TUPLES = {
    "$schema": DRAFT7,
    "definitions": {
        "pair": {"type": "array", "items": [{"type": "integer"}, {"type": "string"}]},
        "named": {"$ref": "#/definitions/pair", "maxItems": 0},
    },
}
# draft-04: a boolean `exclusiveMaximum` makes `maximum` exclusive
BOUNDS = {"$schema": DRAFT4, "definitions": {"below": {"type": "integer", "maximum": 10, "exclusiveMaximum": True}}}


def single(tmp_path: Path, schema: dict[str, Any]) -> Corpus:
    """A corpus of one schema file, as `wopgen compat` reads a plain file."""
    return Corpus(settings=Settings(root=tmp_path), schemas={NAME: parse_json(NAME, json.dumps(schema).encode())})


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        (None, Draft202012Validator),
        (DRAFT7, Draft7Validator),
        (DRAFT7.rstrip("#"), Draft7Validator),
        (DRAFT4, Draft4Validator),
        ("http://json-schema.org/draft-03/schema#", Draft3Validator),
        ("https://example.test/own-metaschema", Draft202012Validator),
        (5, Draft202012Validator),
    ],
)
def test_the_draft_is_the_one_the_schema_declares(declared: Any, expected: Any) -> None:
    schema = {} if declared is None else {"$schema": declared}
    assert draft(schema) is expected


@pytest.mark.parametrize("schema", [TUPLES, BOUNDS])
def test_a_schema_its_own_draft_accepts_is_in_the_registry(tmp_path: Path, schema: dict[str, Any]) -> None:
    corpus = single(tmp_path, schema)
    assert corpus.metaschema_errors(NAME)  # the 2020-12 metaschema rejects it...
    assert corpus.draft_errors(NAME) == ()  # ...its own accepts it
    assert corpus.resolvable(NAME)


def test_a_schema_its_own_draft_rejects_is_left_out(tmp_path: Path) -> None:
    corpus = single(tmp_path, {"$schema": DRAFT4, "minimum": "ten"})
    assert [e.validator for e in corpus.draft_errors(NAME) or ()] == ["type"]
    assert not corpus.resolvable(NAME)
    assert not corpus.accepts(NAME, "", 1)  # no verdict: not shown to be accepted


@pytest.mark.parametrize(
    ("schema", "pointer", "instance", "valid"),
    [
        (TUPLES, "/definitions/pair", [1, "a", None], True),  # a tuple: the third item may be anything
        (TUPLES, "/definitions/pair", ["a"], False),
        (TUPLES, "/definitions/named", [1, "a"], True),  # `maxItems` beside `$ref` means nothing in draft-07
        (BOUNDS, "/definitions/below", 9, True),
        (BOUNDS, "/definitions/below", 10, False),  # excluded by the draft-04 boolean
    ],
)
def test_both_engines_read_a_subschema_in_its_documents_draft(
    tmp_path: Path, schema: dict[str, Any], pointer: str, instance: Any, valid: bool
) -> None:
    corpus = single(tmp_path, schema)
    assert corpus.compiled_verdict(NAME, pointer, instance) is valid
    assert corpus.validator(NAME, pointer).is_valid(instance) is valid
    assert corpus.accepts(NAME, pointer, instance) is valid


def test_a_ref_out_of_the_corpus_is_never_shown_to_accept(tmp_path: Path) -> None:
    remote = {"$schema": DRAFT7, "definitions": {"far": {"$ref": "https://elsewhere.test/names.json"}}}
    corpus = single(tmp_path, remote)
    assert corpus.resolvable(NAME)
    assert corpus.compiled_verdict(NAME, "/definitions/far", "x") is None
    assert not corpus.accepts(NAME, "/definitions/far", "x")


def test_the_metaschema_of_a_draft_the_compiled_engine_lacks_is_not_asked_of_it() -> None:
    """`jsonschema-rs` bundles no draft-03 metaschema and would try to download it; `jsonschema` answers."""
    draft3 = {"$schema": "http://json-schema.org/draft-03/schema#", "properties": {"a": {"required": True}}}
    assert metaschema_accepts(draft3, Draft3Validator) is None
    assert metaschema_accepts(draft3) is False  # asked of 2020-12, whose metaschema it has at hand


def test_a_draft_07_dependencies_of_schemas_and_names_together_is_read(tmp_path: Path) -> None:
    # TextMate's grammar schema: `referencing` crawled the list of names after a schema value and failed
    schema = {
        "$schema": DRAFT7,
        "type": "object",
        "properties": {"begin": {"$ref": "#/definitions/text"}, "end": {"type": "string"}},
        "dependencies": {"begin": {"required": ["end"]}, "end": ["begin"]},
        "definitions": {"text": {"type": "string"}},
    }
    corpus = single(tmp_path, schema)
    assert corpus.draft_errors(NAME) == () and corpus.resolvable(NAME)
    assert corpus.registry.contents(corpus.uri_of(NAME)) == schema  # crawled, no `'list' object has no attribute`
    assert corpus.accepts(NAME, "", {"begin": "a", "end": "b"})
    assert not corpus.accepts(NAME, "", {"end": "b"})  # `end` needs `begin`

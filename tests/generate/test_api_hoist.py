"""The bundled schemas are flat: every `$defs` entry, and every other subschema a `$ref` lands on, is a
component of its own, so each `$ref` names a whole component (what client generators resolve), and
each component means what the corpus schema it comes from means."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from support.api_corpus import api_files
from support.corpus_factory import good_files, schema, write
from support.generated_models import repo_corpus
from wopgen.corpus import Corpus, load
from wopgen.corpus.documents import escape_token
from wopgen.corpus.graph import Located
from wopgen.generate.api import api_documents
from wopgen.generate.bundle import bundle_components, component_names, component_origins, component_ref

PREFIX = "#/components/schemas/"
NAME = re.compile(r"^[A-Za-z0-9._-]+$")  # OpenAPI 3.1, Components Object
THING = "schemas/thing.schema.json"


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) of every object inside `node`."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            yield from item.items()
        elif isinstance(item, list):
            stack.extend(item)


def test_repository_documents_name_only_whole_components() -> None:
    documents = api_documents(repo_corpus())
    assert set(documents) == {"openapi.yaml", "asyncapi.yaml"}
    for name, document in documents.items():
        schemas = document["components"]["schemas"]
        assert all(NAME.match(key) for key in schemas), name
        assert [key for key, _ in _walk(schemas) if key == "$defs"] == [], name
        refs = [value for key, value in _walk(document) if key == "$ref" and value.startswith(PREFIX)]
        assert refs, name
        assert sorted({ref for ref in refs if ref.removeprefix(PREFIX) not in schemas}) == [], name
    openapi, asyncapi = documents["openapi.yaml"], documents["asyncapi.yaml"]
    assert openapi["components"]["schemas"]["Capabilities_limits"]["title"]
    payload = asyncapi["components"]["schemas"]["RunStartedEvent"]["allOf"][1]["properties"]["payload"]
    assert payload == {"$ref": PREFIX + "RunEventPayloads_runStarted"}


def _validators(corpus: Corpus, schema_name: str, pointer: str) -> tuple[Any, Any]:
    """The validator of the corpus schema (read with its `$id`s) and of its bundled, flat component."""
    registry: Registry[Any] = Registry().with_resources(
        (doc.data["$id"], Resource.from_contents(doc.data)) for doc in corpus.schemas.values()
    )
    source = corpus.schemas_by_name[schema_name]
    original = Draft202012Validator({"$ref": source.data["$id"] + "#" + pointer}, registry=registry)
    flat = {
        "$ref": component_ref(corpus, PREFIX, Located(source.path, pointer)),
        "components": {"schemas": bundle_components(corpus, PREFIX)},
    }
    return original, Draft202012Validator(flat, format_checker=None)


def test_every_example_gets_the_same_verdict_from_the_flat_component() -> None:
    corpus = repo_corpus()
    verdicts = []
    for example in corpus.examples:
        pointer = "/$defs/" + escape_token(example.def_name) if example.def_name else ""
        original, flat = _validators(corpus, example.schema_name, pointer)
        verdict = original.is_valid(example.doc.data)
        assert flat.is_valid(example.doc.data) == verdict, example.path
        verdicts.append(verdict)
    # Some invalid examples break a semantic rule only, which no JSON Schema states.
    assert verdicts.count(True) > 50 and verdicts.count(False) > 50


def _tangled(root: Path) -> Corpus:
    """A corpus whose names clash and whose definitions nest."""
    files = copy.deepcopy(good_files())
    thing = files[THING]
    thing["properties"]["label"] = {"$ref": "#/$defs/name"}
    thing["properties"]["count"] = {"$ref": "#/$defs/a.b"}
    thing["properties"]["code"] = {"$ref": "#/$defs/a_b"}
    thing["properties"]["kind"] = {"$ref": "#/$defs/kinds/properties/value"}
    thing["$defs"] = {
        "name": {"allOf": [{"$ref": "#/$defs/name/$defs/text"}], "$defs": {"text": {"type": "string", "minLength": 1}}},
        "a.b": {"type": "integer"},
        "a_b": {"type": "string", "pattern": "^[A-Z]+$"},
        "kinds": {"type": "object", "properties": {"value": {"enum": ["x", "y"]}}},
    }
    thing["properties"]["name"] = {"$ref": "#/$defs/name"}
    files["schemas/thing-name.schema.json"] = schema("thing-name", {"title": "Thing_name", "type": "boolean"})
    return load(write(root, files))


def test_names_are_unique_readable_and_never_merge(tmp_path: Path) -> None:
    corpus = _tangled(tmp_path / "c")
    names = component_names(corpus)
    assert names["thing"] == "Thing" and names["thing-name"] == "Thing_name"
    origins = component_origins(corpus)
    assert {name: where.pointer for name, where in origins.items() if where.path == THING} == {
        "Thing": "",
        "Thing_a_b": "/$defs/a.b",  # `.` is written `_`: datamodel-code-generator reads a dotted name as a module
        "Thing_a_b-2": "/$defs/a_b",  # the same name for another schema: a suffix, never a merge
        "Thing_kinds": "/$defs/kinds",
        "Thing_name-2": "/$defs/name",  # `Thing_name` is a schema's title
        "Thing_name-2_text": "/$defs/name/$defs/text",
        "Thing_kinds_properties_value": "/$defs/kinds/properties/value",
    }
    bundled = bundle_components(corpus, PREFIX)
    assert "$defs" not in bundled["Thing"] and "$defs" not in bundled["Thing_name-2"]
    assert bundled["Thing_name-2"]["allOf"] == [{"$ref": PREFIX + "Thing_name-2_text"}]
    assert bundled["Thing_kinds"]["properties"]["value"] == {"$ref": PREFIX + "Thing_kinds_properties_value"}
    assert bundled["Thing"]["properties"]["kind"] == {"$ref": PREFIX + "Thing_kinds_properties_value"}
    assert bundled["Thing_name"]["type"] == "boolean"


@pytest.mark.parametrize(
    ("instance", "valid"),
    [
        ({"name": "n"}, True),
        ({"name": ""}, False),
        ({"name": "n", "label": "l", "count": 3, "code": "AB", "kind": "x"}, True),
        ({"name": "n", "count": "3"}, False),
        ({"name": "n", "code": "ab"}, False),
        ({"name": "n", "code": 3}, False),
        ({"name": "n", "kind": "z"}, False),
        ({"name": "n", "label": True}, False),
    ],
)
def test_the_flat_bundle_means_what_the_schemas_mean(tmp_path: Path, instance: Any, valid: bool) -> None:
    original, flat = _validators(_tangled(tmp_path / "c"), "thing", "")
    assert original.is_valid(instance) is valid
    assert flat.is_valid(instance) is valid


def _aliased(root: Path) -> Corpus:
    """A corpus whose definitions and properties include some that are nothing but a `$ref`, one of
    them an event payload, and one that also describes itself."""
    files = api_files()
    files["schemas/started-payload.schema.json"] = schema(
        "started-payload",
        {"title": "StartedPayload", "type": "object", "properties": {"at": {"type": "string", "minLength": 1}}},
    )
    files["schemas/run-event-payloads.schema.json"]["$defs"]["runStarted"] = {"$ref": "started-payload.schema.json"}
    thing = files[THING]
    thing["$defs"].update(
        {
            "label": {"$ref": "#/$defs/words"},  # a chain: label -> words -> text
            "words": {"$ref": "#/$defs/text"},
            "text": {"type": "string", "maxLength": 3},
            "remark": {"$ref": "#/$defs/text", "description": "A short remark."},
        }
    )
    thing["properties"].update(
        {
            "label": {"$ref": "#/$defs/label"},
            "remark": {"$ref": "#/$defs/remark"},
            "alias": {"$ref": "decision.schema.json"},
            "again": {"$ref": "#/properties/alias"},
        }
    )
    return load(write(root, files))


def test_a_subschema_that_is_only_a_ref_is_no_component(tmp_path: Path) -> None:
    corpus = _aliased(tmp_path / "c")
    origins = component_origins(corpus)
    assert {name: where.pointer for name, where in origins.items() if where.path == THING} == {
        "Thing": "",
        "Thing_name": "/$defs/name",
        "Thing_remark": "/$defs/remark",  # it says more than its `$ref`: kept
        "Thing_text": "/$defs/text",
    }
    assert "RunEventPayloads_runStarted" not in origins
    bundled = bundle_components(corpus, PREFIX)
    assert bundled["Thing"]["properties"]["label"] == {"$ref": PREFIX + "Thing_text"}
    assert bundled["Thing"]["properties"]["again"] == {"$ref": PREFIX + "Decision"}
    assert bundled["Thing_remark"] == {"$ref": PREFIX + "Thing_text", "description": "A short remark."}
    assert bundled["RunEventPayloads__typeIndex"]["properties"]["run.started"] == {"$ref": PREFIX + "StartedPayload"}
    documents = api_documents(corpus)
    for name, document in documents.items():
        schemas = document["components"]["schemas"]
        assert [key for key, body in schemas.items() if set(body) == {"$ref"}] == [], name
        refs = {value for key, value in _walk(document) if key == "$ref" and value.startswith(PREFIX)}
        assert sorted(ref for ref in refs if ref.removeprefix(PREFIX) not in schemas) == [], name
    payload = documents["asyncapi.yaml"]["components"]["schemas"]["RunStartedEvent"]["allOf"][1]["properties"][
        "payload"
    ]
    assert payload == {"$ref": PREFIX + "StartedPayload"}


@pytest.mark.parametrize(
    ("schema_name", "pointer", "instance", "valid"),
    [
        ("thing", "", {"name": "n", "label": "abc", "remark": "ok", "alias": "go", "again": "stop"}, True),
        ("thing", "", {"name": "n", "label": "abcd"}, False),
        ("thing", "", {"name": "n", "remark": "long"}, False),
        ("thing", "", {"name": "n", "again": "maybe"}, False),
        ("thing", "/$defs/label", "abc", True),
        ("thing", "/$defs/words", "abcd", False),
        ("run-event-payloads", "/$defs/runStarted", {"at": "now"}, True),
        ("run-event-payloads", "/$defs/runStarted", {"at": ""}, False),
    ],
)
def test_a_ref_to_an_alias_means_what_the_alias_means(
    tmp_path: Path, schema_name: str, pointer: str, instance: Any, valid: bool
) -> None:
    original, flat = _validators(_aliased(tmp_path / "c"), schema_name, pointer)
    assert original.is_valid(instance) is valid
    assert flat.is_valid(instance) is valid

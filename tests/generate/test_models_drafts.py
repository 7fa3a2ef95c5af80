"""`wopgen models` reads a schema of drafts 4 to 7 in its draft: the subschemas under `definitions` (and
one a `$ref` leads to in a group of definitions) are rewritten and judged as those under `$defs` are,
what the draft ignores beside a `$ref` is left out, and `dependencies` is fed as the conditions it means
(its lists of names) or reported (its schemas), and a list `items` as the `prefixItems` it means. Such a
schema is generated though the 2020-12 metaschema (the corpus convention) rejects its list `items`."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator, Draft202012Validator

from support.corpus_factory import good_files, schema
from support.generated_models import imported_package, takes

DRAFT4 = "http://json-schema.org/draft-04/schema#"
DRAFT7 = "http://json-schema.org/draft-07/schema#"

LEGACY = {
    "type": "object",
    "definitions": {
        "repo": {
            "type": "object",
            "properties": {
                "main": False,
                "contact": {"type": "string", "format": "email"},
                "note": {"type": "string"},
            },
        },
        # a group of definitions: no schema itself, but the one a `$ref` leads to in it is
        "group": {"named": {"type": "object", "properties": {"label": {"type": "string"}}}},
    },
    "properties": {
        "repo": {"$ref": "#/definitions/repo"},
        "grouped": {"$ref": "#/definitions/group/named"},
        # beside a `$ref`, draft-07 ignores every keyword
        "loose": {"$ref": "#/definitions/repo", "required": ["note"], "properties": {"note": {"type": "integer"}}},
        "a": {"type": "string"},
        "b": {"type": "string"},
        "pair": {
            "type": "array",
            "items": [{"type": "string"}, {"type": "integer"}],
            "additionalItems": False,
            "minItems": 2,
        },
    },
    "dependencies": {"a": ["b"]},
}
# An array that is one of two arrays, as a CycloneDX licence choice: named licences, or one expression. The
# library made a list of anything of it, the `type` beside the `oneOf` hiding its branches.
LEGACY["properties"]["licences"] = {
    "type": "array",
    "oneOf": [
        {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name"],
                "additionalProperties": False,
                "properties": {"name": {}},
            },
        },
        {
            "type": "array",
            "items": [
                {
                    "type": "object",
                    "required": ["expression"],
                    "additionalProperties": False,
                    "properties": {"expression": {}},
                }
            ],
            "additionalItems": False,
            "minItems": 1,
        },
    ],
}
TAKEN = [
    {"repo": {"note": "x", "other": 1}},
    {"a": "x", "b": "y"},
    {"b": "y"},
    {"repo": {"contact": "someone@example.com"}},
    {"pair": ["a", 1]},
    {"loose": {}},  # the `required` beside its `$ref` is ignored
    {"loose": {"note": "x"}},  # and so is the `integer` there
    {"licences": [{"name": "a"}, {"name": "b"}]},
    {"licences": [{"expression": "a"}]},
]
REFUSED = [
    {"repo": {"main": {}}},  # `false` under `definitions`
    {"repo": {"note": None}},  # an optional member that refuses null, under `definitions`
    {"a": "x"},  # `dependencies` lists `b` for `a`
    {"pair": [1, "a"]},  # each position has its own schema
    {"pair": ["a", 1, 2]},  # and nothing may follow them
    {"grouped": {"label": None}},  # an optional member that refuses null, in a definition of a group
    {"loose": {"main": 1}},  # the `$ref` itself holds
    {"licences": [1]},  # no branch takes it
    {"licences": [{"name": "a", "expression": "b"}]},
    {"licences": [{"expression": "a"}, {"expression": "b"}]},
]


@pytest.fixture(scope="module")
def legacy(tmp_path_factory: pytest.TempPathFactory) -> Any:
    files = good_files()
    files["schemas/legacy.schema.json"] = {**schema("legacy", LEGACY), "$schema": DRAFT7}
    # the package imports: a `format: email` under `definitions` is no EmailStr, which needs a package
    # the models do not depend on
    imported_package(files, tmp_path_factory.mktemp("legacy"), "legacy_models")
    return importlib.import_module("legacy_models.legacy_schema").Legacy


@pytest.mark.parametrize("instance", TAKEN)
def test_what_the_draft7_schema_takes_the_model_takes(legacy: Any, instance: Any) -> None:
    assert Draft7Validator({**LEGACY, "$schema": DRAFT7}).is_valid(instance)
    assert takes(legacy, instance)


@pytest.mark.parametrize("instance", REFUSED)
def test_what_the_draft7_schema_refuses_the_model_refuses(legacy: Any, instance: Any) -> None:
    assert not Draft7Validator({**LEGACY, "$schema": DRAFT7}).is_valid(instance)
    assert not takes(legacy, instance)


def _legacy_warnings(tmp_path: Path, body: dict[str, Any], package: str) -> list[str]:
    """The `models-inexact` messages on a draft-07 schema of `body`, generated as `package`."""
    files = good_files()
    files["schemas/legacy.schema.json"] = {**schema("legacy", body), "$schema": DRAFT7}
    warnings: list[Any] = []
    imported_package(files, tmp_path, package, warnings)
    return [w.message for w in warnings if w.path == "schemas/legacy.schema.json"]


def test_schemas_of_dependencies_are_reported(tmp_path: Path) -> None:
    found = _legacy_warnings(tmp_path, {**LEGACY, "dependencies": {"a": {"required": ["b"]}}}, "legacy_schemas_models")
    assert any("`dependencies`" in message for message in found), found


def test_a_list_items_the_model_cannot_hold_is_reported(tmp_path: Path) -> None:
    body = {
        "type": "object",
        "properties": {"open": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}},
    }
    found = _legacy_warnings(tmp_path, body, "legacy_items_models")
    assert any("list `items`" in message for message in found), found


def test_prefix_items_closed_by_items_false_is_a_tuple(tmp_path: Path) -> None:
    body = {
        "type": "object",
        "properties": {
            "pair": {
                "type": "array",
                "prefixItems": [{"type": "string"}, {"type": "integer"}],
                "items": False,
                "minItems": 2,
            }
        },
    }
    files = good_files()
    files["schemas/paired.schema.json"] = schema("paired", body)
    warnings: list[Any] = []
    imported_package(files, tmp_path, "paired_models", warnings)
    model = importlib.import_module("paired_models.paired_schema").Paired
    assert [w.message for w in warnings if w.path == "schemas/paired.schema.json"] == []
    for instance, valid in [({"pair": ["a", 1]}, True), ({"pair": [1, "a"]}, False), ({"pair": ["a", 1, 2]}, False)]:
        assert Draft202012Validator(body).is_valid(instance) is valid
        assert takes(model, instance) is valid, instance


@pytest.mark.parametrize(("dialect", "key"), [(DRAFT4, "id"), (DRAFT7, "$id")])
def test_a_schema_referring_to_its_own_id_with_an_empty_fragment_is_generated(
    tmp_path: Path, dialect: str, key: str
) -> None:
    """`x.json#` names the document `x.json` names: the library took a `$ref` to it for one to fetch."""
    own = "https://example.test/s/node.json"  # not where the file lies: the library reads the id
    body = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "child": {"$ref": own + "#"}},
    }
    files = good_files()
    files["schemas/node.schema.json"] = {**schema("node", body), "$schema": dialect, key: own + "#"}
    files["schemas/node.schema.json"].pop("$id" if key == "id" else "id", None)
    imported_package(files, tmp_path, f"node_{key.strip('$')}_models")
    model = importlib.import_module(f"node_{key.strip('$')}_models.node_schema").Node
    assert takes(model, {"name": "a", "child": {"name": "b"}})
    assert not takes(model, {"name": "a", "child": {"name": 1}})


def test_what_the_draft_ignores_beside_a_ref_draws_no_warning(tmp_path: Path) -> None:
    # the model ignores them as the draft does: nothing is inexact; written in an `allOf`, they apply
    beside = {"not": {"properties": {"a": {"const": 1}}}, "contains": {"type": "string"}}
    loose = {"$ref": "#/definitions/repo", **beside}
    found = _legacy_warnings(tmp_path / "a", {**LEGACY, "properties": {"loose": loose}}, "legacy_beside_models")
    assert not any("`not`" in m or "`contains`" in m for m in found), found
    bound = {"allOf": [{"$ref": "#/definitions/repo"}, beside]}
    found = _legacy_warnings(tmp_path / "b", {**LEGACY, "properties": {"bound": bound}}, "legacy_bound_models")
    assert any("`not`" in m for m in found) and any("`contains`" in m for m in found), found


@pytest.mark.parametrize(
    ("ref", "declared"),
    [
        ("part.json", "https://example.test/s/part.json"),  # relative to the referrer's own `$id`
        ("https://elsewhere.test/defs/part.json#/properties/x", "https://elsewhere.test/defs/part.json"),
    ],
)
def test_a_ref_to_another_schema_by_an_id_off_its_file_name_is_generated(
    tmp_path: Path, ref: str, declared: str
) -> None:
    """A `$ref` reaches another schema through the `$id` it declares, which is not the id base followed by
    its file name: the library read the URI as one to fetch, and refused the schemas."""
    files = good_files()
    part = {"type": "object", "properties": {"x": {"type": "integer"}}}
    files["schemas/part.schema.json"] = {**schema("part", part), "$schema": DRAFT7, "$id": declared}
    holder = {"type": "object", "properties": {"part": {"$ref": ref}}}
    own = "https://example.test/s/holder.json"
    files["schemas/holder.schema.json"] = {**schema("holder", holder), "$schema": DRAFT7, "$id": own}
    package = f"off_id_models_{len(ref)}"
    imported_package(files, tmp_path, package)
    model = importlib.import_module(f"{package}.holder_schema").Holder
    good, bad = ({"part": 1}, {"part": "a"}) if "#" in ref else ({"part": {"x": 1}}, {"part": {"x": "a"}})
    assert takes(model, good)
    assert not takes(model, bad)


def test_a_value_under_defs_that_is_no_schema_in_a_draft7_schema_is_generated(tmp_path: Path) -> None:
    """Draft-07 does not name `$defs`, so its metaschema takes any value there; a text beside the
    definitions made the library refuse the schemas."""
    body = {
        "type": "object",
        "$defs": {"label": {"type": "string"}, "note": "A text where a definition would be."},
        "properties": {"label": {"$ref": "#/$defs/label"}},
    }
    files = good_files()
    files["schemas/noted.schema.json"] = {**schema("noted", body), "$schema": DRAFT7}
    assert not list(Draft7Validator(Draft7Validator.META_SCHEMA).iter_errors(files["schemas/noted.schema.json"]))
    imported_package(files, tmp_path, "noted_defs_models")
    model = importlib.import_module("noted_defs_models.noted_schema").Noted
    assert takes(model, {"label": "a"})
    assert not takes(model, {"label": 1})

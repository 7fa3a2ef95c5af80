"""What the library is fed reads as the corpus schema does, where the schema as written lost keywords:
the members a `patternProperties` key matches are checked against the whole of its value (named in
`$defs`, where the library keeps every keyword); a nullable type beside an enum without null refuses
null; keywords beside an `allOf` of one `$ref` hold; an object that requires members it does not
declare requires them; `unevaluatedProperties` with no part beside it holds as `additionalProperties`; a member whose
schema is `false` may not be present; a hostname is checked by the schema's own keywords alone; an object whose `oneOf` groups are
`required` alone declares their members, so the library checks that exactly one group is present (closed or open); a
map that may be null types its values; a titled object written in place keeps its members, bounds and
`required` beside its patternProperties; members beside a `$ref` to a schema that refers back hold; a condition's `then` binds only where its
`if` holds; keywords of one type beside a union bind the branches of that type alone."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from support.corpus_factory import good_files, schema
from support.generated_models import imported_package, takes
from wopgen.generate.models_input import library_schema

# Per schema: its body, and instances on both sides of each value's keywords.
BODIES: dict[str, tuple[dict[str, Any], list[Any]]] = {
    "counts": (
        {"type": "object", "patternProperties": {"^x": {"type": "integer", "minimum": 5}}},
        [{"x1": 3}, {"x1": 6}, {"x1": "a"}, {"y": 1}],
    ),
    "labels": (
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "patternProperties": {"^l-": {"type": "string", "minLength": 2, "enum": ["ab", "cd", "de"]}},
            "additionalProperties": False,
            "$defs": {"PatternValue1": {"type": "string"}},  # the name the first value would take
        },
        [{"l-1": "ab"}, {"l-1": "zz"}, {"l-1": 5}, {"a": "x", "l-2": "de"}, {"b": 1}],
    ),
    "lists": (
        {"type": "object", "patternProperties": {"^t": {"type": "array", "minItems": 2, "items": {"type": "string"}}}},
        [{"t": ["a"]}, {"t": ["a", "b"]}, {"t": ["a", 1]}],
    ),
    "maybe": (
        {"type": "object", "required": ["v"], "properties": {"v": {"type": ["string", "null"], "enum": ["a", "b"]}}},
        [{"v": None}, {"v": "a"}, {"v": "c"}],
    ),
    "capped": (
        {
            "type": "object",
            "properties": {"v": {"allOf": [{"$ref": "#/$defs/count"}], "maximum": 10}},
            "$defs": {"count": {"type": "integer", "minimum": 0}},
        },
        [{"v": 11}, {"v": 5}, {"v": -1}],
    ),
    "needs": (
        {"type": "object", "properties": {"v": {"type": "object", "required": ["a"]}}},
        [{"v": {}}, {"v": {"a": 1}}, {"v": {"a": None, "b": 2}}],
    ),
    # ... and says, beside `required`, that it takes other members (or holds them to a schema): as array items too
    "needsitems": (
        {
            "type": "object",
            "properties": {
                "nodes": {
                    "type": "array",
                    "items": {"type": "object", "required": ["typeId", "version"], "additionalProperties": True},
                }
            },
        },
        [{"nodes": [{}]}, {"nodes": [{"typeId": 1}]}, {"nodes": [{"typeId": 1, "version": 2, "x": 3}]}],
    ),
    "needsmapped": (
        {
            "type": "object",
            "properties": {"v": {"type": "object", "required": ["a"], "additionalProperties": {"type": "integer"}}},
        },
        [{"v": {}}, {"v": {"a": 1, "b": 2}}, {"v": {"a": "s"}}, {"v": {"a": 1, "b": "s"}}],
    ),
    "rest": (
        {"type": "object", "properties": {"a": {"type": "string"}}, "unevaluatedProperties": {"type": "integer"}},
        [{"x": []}, {"x": 1}, {"a": "s", "x": 2}, {"a": 1}],
    ),
    "textorobject": (
        {"type": "object", "properties": {"v": {"type": ["string", "object"], "required": ["a"]}}},
        [{"v": {}}, {"v": "s"}, {"v": {"a": 1}}],
    ),
    "absent": (
        {"type": "object", "properties": {"gone": False, "b": {"type": "integer"}}},
        [{"gone": 1}, {"gone": None}, {"b": 1}, {}],
    ),
    "host": (
        {
            "type": "object",
            "properties": {
                "h": {"type": "string", "format": "hostname", "pattern": "^[a-z-]+$"},
                "u": {"format": "hostname"},
            },
        },
        [{"h": "-a-"}, {"h": "a.example"}, {"u": 5}, {"u": "-x-"}],
    ),
    # Formats the models do not type are annotations, as for the corpus validator: the library read `byte` as
    # base64, `uuid4` as a version 4 UUID, `decimal` as taking "1.5", and `ulid` imported a package the models
    # do not depend on (so the whole package did not import).
    "formatted": (
        {
            "type": "object",
            "properties": {
                "b": {"type": "string", "format": "byte"},
                "u": {"type": "string", "format": "uuid4"},
                "d": {"type": "number", "format": "decimal"},
                "l": {"type": "string", "format": "ulid"},
                "n": {"type": "string", "format": "ipv4-network"},
            },
        },
        [{"b": "not base64!"}, {"u": "x"}, {"d": "1.5"}, {"d": 1.5}, {"l": "x"}, {"n": "x"}],
    ),
    "groupsonly": (
        {"type": "object", "oneOf": [{"required": ["p", "q"]}, {"required": ["p", "r"]}]},
        [{"q": 2}, {"p": 1, "q": 2}, {"p": 1, "q": 2, "r": 3}, {}],
    ),
    # The same on a closed object (a CycloneDX 1.4 licence: an `id` or a `name`, not both): closing each group
    # as the object is closed made a class of it, and `{"p": 1, "q": 2}` passed the first.
    "closedgroups": (
        {
            "type": "object",
            "properties": {"p": {"type": "integer"}, "q": {"type": "integer"}},
            "additionalProperties": False,
            "oneOf": [{"required": ["p"]}, {"required": ["q"]}],
        },
        [{"p": 1}, {"q": 2}, {"p": 1, "q": 2}, {}, {"p": 1, "r": 3}, {"p": "s"}],
    ),
    "closedanygroups": (
        {
            "type": "object",
            "properties": {"p": {"type": "integer"}, "q": {"type": "integer"}},
            "additionalProperties": False,
            "anyOf": [{"required": ["p"]}, {"required": ["q"]}],
        },
        [{"p": 1}, {"p": 1, "q": 2}, {}, {"q": 2, "r": 3}],
    ),
    "nested": (
        {
            "type": "object",
            "patternProperties": {"^o": {"type": "object", "properties": {"n": {"minimum": 5, "type": "integer"}}}},
        },
        [{"o": {"n": 3}}, {"o": {"n": 6}}],
    ),
    "titledpatterns": (
        {
            "type": "object",
            "properties": {
                "o": {
                    "title": "Options",
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "patternProperties": {"^x-": {"type": "string"}},
                }
            },
        },
        [{"o": {"a": "1"}}, {"o": {"b": 1}}, {"o": {"x-y": 1}}, {"o": {"x-y": "v"}}, {"o": {"a": 1}}],
    ),
    # A titled pattern map without members: in place, the library kept its keys and values and dropped its
    # bounds and `required`.
    "titledbounded": (
        {
            "type": "object",
            "properties": {
                "d": {
                    "title": "Counts",
                    "type": "object",
                    "required": ["a"],
                    "maxProperties": 2,
                    "additionalProperties": False,
                    "patternProperties": {"^[a-z]+$": {"type": "integer"}},
                }
            },
        },
        [{"d": {}}, {"d": {"b": 1}}, {"d": {"a": 1}}, {"d": {"a": 1, "b": 2, "c": 3}}, {"d": {"A": 1}}],
    ),
    # Members beside a `$ref` to a schema that refers back (a tree): the library made a wrapper of the
    # referenced class and dropped them, so `kind` told no branch apart.
    "tree": (
        {
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node"}},
            "$defs": {
                "Base": {
                    "type": "object",
                    "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                },
                "Node": {"anyOf": [{"$ref": "#/$defs/Leaf"}, {"$ref": "#/$defs/Branch"}]},
                "Leaf": {"$ref": "#/$defs/Base", "properties": {"kind": {"const": "leaf"}}, "required": ["kind"]},
                "Branch": {"$ref": "#/$defs/Base", "properties": {"kind": {"const": "branch"}}, "required": ["kind"]},
            },
        },
        [
            {"root": {"kind": "other"}},
            {"root": {}},
            {"root": {"kind": "branch", "kids": [{"kind": "leaf"}]}},
            {"root": {"kind": "branch", "kids": [{"kind": "x"}]}},
        ],
    ),
    # The same where the referenced object holds a keyword of its own (an extension, patternProperties).
    "treewide": (
        {
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node"}},
            "$defs": {
                "Base": {
                    "type": "object",
                    "x-abstract": True,
                    "patternProperties": {"^x-": {"type": "string"}},
                    "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                },
                "Node": {"anyOf": [{"$ref": "#/$defs/Leaf"}, {"$ref": "#/$defs/Branch"}]},
                "Leaf": {"$ref": "#/$defs/Base", "properties": {"kind": {"const": "leaf"}}, "required": ["kind"]},
                "Branch": {"$ref": "#/$defs/Base", "properties": {"kind": {"const": "branch"}}, "required": ["kind"]},
            },
        },
        [{"root": {"kind": "other"}}, {"root": {"kind": "leaf", "x-a": "s"}}, {"root": {"kind": "leaf", "x-a": 5}}],
    ),
    # Members beside a `$ref` to a union stay beside it: fed as an `allOf`, the library kept one branch.
    "unionbeside": (
        {
            "type": "object",
            "properties": {"foreach": {"type": "boolean"}},
            "$ref": "#/$defs/p",
            "$defs": {
                "p": {
                    "anyOf": [
                        {"not": {"required": ["parallel"]}},
                        {"properties": {"foreach": {"const": True}}, "required": ["foreach"]},
                    ]
                }
            },
        },
        [{}, {"foreach": False}, {"parallel": 1}, {"parallel": 1, "foreach": True}],
    ),
    # A condition whose `then` and `else` declare members: the library typed the object with the `then`'s,
    # whatever the `if` said; only their `required` is read alike, the rest goes unchecked (and warned).
    "conditioned": (
        {
            "type": "object",
            "properties": {"v": {"type": "integer"}},
            "if": {"properties": {"v": {"const": 3}}, "required": ["v"]},
            "then": {"properties": {"x": {"type": "object"}}, "required": ["x"]},
            "else": {"properties": {"x": {"type": "string"}}},
        },
        [{"v": 2, "x": "s"}, {"v": 3, "x": {}}, {"v": 3}, {"v": 2}],
    ),
    # The same where the target reaches the union through an `allOf` part of its own.
    "unionbelow": (
        {
            "type": "object",
            "properties": {"foreach": {"type": "boolean"}},
            "$ref": "#/$defs/p",
            "$defs": {
                "p": {"type": "object", "allOf": [{"$ref": "#/$defs/q"}]},
                "q": {
                    "anyOf": [
                        {"not": {"required": ["parallel"]}},
                        {"properties": {"foreach": {"const": True}}, "required": ["foreach"]},
                    ]
                },
            },
        },
        [{}, {"foreach": False}, {"parallel": 1}, {"parallel": 1, "foreach": True}, {"foreach": 5}],
    ),
    "titledfalse": (
        {
            "type": "object",
            "properties": {
                "repos": {
                    "title": "Repos",
                    "type": "object",
                    "properties": {"main": False},
                    "additionalProperties": {"type": "object", "properties": {"url": {"type": "string"}}},
                }
            },
        },
        [{"repos": {"main": {"url": "u"}}}, {"repos": {"other": {"url": "u"}}}, {"repos": {"other": {"url": 1}}}],
    ),
    # Keywords of one type beside a union whose branches take other types too: the library typed the whole
    # by `items` or `properties` and refused the other branches' values.
    "eventnames": (
        {
            "type": "object",
            "properties": {
                "types": {"allOf": [{"$ref": "#/$defs/names"}], "items": {"enum": ["opened", "closed"]}, "minItems": 1}
            },
            "$defs": {"names": {"oneOf": [{"type": "array"}, {"type": "string"}]}},
        },
        [{"types": "opened"}, {"types": "other"}, {"types": ["opened"]}, {"types": ["other"]}, {"types": []}],
    ),
    "oneormany": (
        {
            "type": "object",
            "properties": {
                "v": {"$ref": "#/$defs/one", "items": {"type": "integer"}, "maxLength": 3},
            },
            "$defs": {"one": {"anyOf": [{"type": "array"}, {"type": "string"}, {"type": "null"}]}},
        },
        [{"v": "abc"}, {"v": "abcd"}, {"v": None}, {"v": [1]}, {"v": ["a"]}, {"v": 5}],
    ),
    "objectorname": (
        {
            "type": "object",
            "properties": {
                "v": {
                    "oneOf": [{"type": "object"}, {"type": "string", "minLength": 2}],
                    "properties": {"a": {"type": "integer"}},
                    "required": ["a"],
                }
            },
        },
        [{"v": "ab"}, {"v": "a"}, {"v": {"a": 1}}, {"v": {"a": "x"}}, {"v": {}}, {"v": 3}],
    ),
    "nestedunion": (
        {
            "type": "object",
            "properties": {
                "v": {
                    "anyOf": [{"$ref": "#/$defs/shape"}, {"type": "integer"}],
                    "properties": {"a": {"type": "string", "maxLength": 1}},
                }
            },
            "$defs": {"shape": {"anyOf": [{"type": "object"}, {"type": "array"}]}},
        },
        [{"v": 5}, {"v": [1]}, {"v": {"a": "x"}}, {"v": {"a": "xy"}}, {"v": "s"}],
    ),
    "anchored": (  # a `$ref` by anchor is not read as a pointer (`#list` is not the document's root)
        {
            "type": "object",
            "properties": {"v": {"anyOf": [{"$ref": "#list"}, {"type": "string"}], "items": {"type": "integer"}}},
            "$defs": {"list": {"$anchor": "list", "type": "array"}},
        },
        [{"v": [1]}, {"v": ["a"]}, {"v": "s"}, {"v": 1}],
    ),
    "nullablemap": (
        {
            "type": "object",
            "properties": {"m": {"type": ["object", "null"], "additionalProperties": {"type": "string"}}},
        },
        [{"m": {"k": 1}}, {"m": {"k": "v"}}, {"m": None}, {}],
    ),
}


def test_the_models_take_what_the_schemas_take(tmp_path: Path) -> None:
    files = good_files()
    for name, (body, _instances) in BODIES.items():
        files[f"schemas/{name}.schema.json"] = {**schema(name, body), "title": name.title()}
    imported_package(files, tmp_path, "fed_models", [])
    for name, (body, instances) in BODIES.items():
        model = getattr(importlib.import_module(f"fed_models.{name}_schema"), name.title())
        for instance in instances:
            assert takes(model, instance) == Draft202012Validator(body).is_valid(instance), (name, instance)


def test_a_value_is_named_in_defs_under_a_name_left_free() -> None:
    fed = library_schema(BODIES["labels"][0])
    assert fed["patternProperties"] == {"^l-": {"$ref": "#/$defs/PatternValue2"}}
    assert fed["$defs"]["PatternValue1"] == {"type": "string"}
    assert fed["$defs"]["PatternValue2"]["minLength"] == 2
    assert library_schema(BODIES["nested"][0])["patternProperties"]["^o"]["type"] == "object"  # a model already


def test_a_document_with_an_id_below_its_root_is_fed_as_written() -> None:
    body = {
        "type": "object",
        "properties": {"inner": {"$id": "https://example.com/inner", "type": "object"}},
        "patternProperties": {"^x": {"type": "integer", "minimum": 5}},
    }
    assert library_schema(body)["patternProperties"] == body["patternProperties"]


def test_a_titled_object_is_named_in_defs_unless_a_ref_points_into_it() -> None:
    body = BODIES["titledpatterns"][0]
    fed = library_schema(body)
    assert fed["properties"]["o"] == {"$ref": "#/$defs/PatternObject1"}
    assert fed["$defs"]["PatternObject1"]["title"] == "Options"
    pointed = {**body, "properties": {**body["properties"], "b": {"$ref": "#/properties/o/properties/a"}}}
    assert library_schema(pointed)["properties"]["o"]["title"] == "Options"  # left in place


def test_keywords_of_one_type_move_into_the_branches_of_that_type() -> None:
    """Each branch of the union gets the keywords of the types it may take (every keyword where it does not
    say its types), the union's holder keeps the rest; nothing changes where a `$ref` leads into the union."""
    body = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
            "v": {
                "description": "One or more.",
                "anyOf": [{"type": "array"}, {"type": "string"}, {"$ref": "#/$defs/any"}],
                "items": {"type": "integer"},
                "minItems": 1,
                "maxLength": 4,
            }
        },
        "$defs": {"any": {"description": "Anything."}},
    }
    fed = library_schema(body)["properties"]["v"]
    assert fed == {
        "description": "One or more.",
        "anyOf": [
            {"allOf": [{"type": "array"}], "items": {"type": "integer"}, "minItems": 1},
            {"allOf": [{"type": "string"}], "maxLength": 4},
            {"allOf": [{"$ref": "#/$defs/any"}], "items": {"type": "integer"}, "maxLength": 4, "minItems": 1},
        ],
    }
    every_array = {"anyOf": [{"type": "array", "maxItems": 2}, {"type": "array", "minItems": 4}], "items": {}}
    assert library_schema({"properties": {"v": every_array}})["properties"]["v"] == {
        "anyOf": [{"type": "array", "maxItems": 2, "items": {}}, {"type": "array", "minItems": 4, "items": {}}]
    }  # the library makes a list of an array beside a union, whatever its branches: they get its keywords
    pointed = {
        "properties": {
            "v": {"anyOf": [{"type": "array"}, {"type": "string"}], "items": {}},
            "w": {"$ref": "#/properties/v/anyOf/1"},
        }
    }
    assert library_schema(pointed)["properties"]["v"] == pointed["properties"]["v"]
    resource = {  # a target with an id of its own is a resource: its branches are not pointed at from the root
        "properties": {"v": {"allOf": [{"$ref": "#/$defs/one"}], "items": {}}},
        "$defs": {"one": {"$id": "one.json", "anyOf": [{"type": "array"}, {"type": "string"}]}},
    }
    assert "anyOf" not in library_schema(resource)["properties"]["v"]


def test_members_stay_beside_a_ref_whose_target_leads_on_by_anchor() -> None:
    """A target that leads on by an anchor (`#shape`) may branch: its members stay where they are written,
    as beside any target whose branches cannot be followed (the anchor is not read as the root)."""
    body = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {"v": {"$ref": "#/$defs/node", "properties": {"kind": {"const": "leaf"}}}},
        "$defs": {
            "node": {"type": "object", "allOf": [{"$ref": "#shape"}]},
            "shape": {"$anchor": "shape", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
        },
    }
    fed = library_schema(body)["properties"]["v"]
    assert fed["$ref"] == "#/$defs/node" and "allOf" not in fed


# Objects that declare no members: each keeps every member it is sent, as JSON Schema's open object does.
OPEN: dict[str, Any] = {
    "type": "object",
    "properties": {"inputs": {"$ref": "#/$defs/_inputsObject"}, "plain": {"type": "object", "description": "d"}},
    "$defs": {"_inputsObject": {"type": "object", "description": "Whatever the run was given."}},
}


def _open_classes(package: Any) -> list[str]:
    """The names of the generated BaseModel classes (not root models) of `package` that leave unknown
    members to pydantic's default, `extra='ignore'`, which drops them. Not the library's private bases
    (`_JsonSchemaRuntimeValidationBase`), which hold run-time checks and no schema of their own."""
    import pkgutil

    import pydantic

    found = []
    for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                isinstance(value, type)
                and issubclass(value, pydantic.BaseModel)
                and not issubclass(value, pydantic.RootModel)
                and value.__module__ == module.__name__
                and not name.startswith("_")
                and value.model_config.get("extra") not in ("allow", "forbid")
            ):
                found.append(f"{info.name}.{name}")
    return found


def test_an_object_that_declares_no_members_keeps_those_it_is_sent(tmp_path: Path) -> None:
    files = good_files()
    files["schemas/open.schema.json"] = {**schema("open", OPEN), "title": "Open"}
    for name in ("bare", "noted"):  # a root that is an object and nothing else
        files[f"schemas/{name}.schema.json"] = {**schema(name, {"type": "object"}), "title": name.title()}
    package = imported_package(files, tmp_path, "open_models", [])
    judge = Draft202012Validator(OPEN)
    model = importlib.import_module("open_models.open_schema").Open
    for instance in ({"inputs": {"q": "hello"}, "plain": {"a": 1}}, {"inputs": {"result": 42}}, {"inputs": 5}):
        assert takes(model, instance) == judge.is_valid(instance), instance
        if judge.is_valid(instance):  # and dumps back what it was sent: no member dropped
            assert model.model_validate(instance).model_dump(mode="json", exclude_unset=True) == instance
    bare = importlib.import_module("open_models.bare_schema").Bare
    assert bare.model_validate({"a": 1}).model_dump(mode="json") == {"a": 1}
    assert _open_classes(package) == []


def test_no_class_of_the_repository_package_drops_unknown_members() -> None:
    from support.generated_models import package

    assert _open_classes(package()) == []

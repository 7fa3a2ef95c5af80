"""The schemas as datamodel-code-generator is fed them: the corpus's, rewritten where the library would
otherwise type them looser than JSON Schema reads them, into what means the same and what the library
checks (`library_schema`). What no rewrite can give the library is reported by `models_inexact`."""

from __future__ import annotations

import json
import re
from functools import partial
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from wopgen.compat.cover import json_type, within
from wopgen.corpus.graph import (
    Position,
    map_subschemas,
    pointed_schemas,
    pointer_fragment,
    ref_strings,
    replaced,
    schema_objects,
    subschemas,
    value_at,
)
from wopgen.corpus.keywords import CURRENT, DEFS, IN_PLACE_APPLICATORS, Draft, draft_of
from wopgen.generate.models_conditions import WORDS, required_only, tested_members
from wopgen.generate.models_formats import typed_format
from wopgen.generate.models_passes import (
    conditions_read,
    members_apart,
    open_parts_true,
    refs_alone,
    typed_into_branches,
)


def library_schema(schema: Any) -> Any:
    """A copy of the schema document `schema` as datamodel-code-generator is fed it (`_fed`), each
    value of a `patternProperties` that holds more than a type moved into `$defs` (`_values_named`). Its
    subschemas are found where the document's draft keeps them (`definitions`, `dependencies`...)."""
    draft = draft_of(schema)
    fed = _fed(refs_alone(schema), draft)
    for pointer in pointed_schemas(schema):  # a schema where no keyword of the draft keeps one (`_fed` skips it)
        fed = replaced(fed, pointer, lambda node: _fed(node, draft))
    out = _values_named(
        _objects_named(members_apart(typed_into_branches(open_parts_true(conditions_read(fed)))), draft), draft
    )
    declared = out.get(draft.id_key) if isinstance(out, dict) else None
    if isinstance(declared, str) and declared.endswith("#"):
        # `x.json#` names the document as `x.json` does; the library files it under the first and then
        # took a `$ref` to `x.json#` (or to `x.json`) for one to fetch, and refused the schema
        out = {**out, draft.id_key: declared[:-1]}
    return out


def _definitions_alone(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` without the values of its `$defs` that are no schema. Drafts 4 to 7 do not name `$defs` and
    take any value there, and no `$ref` leads to one as to a schema (`schema-ref-unresolved`); the library
    reads `$defs` in every draft, and refused the schemas for a text beside the definitions."""
    found = schema.get(DEFS)
    if not isinstance(found, dict) or all(isinstance(value, dict | bool) for value in found.values()):
        return schema
    return {**schema, DEFS: {name: value for name, value in found.items() if isinstance(value, dict | bool)}}


def _fed(schema: Any, draft: Draft = CURRENT) -> Any:
    """A copy of `schema` changed where the library would otherwise type it looser than JSON Schema
    reads it:

    - every object schema with `properties`, or typed `object` alone, states its openness. JSON Schema
      treats an absent `additionalProperties` as `true`; Pydantic's default would drop the unknown
      members instead of keeping them, so the fed copy says `true` out loud and the model gets
      `extra='allow'` (a `$defs` entry of `{"type": "object"}` and a description became a class with no
      `extra`, which dumped `{"result": 42}` as `{}`). Closed
      schemas (`false`) keep `extra='forbid'`. An `if` is left as written: it becomes no model, and
      the library checks a condition only when it holds nothing but `required` and `properties`.
    - a `const` the library cannot write as a `Literal` (a number with a fraction, an array, an object)
      is fed as the one-value `enum` it equals: the library drops such a `const` and keeps only its type
      (`const: 1.5` took any number, and any value where no type is stated), while it makes an Enum
      class of the `enum`.
    - a `dependentRequired` is fed as the `if: {required: [name]}, then: {required: [...]}` it equals,
      one per name, added to the `allOf`: the library checks such a condition at run time and
      ignores `dependentRequired`. So is each list of names of a draft-04 to 07 `dependencies`, and a list
      `items` of those drafts is fed as the `prefixItems` it means (`positional_items`).
    - a map that may be null is fed as the `anyOf` of the map and null (`_nullable_map`).
    - `prefixItems` with `items: false` states the `maxItems` that means: the library writes a tuple that
      checks each position only when `minItems` and `maxItems` both give the count of positions, and
      took `[1, "a"]` for `prefixItems: [string, integer]`, `items: false`, `minItems: 2`.
    - an `enum` lists only the values its siblings (`type`, `minLength`, `pattern`, `minimum`...) take
      (`_enum_narrowed`): the library makes an Enum class of the list and drops the siblings, so
      `{"type": "string", "enum": ["a", 5]}` took 5.
    - a `pattern` (and a key of `patternProperties`) spells `\\d` and `\\w` as the ASCII classes they
      are in ECMA-262 (`ascii_classes`): the model's regex engines read them over Unicode, so `^\\d+$`
      took Arabic-Indic digits the schema refuses.
    - a `format` the models do not type (`typed_format`: one of `TYPED_FORMATS`, on strings alone) is
      left out, so the value is the string (or number) its other keywords say. The library reads many formats its own way: `hostname` put its
      hostname pattern in place of the schema's (it refused `-a-`, which the schema takes, and raised
      a TypeError on a number where no type is named), `byte` took only base64, `uuid4` only version 4
      UUIDs, `decimal` took the string "1.5" where the schema says number, and `ulid` imported a
      package the models do not depend on, so the package did not import at all.
    - an `if` that tests members the object requires anyway, without requiring them itself (`if:
      {properties: {kind: {const: "rating"}}}` beside `required: ["kind"]`), requires them
      (`tested_members`): the library checks only a condition that requires what it
      tests, and the two read alike on every object that has the members.
    """
    if not isinstance(schema, dict):
        return schema
    out = _ref_beside(map_subschemas(schema, lambda sub: _fed(sub, draft), draft))
    out = _absent_as_not_required(_definitions_alone(out))
    if out.get("properties") == {} and "type" not in out:
        # declares nothing, and names no type: the library typed it an object (as a member) or not (as a
        # definition), so one place refused 5 and the other took it, as the schema does
        del out["properties"]
    if _only_beside_members(out):  # with no part beside them, what no member declares is what is additional
        out["additionalProperties"] = out.pop("unevaluatedProperties")
    required = out.get("required")
    kinds = out.get("type")
    typed_object = kinds == "object" or (isinstance(kinds, list) and "object" in kinds)
    named = required_names(out) if typed_object else []
    if named:
        # An object that requires members and declares none: the library made it a dict and dropped `required`
        # (and the groups of a union of `required` alone, of which it checks one only among declared members).
        # Each is declared with the schema `additionalProperties` holds it to (none: any value), so what it
        # takes is unchanged.
        additional = out.get("additionalProperties", True)
        out["properties"] = {name: dict(additional) if isinstance(additional, dict) else {} for name in named}
    if (
        ("properties" in out or kinds == "object")
        and "additionalProperties" not in out
        and "unevaluatedProperties" not in out
    ):
        out["additionalProperties"] = True
    out = _closed_into_branches(out)
    condition = schema.get("if")
    if isinstance(condition, dict) and "additionalProperties" not in condition:
        out["if"] = {key: value for key, value in out["if"].items() if key != "additionalProperties"}
    if isinstance(out.get("const"), float | list | dict) and "enum" not in out:
        out["enum"] = [out.pop("const")]
    if isinstance(out.get("enum"), list):
        out = _enum_narrowed(out)
    required = out.get("required")
    out = _requiring_tested(out, [])
    if isinstance(out.get("allOf"), list):
        out["allOf"] = [
            _requiring_tested(part, required if isinstance(required, list) else []) for part in out["allOf"]
        ]
    if "format" in out and not typed_format(out):
        del out["format"]
    if isinstance(out.get("pattern"), str):
        out["pattern"] = ascii_classes(out["pattern"])
    keys = out.get("patternProperties")
    if isinstance(keys, dict):
        out["patternProperties"] = {ascii_classes(key): value for key, value in keys.items()}
    if draft.legacy:
        out = positional_items(_dependencies_split(out))
    out = _nullable_map(out)
    prefix = out.get("prefixItems")
    if isinstance(prefix, list) and out.get("items") is False and "maxItems" not in out:
        out["maxItems"] = len(prefix)  # what `items: false` says, in the words the library makes a tuple of
    dependent = out.get("dependentRequired")
    if (
        isinstance(dependent, dict)
        and all(isinstance(needs, list) for needs in dependent.values())
        and isinstance(out.get("allOf", []), list)
    ):
        conditions = [{"if": {"required": [name]}, "then": {"required": needs}} for name, needs in dependent.items()]
        out["allOf"] = [*out.get("allOf", []), *conditions]
        del out["dependentRequired"]
    return out


def _closed_into_branches(node: dict[str, Any]) -> dict[str, Any]:
    """`node`, closed by `additionalProperties: false`, with each branch of its `anyOf` and `oneOf` written in
    place (no `$ref`) closed too. The library makes a class of each such branch holding the members
    declared beside the union and the branch's own, and took the branch's openness for the class's:
    `extra='allow'`, so `{"zz": 1}` passed where the object refuses it. Closed, the class refuses what it
    does not declare, as the object does; a member the branch declares and the object does not stays
    taken by the class, and `models_closed` reports it. Not a branch whose members are held otherwise
    (`patternProperties`, `unevaluatedProperties`) or that is a class of its own (`$ref`). Not a union of
    `required` groups alone either: the library makes no class of them, and checks how many groups the
    object's own closed class holds only while each branch is `required` alone (closed, `{"a": 1, "b": 1}`
    passed the `oneOf` of `required: ["a"]` and `required: ["b"]`)."""
    if not closes_branches(node):
        return node
    out = node
    for keyword in ("anyOf", "oneOf"):
        branches = out.get(keyword)
        if not isinstance(branches, list) or all(required_only(branch) for branch in branches):
            continue
        closed = [
            {**branch, "additionalProperties": False}
            if isinstance(branch, dict)
            and branch.get("additionalProperties", True) is True
            and not _HELD_APART.intersection(branch)
            else branch
            for branch in branches
        ]
        out = {**out, keyword: closed}
    return out


def closes_branches(node: dict[str, Any]) -> bool:
    """Whether the object `node` is closed by `additionalProperties: false` alone, so that the classes of the
    branches of its `anyOf`/`oneOf` are closed as it is (`_closed_into_branches`). Not with
    `patternProperties`: members a pattern matches the library checks at run time, and refused nothing more."""
    return node.get("additionalProperties") is False and "patternProperties" not in node


# What makes a branch hold its members other than by `additionalProperties`, or a class of another schema.
_HELD_APART = frozenset({"$ref", "$dynamicRef", "patternProperties", "unevaluatedProperties"})


def positional_items(node: dict[str, Any]) -> dict[str, Any]:
    """A schema of drafts 4 to 7 whose `items` is a list (one schema per position) written as 2020-12
    says the same: `prefixItems`, and `additionalItems` as `items` (none: what follows may be anything).
    The library reads `prefixItems`; it took a list `items` for the schema of every item."""
    if not isinstance(node.get("items"), list):
        return node
    out = {key: value for key, value in node.items() if key not in ("items", "additionalItems")}
    out["prefixItems"] = node["items"]
    if "additionalItems" in node:
        out["items"] = node["additionalItems"]
    return out


def _dependencies_split(node: dict[str, Any]) -> dict[str, Any]:
    """A schema of drafts 4 to 7 with the names its `dependencies` require (a list of names) moved into
    the `dependentRequired` they mean in 2019-09, which is fed as conditions below; `dependencies` keeps
    the subschemas, which the model does not check (`models_inexact`). A `dependentRequired` written in
    such a schema means nothing in its draft and is dropped."""
    out = dict(node)
    out.pop("dependentRequired", None)
    written = out.get("dependencies")
    if not isinstance(written, dict):
        return out
    names = {name: needs for name, needs in written.items() if isinstance(needs, list)}
    if names:
        out["dependentRequired"] = names
        rest = {name: value for name, value in written.items() if name not in names}
        if rest:
            out["dependencies"] = rest
        else:
            del out["dependencies"]
    return out


# What a value of `patternProperties` may hold that the library keeps when the value is written in place:
# its type, a model's members, and words.
_KEPT_IN_PLACE = frozenset({"type", "title", "description", "$comment", "examples", "default", "deprecated"})
_VALUE_NAME = "PatternValue"


def _values_named(document: Any, draft: Draft = CURRENT) -> Any:
    """`document` with each value of a `patternProperties` that holds more than a type (`minimum: 5`,
    `minLength`, an `enum`...) moved into the document's `$defs` and referred to there.

    Written in place, such a value is checked by its type alone: the library's run-time check of the
    members a pattern matches takes the value's type and drops its other keywords, so `{"x1": 3}`
    passed `"^x": {"type": "integer", "minimum": 5}`. A value it reaches by `$ref` keeps them all. An
    object with members is a model of its own either way, and is left in place; so is every value of a
    document that declares an `$id` below its root, where `#/$defs/...` may resolve elsewhere."""
    if not _may_name(document, draft):
        return document
    defs: dict[str, Any] = {}
    taken = set(document.get("$defs", {}))

    def named(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        out = map_subschemas(node, named, draft)
        keys = out.get("patternProperties")
        if isinstance(keys, dict):
            out["patternProperties"] = {key: hoisted(value) for key, value in keys.items()}
        return out

    def hoisted(value: Any) -> Any:
        if not isinstance(value, dict) or set(value) <= _KEPT_IN_PLACE or "$ref" in value:
            return value
        if "properties" in value or value.get("type") == "object":
            return value
        name = _free_name(_VALUE_NAME, taken)
        defs[name] = value
        return {"$ref": f"#/$defs/{name}"}

    out = named(document)
    if defs:
        out["$defs"] = {**out.get("$defs", {}), **defs}
    return out


def _objects_named(document: Any, draft: Draft) -> Any:
    """`document` with each titled object written in place that the library would make a dict of
    (`_dict_in_place`) moved into the document's `$defs` and referred to there.

    Written in place, the library makes such an object a dict and drops its `properties`: where it
    declares `patternProperties` the keys must match them (`{"a": "1"}` was refused where `a` is
    declared), its `required`, `minProperties` and `maxProperties` went unchecked, and a member declared
    `false` was taken. Defined apart (or at a
    root), it is a class of its members that checks the patterns at run time. An object some `$ref`
    points into is left in place, as is every object of a document with an `$id` below its root."""
    if not _may_name(document, draft):
        return document
    refs = [ref for _path, ref in ref_strings(document)]
    found = [
        item.pointer
        for item in schema_objects(document, "")
        if item.position is Position.SCHEMA
        and item.pointer
        and not re.fullmatch(r"/(?:\$defs|definitions)/[^/]+", item.pointer)
        and _dict_in_place(item.node)
        and not any(ref.startswith(pointer_fragment(item.pointer)) for ref in refs)
    ]
    if not found:
        return document
    out = document
    taken = set(out.get("$defs", {}))
    names = [_free_name(_OBJECT_NAME, taken) for _pointer in found]  # numbered in document order
    moved: dict[str, Any] = {}
    # Last first: an object moved leaves the pointers of those before it (and above it) as they were, and
    # one inside it is moved before it is.
    for pointer, name in reversed(list(zip(found, names, strict=True))):
        moved[name] = value_at(out, pointer)[1]
        out = replaced(out, pointer, partial(_referring, f"#/$defs/{name}"))
    return {**out, "$defs": {**out.get("$defs", {}), **{name: moved[name] for name in names}}}


_OBJECT_NAME = "PatternObject"


def _referring(ref: str, _node: Any) -> dict[str, Any]:
    return {"$ref": ref}


def _may_name(document: Any, draft: Draft) -> bool:
    """Whether subschemas of `document` may be moved into its `$defs`: a `#/$defs/...` there leads to
    the document's own, which it does not where an `$id` below the root may set another base."""
    return (
        isinstance(document, dict) and isinstance(document.get("$defs", {}), dict) and not _nested_id(document, draft)
    )


def _free_name(prefix: str, taken: set[str]) -> str:
    """`prefix` and the lowest number no name of `taken` has, which it then takes."""
    number = 1
    while f"{prefix}{number}" in taken:
        number += 1
    taken.add(f"{prefix}{number}")
    return f"{prefix}{number}"


def _dict_in_place(node: dict[str, Any]) -> bool:
    """Whether the library, meeting the fed `node` in place, makes a dict of it and drops what else it
    says: a titled object with `patternProperties` (it keeps their keys and values, and drops declared
    members, `required`, `minProperties`, `maxProperties`, `dependentRequired`, `not`...), or one that
    declares no members beside an `allOf` (where `_fed` puts the members it forbids: `"main": false` is
    `not: {required: ["main"]}`)."""
    if not isinstance(node.get("title"), str):
        return False
    if isinstance(node.get("patternProperties"), dict):
        return True
    members = node.get("properties")
    return isinstance(members, dict) and not members and "allOf" in node


def _nested_id(document: dict[str, Any], draft: Draft) -> bool:
    """Whether a schema object below the root of `document` declares an `$id` (read in `draft`)."""
    todo = subschemas(document, draft)
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if draft.id_of(node) is not None:
                return True
            todo += subschemas(node, draft)
    return False


def _enum_narrowed(node: dict[str, Any]) -> dict[str, Any]:
    """`node` with its `enum` listing only the values the keywords beside it take too: what the schema
    takes. The library makes an Enum class of the list and drops a `type`, `minLength` or `minimum`
    beside it (`{"type": "string", "enum": ["a", 5]}` took 5); and of arrays or objects beside a `type`
    or `properties` it makes that type and drops the list (`{"type": "array", "const": [1]}` took
    `[2]`), so where every value left passes the keywords beside it, which then say nothing more, such
    a list is fed alone. `node` as written when none of the values passes them, or when they cannot be
    read on their own (a `$ref`, a keyword of the wrong shape)."""
    siblings = {key: value for key, value in node.items() if key != "enum" and key not in WORDS and key[:2] != "x-"}
    listed: list[Any] = node["enum"]
    if not siblings:
        return node
    if siblings.keys() == {"type"} and isinstance(siblings["type"], str | list):  # the common case, told apart quickly
        named = {siblings["type"]} if isinstance(siblings["type"], str) else set(siblings["type"])
        kept = [value for value in listed if within(frozenset({json_type(value)}), frozenset(named))]
    elif '"$ref"' in json.dumps(siblings) or '"$dynamicRef"' in json.dumps(siblings):
        return node  # judged only with the corpus around it
    else:
        try:
            judge = Draft202012Validator(siblings)
            kept = [value for value in listed if judge.is_valid(value)]
        except (SchemaError, re.error, TypeError, ValueError, RecursionError):  # a keyword of the wrong shape
            return node
    if not kept:
        return node
    if any(isinstance(value, list | dict) for value in kept):
        return {key: value for key, value in node.items() if key not in siblings} | {"enum": kept}
    narrowed = {**node, "enum": kept}
    kinds = node.get("type")
    if isinstance(kinds, list) and "null" in kinds and None not in kept:  # the library would take null
        narrowed["type"] = [kind for kind in kinds if kind != "null"]
    return narrowed


# What gives an object members or shapes beside `required`: with any of it, `required` is left to the library.
_SHAPED = frozenset(
    {
        *("properties", "additionalProperties", "patternProperties", "unevaluatedProperties", "propertyNames"),
        *("allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "if", "not", "dependentSchemas", "const", "enum"),
    }
)


def required_names(node: dict[str, Any]) -> list[str]:
    """The members `node` requires, itself or in the branches of its `oneOf` or `anyOf`, when it declares
    none and is shaped by nothing else (`_SHAPED`) but an `additionalProperties` that takes members (`true`
    or a schema: `{"required": ["typeId"], "additionalProperties": true}` became a dict too); each branch
    holds `required` alone (beside words)."""
    unions = [node[key] for key in ("oneOf", "anyOf") if key in node]
    if node.get("additionalProperties", True) is False:  # no member at all is taken, declared or not
        return []
    if _SHAPED.difference(("oneOf", "anyOf", "additionalProperties")).intersection(node) or not all(
        isinstance(branches, list) and branches for branches in unions
    ):
        return []
    groups = [node.get("required", []), *(branch for branches in unions for branch in branches)]
    if not all(isinstance(group, list) for group in groups[:1]) or not all(
        isinstance(branch, dict) and set(branch) - WORDS == {"required"} and isinstance(branch["required"], list)
        for branch in groups[1:]
    ):
        return []
    names = [*groups[0], *(name for branch in groups[1:] for name in branch["required"])]
    return list(dict.fromkeys(name for name in names if isinstance(name, str)))


def _nullable_map(node: dict[str, Any]) -> dict[str, Any]:
    """A map that may be null (`type: ["object", "null"]`, its values typed by `additionalProperties`, no
    members declared) written as the `anyOf` of the map and null it equals: the library typed the first
    `dict[str, Any]`, so `{"k": 1}` passed values typed as strings, and reads the second right. Not a
    map with bounds (`maxProperties`...), which the library drops from a branch of a union."""
    kinds = node.get("type")
    if not (
        isinstance(kinds, list)
        and sorted(kinds) == ["null", "object"]
        and isinstance(node.get("additionalProperties"), dict)
        and set(node) - WORDS == {"type", "additionalProperties"}  # the library drops a union branch's bounds
    ):
        return node
    out = {key: value for key, value in node.items() if key in WORDS}
    the_map = {key: value for key, value in node.items() if key not in WORDS}
    out["anyOf"] = [{**the_map, "type": "object"}, {"type": "null"}]
    return out


def _absent_as_not_required(node: dict[str, Any]) -> dict[str, Any]:
    """`node` with each member whose schema is `false` (it may not be present) written as the
    `not: {required: [name]}` it equals, in the `allOf`: the library typed such a member as any value,
    and checks a `not` of `required` alone at run time."""
    members = node.get("properties")
    if not isinstance(members, dict) or not isinstance(node.get("allOf", []), list):
        return node
    absent = [name for name, member in members.items() if member is False]
    if not absent:
        return node
    kept = {name: member for name, member in members.items() if member is not False}
    return {
        **node,
        "properties": kept,
        "allOf": [*node.get("allOf", []), *({"not": {"required": [n]}} for n in absent)],
    }


# Keywords whose parts `unevaluatedProperties` may also see, beyond `properties` and `patternProperties`
# (`not` counted too: a model is made as for any composition beside it).
EVALUATING = IN_PLACE_APPLICATORS | {"not"}


def _only_beside_members(node: dict[str, Any]) -> bool:
    """Whether `node`'s `unevaluatedProperties` (a schema) sees only the members declared beside it, and
    so means what `additionalProperties` would: the library checks the latter and drops the former
    (`unevaluatedProperties: {"type": "integer"}` took `{"x": []}`)."""
    unevaluated = node.get("unevaluatedProperties")
    return (
        isinstance(unevaluated, dict | bool)
        and unevaluated is not True
        and "additionalProperties" not in node
        and not EVALUATING.intersection(node)
    )


def _ref_beside(node: dict[str, Any]) -> dict[str, Any]:
    """`node` with an `allOf` of one `$ref` alone written as that `$ref` beside the other keywords, which
    2020-12 reads alike: the library typed such a member as the referenced class and dropped the
    keywords beside the `allOf` (`maximum` took 11), while it keeps them beside a `$ref`."""
    parts = node.get("allOf")
    if (
        not isinstance(parts, list)
        or len(parts) != 1
        or not isinstance(parts[0], dict)
        or set(parts[0]) != {"$ref"}
        or "$ref" in node
        or "unevaluatedProperties" in node
        or not set(node) - WORDS - {"allOf"}
    ):
        return node
    return {"$ref": parts[0]["$ref"], **{key: value for key, value in node.items() if key != "allOf"}}


def _requiring_tested(node: Any, required: list[Any]) -> Any:
    """`node` with its `if` requiring the members `tested_members` names (`node` itself when none)."""
    added = tested_members(node, required) if isinstance(node, dict) else []
    if not added:
        return node
    return {**node, "if": {**node["if"], "required": [*node["if"].get("required", []), *added]}}


# ECMA-262's `\d` and `\w` are ASCII; the engines a model runs its patterns with (the Rust `regex` crate,
# Python's `re`) read them over Unicode. Spelled as these classes, both engines read what ECMA-262 does.
_ASCII = {"d": "0-9", "w": "A-Za-z0-9_"}
REWRITTEN = tuple(_ASCII)  # the shorthands `ascii_classes` spells out


def ascii_classes(pattern: str) -> str:
    """`pattern` with each `\\d`, `\\w`, `\\D` and `\\W` spelled as the ASCII class ECMA-262 reads it as:
    `[0-9]`, `[^0-9]`... outside a class, the range itself inside one (`[\\d.]` is `[0-9.]`). A class
    holding a negated shorthand (`[\\D.]`) has no such spelling and is left whole as written
    (`models_inexact` reports it where the readings differ)."""
    if "\\" not in pattern:
        return pattern
    out: list[str] = []
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\" and at + 1 < len(pattern):
            escaped = pattern[at + 1]
            if escaped in _ASCII:
                out.append(f"[{_ASCII[escaped]}]")
            elif escaped.lower() in _ASCII:
                out.append(f"[^{_ASCII[escaped.lower()]}]")
            else:
                out.append(pattern[at : at + 2])
            at += 2
        elif char == "[":
            end = _class_end(pattern, at)
            body = pattern[at:end]
            negated = any(body[i] == "\\" and body[i + 1 : i + 2] in ("D", "W") for i in range(len(body)))
            out.append(body if negated else _in_class(body))
            at = end
        else:
            out.append(char)
            at += 1
    return "".join(out)


def _class_end(pattern: str, start: int) -> int:
    """Where the class opening at `start` ends (just past its `]`, or the end of the pattern). A `]` right
    after the opening `[` or `[^` is read as the engines read it: a member, not the end."""
    at = start + (2 if pattern.startswith("[^", start) else 1)
    if at < len(pattern) and pattern[at] == "]":
        at += 1
    while at < len(pattern):
        if pattern[at] == "\\":
            at += 2
            continue
        if pattern[at] == "]":
            return at + 1
        at += 1
    return len(pattern)


def _in_class(body: str) -> str:
    out, at = [], 0
    while at < len(body):
        if body[at] == "\\" and at + 1 < len(body):
            pair = body[at : at + 2]
            out.append(_ASCII.get(pair[1], pair))
            at += 2
        else:
            out.append(body[at])
            at += 1
    return "".join(out)

"""Rewrites of a whole schema document before the library reads it, each where a keyword reaches past the
schema object it is written in: what drafts 4 to 7 ignore beside a `$ref` (`ignored_beside_refs`), the
`if`/`then`/`else` the library reads (`conditions_read`), members beside a `$ref` to an object
(`members_apart`), and keywords of one type beside a union, written into its branches
(`typed_into_branches`). Each returns a new document and shares what it leaves as it was (`replaced`);
none cuts what a `$ref` may lead into."""

from __future__ import annotations

from functools import partial
from typing import Any, TypeGuard

from wopgen.compat.cover import json_type, types, values
from wopgen.corpus.documents import escape_token
from wopgen.corpus.graph import (
    Position,
    pointer_fragment,
    ref_strings,
    replaced,
    schema_objects,
    unescape_token,
    unquote,
    value_at,
)
from wopgen.corpus.keywords import draft_of
from wopgen.generate.models_conditions import (
    WORDS,
    annotation,
    holder_required,
    readable_condition,
    readable_if,
    tested_members,
)


def conditions_read(document: Any) -> Any:
    """`document` with each `if`/`then`/`else` cut to what the library's run-time check reads as JSON
    Schema does: an `if` it reads (`readable_if`) stays, and of its `then` and `else` only `required`;
    any other `if` is left out with its `then` and `else`. The library mixed the other members of a
    `then` into the object whatever the `if` said, so `then: {properties: {x: {type: object}}}` refused
    `{"x": "s"}` where the `if` fails. What is left out goes unchecked, as the `models-inexact` warning on
    it says: the model may take more than the schema, never less. A condition a `$ref` may lead into
    (`_Held`) stays as written."""
    if not isinstance(document, dict):
        return document
    found: list[tuple[str, bool]] = []
    held = _Held(document)
    for item in schema_objects(document, ""):
        if item.position is not Position.SCHEMA or "if" not in item.node:
            continue
        tested = tested_members(item.node, holder_required(document, item.pointer))
        if readable_condition(item.node, tested) or any(
            held(f"{item.pointer}/{key}") for key in ("if", "then", "else") if key in item.node
        ):
            continue
        found.append((item.pointer, readable_if(item.node, tested)))
    out = document
    for pointer, read in reversed(found):  # last first: cutting a condition moves nothing before it
        out = replaced(out, pointer, _branches_required if read else partial(_without, {"if", "then", "else"}))
    return out


def open_parts_true(document: Any) -> Any:
    """`document` with each `allOf` part that takes every value (annotations alone, or nothing, as a condition
    `conditions_read` leaves out becomes) written `true`, which JSON Schema reads alike. The library made a
    class of such an object and mixed it into each branch of a union beside it, dropping the branches of
    other types: `allOf: [{$ref: <a string or an object>}, {}]` refused every string. A part a `$ref` may
    lead into (`_Held`) stays as written."""
    if not isinstance(document, dict):
        return document
    held = _Held(document)
    found = [
        f"{item.pointer}/allOf/{index}"
        for item in schema_objects(document, "")
        if item.position is Position.SCHEMA and isinstance(item.node.get("allOf"), list)
        for index, part in enumerate(item.node["allOf"])
        if isinstance(part, dict) and all(annotation(key) for key in part) and not held(f"{item.pointer}/allOf/{index}")
    ]
    out = document
    for pointer in found:
        out = replaced(out, pointer, partial(_replacement, True))
    return out


def _branches_required(node: dict[str, Any]) -> dict[str, Any]:
    """`node` with its `then` and `else` holding only their `required` (left out when they have none)."""
    out = dict(node)
    for key in ("then", "else"):
        branch = out.pop(key, None)
        if isinstance(branch, dict) and isinstance(branch.get("required"), list):
            out[key] = {"required": branch["required"]}
    return out


class _Held:
    """Whether the subschema at a pointer of `document` is one a cut must keep: a `$ref` of the document
    points into it, or a schema object in it declares an id or an anchor (a `$ref` may name it so)."""

    def __init__(self, document: Any) -> None:
        self.document = document
        self._refs: list[str] | None = None
        self._named: frozenset[str] = frozenset()

    def __call__(self, pointer: str) -> bool:
        if self._refs is None:
            self._refs = [ref for _path, ref in ref_strings(self.document)]
            naming = ("$anchor", "$dynamicAnchor", draft_of(self.document).id_key)
            self._named = frozenset(
                item.pointer
                for item in schema_objects(self.document, "")
                if item.position is Position.SCHEMA and any(isinstance(item.node.get(key), str) for key in naming)
            )
        if any(ref.startswith(pointer_fragment(pointer)) for ref in self._refs):
            return True
        return any(named == pointer or named.startswith(pointer + "/") for named in self._named)


def refs_alone(document: Any) -> Any:
    """`document` with what its draft ignores beside a `$ref` left out (`ignored_beside_refs`): drafts 4
    to 7 apply the `$ref` alone, so `{"$ref": "#/definitions/a", "required": ["x"]}` takes an object
    without `x`, which the library's model refused."""
    out = document
    for pointer in ignored_beside_refs(document):
        holder, _, key = pointer.rpartition("/")
        out = replaced(out, holder, partial(_without, {unescape_token(key)}))
    return out


def ignored_beside_refs(document: Any) -> frozenset[str]:
    """In a schema document of drafts 4 to 7, the pointers of the members written beside a `$ref` that the
    draft ignores (every one but words, the places of definitions and the id); a member some `$ref` of
    the document may lead into (`_Held`) is left out, since what it holds is applied there. Empty in
    later drafts."""
    draft = draft_of(document)
    if not draft.legacy or not isinstance(document, dict):
        return frozenset()
    kept = WORDS | {"$ref", "$schema", "definitions", "$defs", draft.id_key}
    held = _Held(document)
    found: set[str] = set()
    for item in schema_objects(document, ""):
        if item.position is not Position.SCHEMA or not isinstance(item.node.get("$ref"), str):
            continue
        beside = [f"{item.pointer}/{escape_token(key)}" for key in item.node if key not in kept]
        found.update(pointer for pointer in beside if not held(pointer))
    return frozenset(found)


def under(pointer: str, prefixes: frozenset[str]) -> bool:
    """Whether `pointer` is one of `prefixes` or below one of them."""
    return bool(prefixes) and any(pointer == p or pointer.startswith(p + "/") for p in prefixes)


def applied(node: dict[str, Any], pointer: str, ignored: frozenset[str]) -> dict[str, Any]:
    """The schema object `node` at `pointer` without its members in `ignored` (`ignored_beside_refs`)."""
    if not ignored or "$ref" not in node:
        return node
    return {key: value for key, value in node.items() if f"{pointer}/{escape_token(key)}" not in ignored}


def _without(keys: set[str], node: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in node.items() if key not in keys}


# What an object declares of its members, moved with them into an `allOf` part (`members_apart`).
_MEMBER_KEYWORDS = ("properties", "required", "additionalProperties")
# What makes a schema one of several shapes: of such a target in an `allOf`, the library keeps one branch.
_BRANCHING = frozenset({"anyOf", "oneOf", "not", "if", "then", "else"})


def members_apart(document: Any) -> Any:
    """`document` with the members each object declares beside a `$ref` to an object schema of the
    document moved into an `allOf` part of their own, which JSON Schema reads alike.

    Where the referenced object refers back to the one beside it (a tree), the library made the class a
    wrapper of the referenced one and dropped the members beside the `$ref`, so a `type` whose `const`
    told the branches of a union apart went unchecked; of an `allOf` of the `$ref` and the members it
    makes a subclass of the referenced class. Left as written where the target branches (an `anyOf`,
    `oneOf`, `not` or condition, its own or one its `$ref`s and `allOf` parts lead to: of such a target
    in an `allOf`, the library keeps one branch) or does not say it is an object, and where the members cannot be read apart from the rest (a closed object,
    `patternProperties`, `unevaluatedProperties`)."""
    if not isinstance(document, dict):
        return document
    found = [
        item.pointer
        for item in schema_objects(document, "")
        if item.position is Position.SCHEMA and _apart(item.node, document)
    ]
    out = document
    for pointer in reversed(found):  # last first: moving members leaves the pointers before them as they were
        out = replaced(out, pointer, _with_members_apart)
    return out


def _apart(node: dict[str, Any], document: dict[str, Any]) -> bool:
    ref, members, required = node.get("$ref"), node.get("properties"), node.get("required")
    if (
        not isinstance(ref, str)
        or not ref.startswith("#/")
        or not ((isinstance(members, dict) and members) or (isinstance(required, list) and required))
        or node.get("additionalProperties", True) is not True
        or "patternProperties" in node
        or "unevaluatedProperties" in node
        or not isinstance(node.get("allOf", []), list)
    ):
        return False
    target = value_at(document, unquote(ref[1:]))[1]
    if not isinstance(target, dict) or _branches(document, target, 0):
        return False
    return target.get("type") == "object" or (target.get("type") is None and isinstance(target.get("properties"), dict))


MAX_HOPS = 16  # `$ref`s and `allOf` parts followed from a target looking for a branching schema


def _branches(document: dict[str, Any], node: Any, hops: int) -> bool:
    """Whether `node` branches (`_BRANCHING`), or one its `$ref`s and `allOf` parts lead to in `document`
    does; true too where the chain is too long to follow, leaves the document or names an anchor."""
    if not isinstance(node, dict):
        return False
    if hops > MAX_HOPS or _BRANCHING.intersection(node):
        return True
    ref = node.get("$ref")
    if isinstance(ref, str):
        if not _local_pointer(ref):  # another document, or an anchor: not followed
            return True
        if _branches(document, value_at(document, unquote(ref[1:]))[1], hops + 1):
            return True
    parts = node.get("allOf")
    return isinstance(parts, list) and any(_branches(document, part, hops + 1) for part in parts)


def _with_members_apart(node: dict[str, Any]) -> dict[str, Any]:
    part = {key: node[key] for key in _MEMBER_KEYWORDS if key in node}
    out = {key: value for key, value in node.items() if key != "$ref" and key not in part}
    out["allOf"] = [{"$ref": node["$ref"]}, *node.get("allOf", []), part]
    return out


# Keywords that constrain one JSON type alone (a value of another type passes them), by that type.
ONE_TYPE_KEYWORDS: dict[str, str] = {
    **dict.fromkeys(("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"), "number"),
    **dict.fromkeys(("minLength", "maxLength", "pattern", "format", "contentMediaType", "contentEncoding"), "string"),
    **dict.fromkeys(
        (
            "items",
            "prefixItems",
            "additionalItems",
            "unevaluatedItems",
            "contains",
            "minContains",
            "maxContains",
            "minItems",
            "maxItems",
            "uniqueItems",
        ),
        "array",
    ),
    **dict.fromkeys(
        (
            "properties",
            "patternProperties",
            "additionalProperties",
            "unevaluatedProperties",
            "propertyNames",
            "required",
            "minProperties",
            "maxProperties",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
        ),
        "object",
    ),
}
# Of those, the ones by which the library types the value of a schema that names no type, refusing values of
# the other types: given `items` beside `anyOf: [{type: array}, {type: string}]`, it made the model a list and
# refused every string; given `{"items": ...}` alone, it refused a string too.
TYPING_KEYWORDS = frozenset({"items", "prefixItems", "properties", "patternProperties", "propertyNames"})
# What a union's holder may say beside it for its branches to stand for it whole (`_union_at`). Not an id:
# a branch of a resource of its own is read against that resource's URI, which a pointer from the
# document's root does not carry.
_BESIDE_UNION = WORDS | {"$schema", "definitions", "$defs"}


def typed_into_branches(document: Any) -> Any:
    """`document` with the keywords of one JSON type written beside a union (`anyOf`/`oneOf`, the object's
    own or the one a lone `allOf: [{$ref}]` or `$ref` leads to) moved into each branch that may take a value
    of that type, which JSON Schema reads alike: `{items: X, anyOf: [A, B]}` takes what
    `{anyOf: [{allOf: [A], items: X}, {allOf: [B], items: X}]}` takes, and a branch that takes no array
    needs no `items`. The library typed the whole by such a keyword (`TYPING_KEYWORDS`) and dropped the
    branches of other types: GitHub workflow's `types`, an array of event names or one name, refused the
    name. Done only where a branch of another type would be dropped, and not where a `$ref` may lead
    into what moves (`_Held`)."""
    if not isinstance(document, dict):
        return document
    held = _Held(document)  # of the document as written: what the moves make is new, and no `$ref` names it
    out = document
    for _round in range(MAX_HOPS):  # a branch given the keywords may itself lead to a union: again, until none
        found: list[tuple[str, Any]] = []
        for item in schema_objects(out, ""):
            if item.position is not Position.SCHEMA:
                continue
            change = _into_branches(item.node, item.pointer, out, held)
            if change is not None:
                found.append((item.pointer, change))
        if not found:
            break
        for pointer, change in reversed(found):  # last first: each leaves the pointers before it as they were
            out = replaced(out, pointer, partial(_replacement, change))
    return out


def _into_branches(node: dict[str, Any], pointer: str, document: dict[str, Any], held: _Held) -> Any:
    if _listed_beside_union(node) and (written := _list_into_branches(node, pointer, document, held)) is not None:
        return written
    typing = TYPING_KEYWORDS.intersection(node)
    if not typing or "type" in node or any(key in node for key in ("not", "if", "const", "enum", "$dynamicRef")):
        return None
    moved = sorted(key for key in node if key in ONE_TYPE_KEYWORDS)
    own: list[str] = [key for key in ("anyOf", "oneOf") if key in node]
    leads: list[str] = [key for key in ("allOf", "$ref") if key in node]
    if len(own) + len(leads) != 1:
        return None
    if own:
        union, keyword = own[0], own[0]
        branches = node[keyword]
        if not isinstance(branches, list) or not branches or held(f"{pointer}/{keyword}"):
            return None
        refs: list[Any] = list(branches)
    else:
        found = _union_at(document, node, leads[0])
        if found is None:
            return None
        union, keyword, at = found
        branches = value_at(document, at)[1][keyword]
        refs = [{"$ref": pointer_fragment(f"{at}/{keyword}/{n}")} for n in range(len(branches))]
    if any(held(f"{pointer}/{escape_token(key)}") for key in moved):
        return None
    kinds = [_types_of(document, branch, 0) for branch in branches]
    if all(kind is None or ONE_TYPE_KEYWORDS[key] in kind for kind in kinds for key in typing):
        return None  # every branch may take the type: the library's reading holds
    out = {key: value for key, value in node.items() if key not in moved and key != union}
    out[keyword] = [
        _branch_with(ref, {key: node[key] for key in moved if kind is None or ONE_TYPE_KEYWORDS[key] in kind})
        for ref, kind in zip(refs, kinds, strict=True)
    ]
    return out


def _listed_beside_union(node: dict[str, Any]) -> bool:
    """Whether the library makes a list of `node` (typed `array` alone, or holding `items` or `prefixItems`)
    and drops the `anyOf` or `oneOf` beside it, whatever its branches say: the licences of a CycloneDX
    BOM, an array that is one of two arrays, took `[1]`."""
    listed = node.get("type") == "array" or "items" in node or "prefixItems" in node
    return listed and ("anyOf" in node or "oneOf" in node)


def union_dropped(node: dict[str, Any], pointer: str, document: dict[str, Any]) -> bool:
    """Whether the library makes a list of the schema object `node` at `pointer` of `document` and drops the
    union beside it (`_listed_beside_union`), no rewrite having written the array's keywords into its branches."""
    return _listed_beside_union(node) and _into_branches(node, pointer, document, _Held(document)) is None


def _list_into_branches(node: dict[str, Any], pointer: str, document: dict[str, Any], held: _Held) -> Any:
    """`node` (`_listed_beside_union`) with its `type` and array keywords written into each branch of its
    union, which JSON Schema reads alike: `{type: array, oneOf: [A, B]}` takes what `{oneOf: [{type: array,
    ...A}, {type: array, ...B}]}` takes. A `type` a branch already holds to is left out of it. None where
    that cannot be done in place: anything else beside the union, a branch that is a `$ref` or says
    otherwise of a keyword that moves, or a `$ref` that may lead into what changes (`held`)."""
    unions = [key for key in ("anyOf", "oneOf") if key in node]
    moved = {key: value for key, value in node.items() if key == "type" or ONE_TYPE_KEYWORDS.get(key) == "array"}
    branches = node[unions[0]]
    if (
        len(unions) != 1
        or not isinstance(branches, list)
        or any(not (annotation(key) or key in _BESIDE_UNION) for key in set(node) - set(moved) - {unions[0]})
        or any(held(f"{pointer}/{escape_token(key)}") for key in [*moved, unions[0]])
    ):
        return None
    written = [_written_into(branch, moved, document) for branch in branches]
    if any(branch is None for branch in written):
        return None
    return {**{key: value for key, value in node.items() if key not in moved}, unions[0]: written}


def _written_into(branch: Any, keywords: dict[str, Any], document: dict[str, Any]) -> Any:
    """`branch` holding `keywords` too, but for those it holds to already (a `type` it says, array keywords on
    a branch that takes no array); None where it cannot be written so."""
    kinds, named = _types_of(document, branch, 0), types(keywords)
    if kinds is not None and "array" not in kinds:
        keywords = {key: value for key, value in keywords.items() if key == "type"}
    # `kinds` names an integer "number": a `type` is left out only where the branch says it or a narrower one
    if kinds is not None and named is not None and kinds <= named:
        keywords = {key: value for key, value in keywords.items() if key != "type"}
    if not keywords or branch is False:
        return branch
    if branch is True:
        return dict(keywords)
    if (
        not isinstance(branch, dict)
        or "$ref" in branch
        or any(branch.get(key, value) != value for key, value in keywords.items())
    ):
        return None
    return {**branch, **keywords}


def _replacement(new: Any, _old: Any) -> Any:
    return new


def _branch_with(branch: Any, keywords: dict[str, Any]) -> Any:
    return {"allOf": [branch], **keywords} if keywords else branch


def _union_at(document: dict[str, Any], node: dict[str, Any], lead: str) -> tuple[str, str, str] | None:
    """(the key that leads there, the union's keyword, the pointer of the object holding it) where the lone
    `allOf: [{$ref}]` or `$ref` of `node` leads, through `$ref`s of the document, to an object that is a
    union and nothing more (`_BESIDE_UNION`); None otherwise."""
    ref = node.get("$ref") if lead == "$ref" else None
    if lead == "allOf":
        parts = node["allOf"]
        if not (
            isinstance(parts, list) and len(parts) == 1 and isinstance(parts[0], dict) and set(parts[0]) == {"$ref"}
        ):
            return None
        ref = parts[0]["$ref"]
    for _hop in range(MAX_HOPS):
        if not _local_pointer(ref):
            return None
        at = unquote(ref[1:])
        target = value_at(document, at)[1]
        if not isinstance(target, dict):
            return None
        if set(target) == {"$ref"}:
            ref = target["$ref"]
            continue
        keys = [key for key in ("anyOf", "oneOf") if isinstance(target.get(key), list) and target[key]]
        if len(keys) != 1 or not set(target) <= _BESIDE_UNION | {keys[0]}:
            return None
        return lead, keys[0], at
    return None


def _types_of(document: dict[str, Any], node: Any, hops: int) -> frozenset[str] | None:
    """The JSON types a branch takes values of, where it says (`type`, `const`/`enum`, or the same of what
    its `$ref`s lead to in the document); None where it does not ("integer" is named "number")."""
    if not isinstance(node, dict) or hops > MAX_HOPS:
        return None
    ref = node.get("$ref")
    if set(node) - WORDS == {"$ref"} and _local_pointer(ref):
        return _types_of(document, value_at(document, unquote(ref[1:]))[1], hops + 1)
    said = types(node)
    listed = values(node)
    if listed is not None:
        said = frozenset(json_type(value) for value in listed) if said is None else said
    if said is None:
        return None
    return frozenset("number" if kind == "integer" else kind for kind in said)


def _local_pointer(ref: Any) -> TypeGuard[str]:
    """Whether `ref` is a JSON pointer into its own document (`#` or `#/...`; `#name` names an anchor)."""
    return isinstance(ref, str) and (ref == "#" or ref.startswith("#/"))

"""What the generated models cannot hold to the schema, said as `models-inexact` warnings.

`wopgen models` closes the gaps it can (see `models_strict` and `models_input`); what is
left is reported here, keyword by keyword, so that a model which takes an instance its schema
refuses (or refuses one it takes) is never a silent surprise:

- `$dynamicRef`, which the library resolves once, with no dynamic scope;
- keywords datamodel-code-generator does not check at all: `contains` (with `minContains` and
  `maxContains`), `dependentSchemas`, and `prefixItems`, whose items it types as one union whatever
  their position;
- `not`, `if`, `then` and `else` beyond the forms its run-time checks read: a `not` of a `required`
  alone; an `if` that requires members and tests each by `const`, `enum` or presence; a `then` and
  an `else` that require members and nothing else (the library folds any other keyword of theirs
  into the model, where it holds whatever the condition);
- a `oneOf` two of whose branches cannot be shown never to take one value (`models_oneof`): the
  model takes a value any branch takes, the schema one that exactly one branch takes (branches of
  `required` alone are the exception on an object the library makes a class of: it checks that one
  group is present);
- a schema that takes no value (an empty `enum`, a `$ref` to `false`), which the model writes as one
  that takes values;
- an array beside an `anyOf` or `oneOf` whose keywords the fed copy cannot write into the branches
  (`models_passes.union_dropped`): the library types it by them and checks no branch;
- a closed object composed with a `$ref` or an `allOf` (`models_closed`): `additionalProperties:
  false` sees only the members beside it, while the model merges every part;
- a keyword of one JSON type (`minimum`, `minLength`, `items`, `properties`...) on a schema object
  that names no type, where JSON Schema lets a value of any other type pass: the library drops the
  keyword (the model takes any value) or types the value by it (the model refuses every other type);
- patterns whose ECMA-262 reading (the dialect JSON Schema names) differs from the engine the model
  runs, where the fed copy could not be spelled to agree (`\\d` and `\\w` are fed as their ASCII
  classes, see `models_input.ascii_classes`): the Rust `regex` crate pydantic uses reads `\\b` and
  `\\s` (and `\\d`/`\\w` in a class beside `\\D` or `\\W`) over Unicode and lets
  `.` match a carriage return; a pattern with a look-around or a back-reference runs under Python's
  `re` (for the whole model), where `$` also matches before a final newline, as it does for every
  key of `patternProperties`, which the library matches with `re`.

Each finding names the schema object's keyword; the objects below an `if`, `then`, `else`, `not` or
`dependentSchemas` already reported are not reported again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from wopgen.compat.cover import types
from wopgen.corpus import Corpus
from wopgen.corpus.documents import escape_token
from wopgen.corpus.graph import Located, Position, RefGraph, Status, schema_objects, unescape_token, value_at
from wopgen.corpus.keywords import NAME_MAPS, draft_of
from wopgen.corpus.validation import ASSERTED_FORMATS
from wopgen.diagnostics import Diagnostic, define
from wopgen.generate.models_closed import APPLICATORS, closed_beside
from wopgen.generate.models_conditions import holder_required, readable_condition, required_only, tested_members
from wopgen.generate.models_formats import format_findings
from wopgen.generate.models_input import REWRITTEN, positional_items, required_names
from wopgen.generate.models_oneof import overlapping
from wopgen.generate.models_passes import (
    ONE_TYPE_KEYWORDS,
    TYPING_KEYWORDS,
    applied,
    ignored_beside_refs,
    under,
    union_dropped,
)

INEXACT = define(
    "models-inexact",
    "warning",
    "A generated model does not check a keyword of its schema as JSON Schema does, so it takes instances the "
    "schema refuses or refuses some it takes: a keyword the library does not check (contains, dependentSchemas, "
    "prefixItems, not/if/then/else beyond required members), a oneOf whose branches may take one value together, a closed object composed with $ref or allOf, "
    "a keyword of one type on a schema naming no type, or a pattern the model's regex engine reads otherwise than ECMA-262.",
)

_UNCHECKED = {
    "contains": "the model does not check `contains` (nor `minContains`/`maxContains`)",
    "dependentSchemas": "the model does not check `dependentSchemas`",
    "prefixItems": "the model types the items of `prefixItems` as one union, whatever their position, "
    "and does not check what follows them",
}


def _unevaluated(node: dict[str, Any], where: Located, graph: RefGraph) -> Iterator[tuple[str, str, str]]:
    """`unevaluatedProperties` over a `$ref` beside it, or over an `allOf` of one `$ref` alone on a member,
    which the library writes as the referenced class without closing it: the model takes members no
    part declares. Over an `allOf` with members beside it or several parts, or at a schema's root, it
    closes the class. In an `allOf` part composed of its own, or beside an `anyOf` or `oneOf`, it sees
    members the model does not tell apart (those of the part's parts, or of the branch a value passes);
    in a part composed of nothing it sees what `additionalProperties` would (`closed_beside` judges it)."""
    if "unevaluatedProperties" not in node or node["unevaluatedProperties"] is True:
        return
    pointer = where.pointer
    parts = node.get("allOf")
    if isinstance(parts, list) and any(
        _reaches_branches(where.child("allOf", n), graph, frozenset()) for n in range(len(parts))
    ):
        yield (
            "unevaluatedProperties",
            "the model does not hold `unevaluatedProperties` over an `allOf` part that reaches an `anyOf` or `oneOf` "
            "(through `$ref`s or its own parts), as JSON Schema does: there it sees the members that the branch a "
            "value passes declares, and holds the others; the model's verdict on them may differ",
            "list the members and close the object with `additionalProperties`, or put `unevaluatedProperties` "
            "in each branch",
        )
        return
    if (_placing_keyword(pointer) == "allOf" and APPLICATORS.intersection(node)) or {"anyOf", "oneOf"}.intersection(
        node
    ):
        yield (
            "unevaluatedProperties",
            "the model does not hold `unevaluatedProperties` in an `allOf` part that is composed itself, or over an "
            "`anyOf` or `oneOf` beside it, as JSON Schema does: there it sees the members that the part's own parts, "
            "or the branch a value passes, declare, and holds the others; the model's verdict on them may differ",
            "put `unevaluatedProperties` on the object that holds the `allOf`, beside its parts, or list the members "
            "and close the object with `additionalProperties`",
        )
        return
    lone_ref = isinstance(parts, list) and len(parts) == 1 and isinstance(parts[0], dict) and set(parts[0]) == {"$ref"}
    if "$ref" not in node and not (lone_ref and pointer != "" and "properties" not in node):
        return
    yield (
        "unevaluatedProperties",
        "the model does not hold `unevaluatedProperties` over the `$ref` it refers to here: it takes members "
        "that the referenced schema does not declare, which the schema refuses",
        "list the members and close the object with `additionalProperties`, or compose it in an `allOf` with "
        "the members beside it",
    )


def _reaches_branches(where: Located, graph: RefGraph, seen: frozenset[Located]) -> bool:
    """Whether the schema at `where`, or one its `$ref` or `allOf` parts lead to, holds an `anyOf` or `oneOf`."""
    node = graph.node(where)
    if not isinstance(node, dict) or where in seen or len(seen) > MAX_HOPS:
        return False
    if "anyOf" in node or "oneOf" in node:
        return True
    following = []
    if isinstance(node.get("$ref"), str):
        site = graph.site_at(where)
        following += [site.target] if site is not None and site.target is not None else []
    parts = node.get("allOf")
    following += [where.child("allOf", n) for n in range(len(parts))] if isinstance(parts, list) else []
    return any(_reaches_branches(step, graph, seen | {where}) for step in following)


MAX_HOPS = 16  # `$ref`s and `allOf` parts followed from an `unevaluatedProperties` looking for a union


_BELOW_REPORTED = frozenset({"if", "then", "else", "not", "dependentSchemas", "dependencies"})
_LOOK_AROUND = re.compile(r"\(\?<?[=!]|\\[1-9]|\\k<")


def inexact(corpus: Corpus) -> list[Diagnostic]:
    """A `models-inexact` warning for each keyword of the corpus the generated models do not hold."""
    found: list[Diagnostic] = []
    uses: dict[Located, list[Located]] = {}  # where each `$ref` (or `$dynamicRef`) lands -> the objects holding it
    for site in [*corpus.graph.sites, *corpus.graph.dynamic_sites]:
        if site.status is Status.RESOLVED and site.target is not None:
            uses.setdefault(site.target, []).append(site.source)
    for path, doc in sorted(corpus.schemas.items()):
        legacy = draft_of(doc.data).legacy
        ignored = ignored_beside_refs(doc.data)  # what drafts 4 to 7 ignore beside a `$ref`, and so does the model
        for item in schema_objects(doc.data, corpus.uri_of(path)):
            if item.position is not Position.SCHEMA or _below_reported(item.pointer) or under(item.pointer, ignored):
                continue
            node = applied(item.node, item.pointer, ignored)
            where = Located(path, item.pointer)
            findings = [
                *_findings(node, holder_required(doc.data, item.pointer)),
                *_untyped(node, where, corpus.graph, uses),
                *_unevaluated(node, where, corpus.graph),
                *_one_of(node, where, corpus.graph),
                *_union_beside_list(node, item.pointer, doc.data),
                *(closed_beside(where, corpus.graph) if node is item.node else ()),
                *_nothing_taken(node, where, corpus.graph),
                *_null_root(node, item.pointer),
                *_null_beside_ref(node, where, corpus.graph, _left_out(doc.data, item.pointer)),
                *(_legacy_keywords(node) if legacy else ()),
            ]
            for keyword, message, hint in findings:
                found.append(INEXACT.at(path, doc.line(f"{item.pointer}/{escape_token(keyword)}"), message, hint))
    return found


def _keywords(pointer: str) -> list[str]:
    """The keywords on the way to the schema object at `pointer`, outermost first: the tokens that are
    neither a member's or definition's name nor a position in a keyword's list."""
    found: list[str] = []
    named = False
    for token in pointer.split("/")[1:]:
        if named:
            named = False  # a property or definition name, whatever it spells
        elif not (token.isdigit() and found and found[-1] in ("allOf", "anyOf", "oneOf", "prefixItems")):
            found.append(token)
            named = token in NAME_MAPS
    return found


def _below_reported(pointer: str) -> bool:
    return any(keyword in _BELOW_REPORTED for keyword in _keywords(pointer))


def _left_out(document: Any, pointer: str) -> bool:
    """Whether the schema object at `pointer` is a member its object may leave out (the models refuse
    null for such a member wherever the schema does, see `models_strict.optional_not_null`)."""
    member = re.fullmatch(r"(.*)/properties/([^/]+)", pointer)
    if member is None:
        return False
    required = value_at(document, member[1])[1].get("required")
    return not (isinstance(required, list) and unescape_token(member[2]) in required)


def _nothing_taken(node: dict[str, Any], where: Located, graph: RefGraph) -> Iterator[tuple[str, str, str]]:
    """A schema that takes no value: an empty `enum`, or a `$ref` that leads to `false`. The library
    writes neither as a type that refuses every value: the model takes any value (or any of its type)."""
    if node.get("enum") == []:
        yield (
            "enum",
            "`enum` lists no value, so the schema takes none; the model takes any value of the type named here (any "
            "value where none is)",
            "list the values meant, or leave the schema out if no value is",
        )
    target = graph.deref(where) if isinstance(node.get("$ref"), str) else None
    if target is not None and graph.node(target) is False:
        yield (
            "$ref",
            "this `$ref` leads to the `false` schema, so the schema takes no value here; the model takes any value",
            "write `false` in place of the `$ref` on a member (the models refuse such a member), or leave the "
            "schema out if no value is meant",
        )


def _null_root(node: dict[str, Any], pointer: str) -> Iterator[tuple[str, str, str]]:
    """A schema's root typed as an object or null, with members: the library makes a class of it, which
    refuses null (a member typed so takes null: the class is then written `X | None`)."""
    kinds = types(node)
    if pointer == "" and kinds is not None and {"object", "null"} <= kinds and "properties" in node:
        yield (
            "type",
            "the root's `type` takes null, but the model of the root is a class, which refuses null",
            "accept null where the model is used (`Model | None`), or leave null out of the root's type",
        )


def _null_beside_ref(
    node: dict[str, Any], where: Located, graph: RefGraph, left_out: bool
) -> Iterator[tuple[str, str, str]]:
    """A `type` that lists null beside a `$ref` whose schema names types without null: JSON Schema
    applies both, so null is refused, while the model reads the `type` and takes null (except on a
    member that may be left out, where the models refuse null as the schema does)."""
    kinds = types(node)
    if left_out or not isinstance(node.get("$ref"), str) or kinds is None or "null" not in kinds:
        return
    found = graph.deref(where)
    target = graph.node(found) if found is not None else None
    theirs = types(target) if isinstance(target, dict) else None
    if theirs is not None and "null" not in theirs:
        yield (
            "type",
            "this `type` takes null, but the `$ref` beside it does not, and JSON Schema applies both: the schema "
            "refuses null, and the model takes it",
            'write `"anyOf": [{"$ref": ...}, {"type": "null"}]` if null is meant, else leave null out of the type',
        )


def _legacy_keywords(node: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """What the model does not check in a schema of drafts 4 to 7: a list `items` fed as `prefixItems` the
    library does not write as a tuple, and a `dependencies` entry that is a schema (its lists of names
    are fed as conditions)."""
    positional = positional_items(node)
    if positional is not node and not _fixed_tuple(positional):
        yield (
            "items",
            "the model types the items of a list `items` as one union, whatever their position, and does not check "
            "what follows them",
            "check it in the code that reads the model, or close the tuple (`additionalItems: false` and a "
            "`minItems` of its length)",
        )
    written = node.get("dependencies")
    if isinstance(written, dict) and any(not isinstance(value, list) for value in written.values()):
        yield (
            "dependencies",
            "the model does not check the schemas of `dependencies` (those that apply when a member is present)",
            "check it in the code that reads the model, or express it another way",
        )


def _findings(node: dict[str, Any], required: list[Any]) -> Iterator[tuple[str, str, str]]:
    """What `node` holds that its model does not check; `required`: the members the object whose `allOf`
    holds `node` requires."""
    for keyword, message in _UNCHECKED.items():
        if keyword == "prefixItems" and _fixed_tuple(node):
            continue  # written as a tuple, one type per position
        if keyword in node:
            yield keyword, message, "check it in the code that reads the model, or express it another way"
    if "$dynamicRef" in node:
        yield (
            "$dynamicRef",
            "the model has no dynamic scope: it resolves `$dynamicRef` once, by the anchor's name, so it may check "
            "another schema than the one JSON Schema reaches from where the value is validated",
            "write a `$ref` to the schema meant",
        )
    if "not" in node and not required_only(node["not"]):
        yield "not", "the model checks a `not` only when it holds `required` alone", "check it in the code"
    if "if" in node and not readable_condition(node, tested_members(node, required)):
        yield (
            "if",
            "the model checks an `if`/`then`/`else` only when the `if` requires the members it tests (by "
            "`const`, `enum` or presence) and `then` and `else` hold `required` alone",
            "write the condition in that form, or check it in the code that reads the model",
        )
    said = list(format_findings(node))
    yield from said
    pattern = None if any(keyword == "pattern" for keyword, _message, _hint in said) else node.get("pattern")
    if isinstance(pattern, str) and (differences := pattern_differences(pattern, python=False)):
        yield "pattern", _worded(f"pattern `{pattern}`", differences), "; ".join(hint for _, hint in differences)
    keys = node.get("patternProperties")
    for key in keys if isinstance(keys, dict) else ():
        if differences := pattern_differences(key, python=True):
            where = f"patternProperties key `{key}`"
            yield "patternProperties", _worded(where, differences), "; ".join(hint for _, hint in differences)


# Keywords that apply to one JSON type alone (an instance of another type passes them) which the library
# reads on a schema that names no type, by that type (`ONE_TYPE_KEYWORDS`), and whether it then types the
# value as that type, refusing the others (`TYPING_KEYWORDS`), rather than dropping the keyword (taking any
# value). `dependentRequired` is fed as conditions, which a value of no named type does not meet.
_ONE_TYPE: dict[str, tuple[str, bool]] = {
    key: (ONE_TYPE_KEYWORDS[key], key in TYPING_KEYWORDS)
    for key in (
        *("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
        *("minLength", "maxLength", "pattern"),
        *("minItems", "maxItems", "unevaluatedItems", "items"),
        *("required", "additionalProperties", "minProperties", "maxProperties", "unevaluatedProperties"),
        *("dependentRequired", "properties", "patternProperties", "propertyNames"),
    )
}
# `uniqueItems` is left out: the library checks it at run time on an array and takes any other value.
# What gives a schema object its type, or a say in it, beside `type`: left to the context to judge.
_TYPING = frozenset({"type", "const", "enum", "$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "if", "not"})
# What may type a member beside the `properties` that declare it (the library merges them).
_TYPING_HOLDER = frozenset({"$ref", "$dynamicRef", "allOf", "anyOf", "oneOf"})
# What names the types a schema object takes, so that a branch of its union or `allOf` may leave them to it.
_NAMING_TYPE = frozenset({"type", "const", "enum"})


def _untyped(
    node: dict[str, Any], where: Located, graph: RefGraph, uses: dict[Located, list[Located]]
) -> Iterator[tuple[str, str, str]]:
    """A keyword of one JSON type on a schema object that names no type: JSON Schema lets values of every
    other type pass it, while the library either drops it or types the value by it. Only where nothing
    else could type the value: not beside a `$ref`, a union, a condition or values (`const`, `enum`), nor
    where its place names the type (`_typed_place`). A `$ref` or an `allOf` counts only where it names a
    type (`_composition_types`): `{"allOf": [true], "unevaluatedItems": false}` took `["a"]`."""
    if _TYPING.difference(("$ref", "allOf")).intersection(node) or _typed_place(where, graph, uses, frozenset()):
        return
    if ("$ref" in node or "allOf" in node) and _composition_types(where, graph, frozenset()):
        return
    # the library types the value by any typing keyword of them, whichever comes first (`properties: {}`
    # declares nothing and is left out of the fed copy, see `models_input._fed`)
    held = [k for k in node if k in _ONE_TYPE and not (k == "properties" and node[k] == {})]
    keyword = next((k for k in held if _ONE_TYPE[k][1]), held[0] if held else None)
    if keyword is None and node.get("format") in ASSERTED_FORMATS:
        keyword = "format"
    if keyword is None:
        return
    kind, typed = _ONE_TYPE.get(keyword, ("string", False))
    if typed:
        message = (
            f"`{keyword}` applies to {kind}s alone and the schema names no type here, so JSON Schema takes a "
            f"value of any other type; the model takes only {_article(kind)} {kind}"
        )
    else:
        message = (
            f"`{keyword}` applies to {kind}s alone and the schema names no type here; the model does not check "
            "it, and takes any value"
        )
    named = f'"type": "{kind}"' + (' (or "integer")' if kind == "number" else "")
    yield keyword, message, f'add {named} if only {kind}s are meant, else list in "type" every type taken'


def _typed_place(where: Located, graph: RefGraph, uses: dict[Located, list[Located]], seen: frozenset[Located]) -> bool:
    """Whether the place of the schema object at `where` names its type: the object whose `allOf`,
    `anyOf` or `oneOf` holds it is typed (`_typed`), or another part of the `allOf` names a type, every `$ref` to it (a definition) sits on a typed
    object, it is a name (`propertyNames`), or a member of an object composed of parts (a `$ref`, an
    `allOf`, a union), which may type it. A definition nothing refers to is its own class, typed by
    nothing."""
    if where in seen:
        return True  # a loop of definitions: the uses outside it decide
    keyword = _placing_keyword(where.pointer)
    if keyword in ("allOf", "anyOf", "oneOf"):
        holder = Located(where.path, where.pointer.rsplit("/", 2)[0])
        parts = graph.node(holder.child(keyword)) if keyword == "allOf" else []
        if any(_names_type(holder.child(keyword, n), graph) for n in range(len(parts))):
            return True  # a part of the `allOf` types the value for every other part
        return _typed(holder, graph, uses, seen | {where})
    if keyword in ("$defs", "definitions"):
        users = uses.get(where, [])
        return bool(users) and all(_typed(user, graph, uses, seen | {where}) for user in users)
    if keyword == "properties":
        holder = graph.node(Located(where.path, where.pointer.rsplit("/", 2)[0]))
        return isinstance(holder, dict) and bool(_TYPING_HOLDER.intersection(holder))
    return keyword == "propertyNames"


def _typed(where: Located, graph: RefGraph, uses: dict[Located, list[Located]], seen: frozenset[Located]) -> bool:
    """Whether the schema object at `where` names its type (`type`, `const`, `enum`), itself, through the
    `$ref`s it follows, or by its place (`_typed_place`)."""
    return _names_type(where, graph) or _typed_place(where, graph, uses, seen)


def _composition_types(where: Located, graph: RefGraph, seen: frozenset[Located]) -> bool:
    """Whether the `$ref` chain or the `allOf` parts (and theirs) of the schema object at `where` may name
    its type: one names `type`, `const` or `enum`, or something else may (a union, a condition), or a
    `$ref` cannot be followed."""
    met, complete = graph.chain(where)
    if not complete or where in seen:
        return True
    for at in met:
        node = graph.node(at)
        if not isinstance(node, dict):
            continue
        if _TYPING.difference(("$ref", "allOf")).intersection(node):
            return True
        parts = node.get("allOf")
        if isinstance(parts, list) and any(
            _composition_types(at.child("allOf", n), graph, seen | {where}) for n in range(len(parts))
        ):
            return True
    return False


def _names_type(where: Located, graph: RefGraph) -> bool:
    """Whether the schema object at `where`, or one its `$ref`s lead to, names a type (`type`, `const`, `enum`)."""
    met, _complete = graph.chain(where)
    return any(isinstance(node := graph.node(at), dict) and bool(_NAMING_TYPE.intersection(node)) for at in met)


def _one_of(node: dict[str, Any], where: Located, graph: RefGraph) -> Iterator[tuple[str, str, str]]:
    """A `oneOf` two of whose branches cannot be shown never to take the same value (`overlapping`): the
    model takes a value any branch takes, so it takes one several take, which the schema refuses."""
    branches = node.get("oneOf")
    if not isinstance(branches, list) or len(branches) < 2:
        return
    if all(required_only(b) for b in branches):
        kinds = types(node)
        if kinds is None or "object" not in kinds or "properties" in node or required_names(node):
            # the library checks that exactly one group is present on the class it makes of the object; with
            # no type named, the groups are reported where they are written (`_untyped`)
            return
        yield (
            "oneOf",
            "the model checks a `oneOf` of `required` groups only on an object that declares `properties`, or is "
            "typed `object` and shaped by nothing else; here it checks none, and takes an object holding several "
            "groups or none, which the schema refuses",
            'add "type": "object", or declare the members in `properties`',
        )
        return
    required = node.get("required")
    present = (
        frozenset(name for name in required if isinstance(name, str)) if isinstance(required, list) else frozenset()
    )
    later = overlapping(where, graph, types(node), present)
    if later is not None:
        yield (
            "oneOf",
            f"the model takes a value any branch of `oneOf` takes, and branch {later + 1} cannot be shown never to "
            "take a value an earlier branch takes: where both do, the schema refuses the value and the model takes it",
            "set the branches apart (distinct types, a member each requires with its own `const`, or closed objects "
            "requiring different members), or write `anyOf` if a value may pass several",
        )


def _union_beside_list(node: dict[str, Any], pointer: str, document: Any) -> Iterator[tuple[str, str, str]]:
    """An array beside an `anyOf` or `oneOf` that the library makes a list of by the keywords beside the union,
    checking none of its branches, where the fed copy cannot write those keywords into the branches."""
    if union_dropped(node, pointer, document):
        keyword = "anyOf" if "anyOf" in node else "oneOf"
        yield (
            keyword,
            f"the model types this array by the keywords beside `{keyword}` and checks none of its branches: it "
            "takes an array no branch takes",
            "write `type` and the array keywords in each branch, written in place, with nothing else beside the union",
        )


def _placing_keyword(pointer: str) -> str | None:
    """The keyword that holds the schema object at `pointer` (`allOf` for `/allOf/0`, `properties` for
    `/properties/a`, `$defs` for `/$defs/A`; None for the root)."""
    found = _keywords(pointer)
    return found[-1] if found else None


def _article(kind: str) -> str:
    return "an" if kind[0] in "aeiou" else "a"


def _fixed_tuple(node: dict[str, Any]) -> bool:
    """Whether the library writes the `prefixItems` of `node` as a tuple that checks each position: the
    array holds nothing past them (`items: false`, or a `maxItems` of their count) and holds them all
    (`minItems` of their count); or there is one of them and nothing past it (`items: false`)."""
    prefix = node.get("prefixItems")
    if not isinstance(prefix, list) or not prefix:
        return False
    if len(prefix) == 1:
        return node.get("items") is False
    closed = node.get("items") is False or node.get("maxItems") == len(prefix)
    return closed and node.get("minItems") == len(prefix)


def _worded(where: str, differences: list[tuple[str, str]]) -> str:
    return f"{where} reads otherwise in the model than in ECMA-262: " + "; ".join(what for what, _ in differences)


# Each class escape whose ECMA-262 reading differs from the model's engine's: what differs, and how to
# write it so both read it alike.
_SHORTHANDS = {
    "d": ("`\\d` matches any Unicode decimal digit in the model, 0-9 alone in ECMA-262", "write [0-9]"),
    "w": (
        "`\\w` matches Unicode letters and digits in the model, [A-Za-z0-9_] alone in ECMA-262",
        "write [A-Za-z0-9_]",
    ),
    "s": (
        "`\\s` holds other white space in the model than in ECMA-262 (U+FEFF, U+0085, U+001C-U+001F)",
        "list the white space characters meant",
    ),
}
_BOUNDARY = (
    "`\\b` finds word boundaries between Unicode letters in the model, between [A-Za-z0-9_] in ECMA-262",
    "spell out the characters on either side",
)
_DOT = (
    "`.` matches a carriage return, U+2028 and U+2029 in the model, not in ECMA-262",
    "write [^\\n\\r\\u2028\\u2029] for `.`",
)
_DOLLAR = (
    "`$` also matches before a final newline under Python's `re`, which runs this pattern",
    "end the pattern with (?![\\s\\S]) instead of `$`",
)
_EMPTY_CLASS = (
    "a class opening with `]` is empty (`[^]`: any character) in ECMA-262, and holds `]` in the model",
    "escape the `]`",
)


def pattern_differences(pattern: str, *, python: bool) -> list[tuple[str, str]]:
    """Where `pattern` reads otherwise in ECMA-262 than in the engine the model runs it with, each as (what
    differs, how to write it so both agree); none when the two agree. `python` says the pattern runs under
    Python's `re` (a key of patternProperties); so does one with a look-around or a back-reference, which
    the Rust engine cannot run. There `$` also matches before a final newline."""
    python = python or _LOOK_AROUND.search(pattern) is not None
    if python:
        try:
            re.compile(pattern)
        except re.error as exc:
            return [
                (
                    f"Python's `re`, which the model runs it with, cannot read it ({exc}), so the model raises that "
                    "error, not a validation error, on every value it checks",
                    "write it in what both read: a class of the characters meant for `\\p{...}`, `(?P<name>...)` "
                    "for `(?<name>...)`",
                )
            ]
    found: list[tuple[str, str]] = []
    in_class = False
    class_escapes: set[str] = set()
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\" and at + 1 < len(pattern):
            escaped = pattern[at + 1]
            if escaped.lower() in _SHORTHANDS:
                if in_class:
                    class_escapes.add(escaped)
                elif escaped.lower() not in REWRITTEN:
                    found.append(_SHORTHANDS[escaped.lower()])
            elif escaped in "bB" and not in_class:  # in a class, \b is a backspace in every reading
                found.append(_BOUNDARY)
            at += 2
            continue
        if in_class and char == "]":
            # [\s\S] and the like hold every character in every reading; \d and \w are fed as their ASCII
            # ranges unless the class also holds \D or \W (`ascii_classes`)
            if not class_escapes & {"D", "W"}:
                class_escapes -= set(REWRITTEN)
            found.extend(_SHORTHANDS[e.lower()] for e in sorted(class_escapes) if e.swapcase() not in class_escapes)
            in_class, class_escapes = False, set()
        elif not in_class and char == "[":
            in_class = True
            opening = 3 if pattern.startswith("[^]", at) else 2 if pattern.startswith("[]", at) else 1
            if opening > 1:
                found.append(_EMPTY_CLASS)
            at += opening
            continue
        elif not in_class and char == ".":
            found.append(_DOT)
        elif not in_class and char == "$" and python:
            found.append(_DOLLAR)
        at += 1
    return list(dict.fromkeys(found))

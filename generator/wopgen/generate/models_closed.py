"""A closed object composed with `$ref` or `allOf`, which JSON Schema and the generated models read apart.

`additionalProperties` (`false`, or a schema the other members must pass) sees only the `properties`
(and `patternProperties`) written beside it, never the members a `$ref` or an `allOf` part declares,
and so does the `unevaluatedProperties` of a part that nothing else in it evaluates members of; the
library instead merges every part into one class and closes that. So `{"allOf": [{"$ref": "#/$defs/base"}], "additionalProperties": false}` refuses
every member of `base` while the model takes them, and a closed part refuses the members declared
beside it, which the model takes too. `closed_beside` names each such member as a `models-inexact`
finding.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wopgen.corpus.graph import Located, RefGraph
from wopgen.generate.models_input import EVALUATING, closes_branches

HINT = (
    "write `unevaluatedProperties: false` instead, which sees the members of every part, or list the "
    "members beside the closed keyword"
)


def closed_beside(where: Located, graph: RefGraph) -> Iterator[tuple[str, str, str]]:
    """The findings for the schema object at `where`: members its parts declare that its own
    `additionalProperties` (false or a schema) refuses or holds to its schema, members declared
    beside such a part that the part refuses or holds so, members declared beside an `anyOf` or
    `oneOf` that a closed branch refuses or holds so, and members a branch declares that the object,
    closed beside the union, refuses."""
    node = graph.node(where)
    if isinstance(node, dict):
        yield from _closed_branches(where, node, graph)
        yield from _members_of_branches(where, node, graph)
    parts = _parts(where, graph) if isinstance(node, dict) else []
    if not parts:
        return
    own = _declared(node)
    closer = _closer(node, part=False)
    if closer is not None:
        held = sorted({name for part in parts for name in _declared(part)} - own)
        if held:
            yield (
                "additionalProperties",
                f"`additionalProperties` sees only the members declared beside it, so the schema "
                f"{_held(closer[1], held)}, which a `$ref` or `allOf` part declares; the model merges the parts and "
                "takes them as the part declares them",
                _hint(closer[1]),
            )
    declared = own | {name for part in parts for name in _declared(part)}
    for part in parts:
        closer = _closer(part, part=True)
        if closer is not None:
            held = sorted(declared - _declared(part))
            if held:
                yield (
                    "allOf" if "allOf" in node else "$ref",
                    f"a `$ref` or `allOf` part with `{closer[0]}` {_held(closer[1], held)}, declared elsewhere in "
                    "the composition; the model merges the parts and takes them as declared there",
                    _hint(closer[1]),
                )
                return


# What may evaluate members of an object beside its own `properties`. Without any of them, a part's
# `unevaluatedProperties` sees exactly the members `additionalProperties` would.
APPLICATORS = EVALUATING | {"patternProperties"}


def _closer(node: dict[str, Any], part: bool) -> tuple[str, Any] | None:
    """The keyword of `node` that holds the members it does not declare to more than `true` (`false`, or a
    schema), and its value: `additionalProperties` where no `patternProperties` may match such a member
    instead, or in a `part` that nothing else evaluates members of, `unevaluatedProperties`."""
    additional = node.get("additionalProperties", True)
    if additional is not True and additional != {} and not node.get("patternProperties"):
        return "additionalProperties", additional
    unevaluated = node.get("unevaluatedProperties", True)
    alone = part and "additionalProperties" not in node and not APPLICATORS.intersection(node)
    if alone and unevaluated is not True and unevaluated != {}:
        return "unevaluatedProperties", unevaluated
    return None


def _held(closing: Any, names: list[str]) -> str:
    """What a closing keyword of value `closing` does to the members `names`, which it does not see declared."""
    if closing is False:
        return f"refuses {_listed(names)}"
    return f"holds {_listed(names)} to its schema"


def _hint(closing: Any) -> str:
    if closing is False:
        return HINT
    return "declare the members again beside the closing keyword, so that it sees them as the model does"


def _parts(where: Located, graph: RefGraph) -> list[dict[str, Any]]:
    """The object schemas the object at `where` is composed with: its `$ref` target and its `allOf`
    members (each followed through its `$ref`s in the corpus's `$ref` graph); none when one cannot be
    followed."""
    node = graph.node(where)
    found = [where] if isinstance(node.get("$ref"), str) else []
    members = node.get("allOf")
    found += [where.child("allOf", n) for n in range(len(members))] if isinstance(members, list) else []
    parts = []
    for place in found:
        target = graph.deref(place)
        part = graph.node(target) if target is not None else None
        if not isinstance(part, dict):
            return []
        parts.append(part)
    return parts


def _closed_branches(where: Located, node: dict[str, Any], graph: RefGraph) -> Iterator[tuple[str, str, str]]:
    """A branch of an `anyOf` or `oneOf` closed to members the object beside it declares: the library
    mixes those members into every branch, so the model takes them with what the branch allows, where
    the branch refuses them (`{"steps": [], "fail_fast": true}` passed a branch that has only `steps`)."""
    own = _declared(node)
    for keyword in ("anyOf", "oneOf"):
        branches = node.get(keyword)
        if not own or not isinstance(branches, list):
            continue
        for index in range(len(branches)):
            target = graph.deref(where.child(keyword, index))
            branch = graph.node(target) if target is not None else None
            if not isinstance(branch, dict):
                continue
            closer = _closer(branch, part=True)
            held = sorted(own - _declared(branch))
            if closer is not None and held:
                yield (
                    keyword,
                    f"a branch of the `{keyword}` closed by `{closer[0]}` {_held(closer[1], held)}, declared beside "
                    f"the `{keyword}`; the model mixes them into every branch and takes them there",
                    _hint(closer[1]),
                )
                return


def _members_of_branches(where: Located, node: dict[str, Any], graph: RefGraph) -> Iterator[tuple[str, str, str]]:
    """Members a branch of an `anyOf` or `oneOf` declares that the object holding the union, closed by
    `additionalProperties: false`, does not: the object refuses them whatever the branch says, while the
    model's class of the branch (closed as the object is, `models_input._closed_into_branches`) declares
    and takes them."""
    if not closes_branches(node):
        return
    own = _declared(node)
    for keyword in ("anyOf", "oneOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list):
            continue
        for index in range(len(branches)):
            target = graph.deref(where.child(keyword, index))
            branch = graph.node(target) if target is not None else None
            held = sorted(_declared(branch) - own) if isinstance(branch, dict) else []
            if held:
                yield (
                    "additionalProperties",
                    f"`additionalProperties` (false) sees only the members declared beside it, so the schema "
                    f"refuses {_listed(held)}, which branch {index + 1} of the `{keyword}` declares; the model's "
                    "class of that branch takes them",
                    f"declare {_listed(held)} beside the `{keyword}` too, or drop them from the branch",
                )
                return


def _declared(node: dict[str, Any]) -> set[str]:
    members = node.get("properties")
    return {name for name in members if isinstance(name, str)} if isinstance(members, dict) else set()


def _listed(names: list[str]) -> str:
    shown = ", ".join(f"`{name}`" for name in names[:5])
    return shown + (f" and {len(names) - 5} more" if len(names) > 5 else "")

"""Which `not` and `if`/`then`/`else` the library's run-time checks read: a `not` of `required` alone,
and an `if` that requires the members it tests (each by `const`, `enum` or presence) with a `then` and
an `else` of `required` alone. The fed schema keeps of any other condition what the library reads
alike (such an `if`, and the `required` of its `then` and `else`), and `models_inexact` reports it."""

from __future__ import annotations

import re
from typing import Any

from wopgen.corpus.graph import value_at

# Keywords that say nothing of which values a schema takes.
WORDS = frozenset(
    {"title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly", "$anchor"}
)
_ANNOTATIONS = WORDS | {"$id"}


def annotation(key: str) -> bool:
    return key in _ANNOTATIONS or key.startswith("x-")


def required_only(schema: Any) -> bool:
    """`required` (a list of names), maybe `type: object`, and annotations, nothing else."""
    return (
        isinstance(schema, dict)
        and isinstance(schema.get("required"), list)
        and schema.get("type", "object") == "object"
        and all(key in ("required", "type") or annotation(key) for key in schema)
    )


def readable_condition(node: dict[str, Any], tested: list[str]) -> bool:
    """Whether the `if` of `node` (with its `then` and `else`) is one the library's run-time check reads:
    an `if` it reads (`readable_if`), and a `then` and an `else` of `required` alone."""
    return readable_if(node, tested) and all(required_only(node[key]) for key in ("then", "else") if key in node)


def readable_if(node: dict[str, Any], tested: list[str]) -> bool:
    """Whether the library reads the `if` of `node`: one that requires members (or tests `tested`,
    members the object requires anyway) and tests each by `const`, `enum` or presence. Of any other `if`
    it checks nothing, not even one that tests a member by `const` without requiring it."""
    condition = node["if"]
    if not isinstance(condition, dict) or not all(
        key in ("required", "properties", "type") or annotation(key) for key in condition
    ):
        return False
    members = condition.get("properties", {})
    named = condition.get("required", [])
    if not isinstance(members, dict) or not isinstance(named, list) or condition.get("type", "object") != "object":
        return False
    named = [*named, *tested]
    if not named:
        return False
    for name, schema in members.items():
        tests = schema is True or (isinstance(schema, dict) and _tests_value(schema))
        if not tests or (name not in named and schema is not True and any(not annotation(k) for k in schema)):
            return False
    return True


def _tests_value(schema: dict[str, Any]) -> bool:
    allowed = {"const", "enum", "type"} if "const" in schema or "enum" in schema else set()
    return all(key in allowed or annotation(key) for key in schema)


def tested_members(node: dict[str, Any], required: list[Any]) -> list[str]:
    """The members the `if` of `node` tests by `properties` without requiring them, that the object
    requires anyway (`node`'s own `required`, or `required`, that of the object whose `allOf` holds
    `node`). Requiring them in the `if` changes nothing (an object without them is refused either way)
    and makes the condition one the library reads."""
    condition = node.get("if")
    members = condition.get("properties") if isinstance(condition, dict) else None
    named = condition.get("required", []) if isinstance(condition, dict) else None
    own = node.get("required")
    needed = {name for name in [*required, *(own if isinstance(own, list) else [])] if isinstance(name, str)}
    if not isinstance(members, dict) or not isinstance(named, list):
        return []
    return [name for name in members if name in needed and name not in named]


def holder_required(document: Any, pointer: str) -> list[Any]:
    """The `required` of the object whose `allOf` holds the part at `pointer` of `document` (empty when the
    part is no `allOf` part, or the object requires nothing): what a condition in the part may count as
    present."""
    holder = re.fullmatch(r"(.*)/allOf/\d+", pointer)
    parent = value_at(document, holder[1])[1] if holder else None
    required = parent.get("required") if isinstance(parent, dict) else None
    return required if isinstance(required, list) else []

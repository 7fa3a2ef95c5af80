"""A closed object composed with `$ref` or `allOf`, which JSON Schema and the generated models read apart.

`additionalProperties: false` sees only the `properties` (and `patternProperties`) written beside it,
never the members a `$ref` or an `allOf` part declares; the library instead merges every part into one
class and closes that. So `{"allOf": [{"$ref": "#/$defs/base"}], "additionalProperties": false}` refuses
every member of `base` while the model takes them, and a closed part refuses the members declared
beside it, which the model takes too. `closed_beside` names each such member as a `models-inexact`
finding.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import referencing.exceptions

if TYPE_CHECKING:  # the resolver type is not exported at the package's top level
    from referencing._core import Resolver

HINT = (
    "write `unevaluatedProperties: false` instead, which sees the members of every part, or list the "
    "members beside the closed keyword"
)


def closed_beside(node: dict[str, Any], resolver: Resolver[Any]) -> Iterator[tuple[str, str, str]]:
    """The findings for `node`: members its parts declare that its own `additionalProperties: false`
    refuses, and members declared beside a closed part that the part refuses."""
    parts = _parts(node, resolver)
    if not parts:
        return
    own = _declared(node)
    if node.get("additionalProperties") is False and not node.get("patternProperties"):
        refused = sorted({name for part in parts for name in _declared(part)} - own)
        if refused:
            yield (
                "additionalProperties",
                f"`additionalProperties` is false and sees only the members declared beside it, so the schema refuses "
                f"{_listed(refused)}, which a `$ref` or `allOf` part declares; the model merges the parts and takes them",
                HINT,
            )
    declared = own | {name for part in parts for name in _declared(part)}
    for part in parts:
        if part.get("additionalProperties") is False and not part.get("patternProperties"):
            refused = sorted(declared - _declared(part))
            if refused:
                yield (
                    "allOf" if "allOf" in node else "$ref",
                    f"a closed `$ref` or `allOf` part refuses {_listed(refused)}, declared elsewhere in the "
                    "composition, so the schema refuses a value holding them; the model merges the parts and "
                    "takes them",
                    HINT,
                )
                return


def _parts(node: dict[str, Any], resolver: Resolver[Any]) -> list[dict[str, Any]]:
    """The object schemas `node` is composed with: its `$ref` target and its `allOf` members (each
    followed through one `$ref`); none when one cannot be followed."""
    found: list[Any] = []
    if isinstance(node.get("$ref"), str):
        found.append(node)
    for member in node.get("allOf", []) if isinstance(node.get("allOf"), list) else []:
        found.append(member)
    parts = []
    for part in found:
        reference = part.get("$ref") if isinstance(part, dict) else None
        if isinstance(reference, str):
            try:
                part = resolver.lookup(reference).contents
            except referencing.exceptions.Unresolvable:
                return []
        if not isinstance(part, dict):
            return []
        parts.append(part)
    return parts


def _declared(node: dict[str, Any]) -> set[str]:
    members = node.get("properties")
    return {name for name in members if isinstance(name, str)} if isinstance(members, dict) else set()


def _listed(names: list[str]) -> str:
    shown = ", ".join(f"`{name}`" for name in names[:5])
    return shown + (f" and {len(names) - 5} more" if len(names) > 5 else "")

"""An `if`/`then`/`else` read as the union of its two arms, so it can be set against a `oneOf` or an
`anyOf` branch by branch.

A value valid under `if` must be valid under `then`; any other value must be valid under `else` (an
absent one takes every value). So the schema accepts what `then` with the keywords of `if` laid in
accepts, together with what `else` accepts of the values `if` refuses. The first arm is exact where
the keywords of `if` mean the same laid into `then` (or `then` takes only values `if` takes). The
second is `else` as written where `else` takes no value `if` takes (`disjoint.disjoint`); where that
cannot be shown, the conditional is not read as a union. Written for JSON Schema's conditionals in
OpenAPI 3.1 (`X-or-reference`: `if` the object has `$ref`, `then` a Reference, `else` an X) and
schemas written the same way.
"""

from __future__ import annotations

from wopgen.compat.cover import Side, covers
from wopgen.compat.disjoint import disjoint
from wopgen.compat.normalize import Loc, Resolver, is_annotation, laid_into, placed, without_noops
from wopgen.corpus.keywords import draft_of

KEYWORDS = ("if", "then", "else")
_BEFORE_CONDITIONALS = frozenset({"draft-03", "draft-04", "draft-06"})  # `if` is no keyword there


def arms(resolver: Resolver, loc: Loc) -> list[Loc] | None:
    """The arms of the conditional `loc` holds (an arm that accepts nothing left out), each where it
    is written; None when it holds none, or they cannot be told apart exactly."""
    node = loc.node
    if not isinstance(node, dict) or not isinstance(node.get("if"), dict) or not {"then", "else"} & node.keys():
        return None
    if draft_of(loc.holder("if").doc.data).name in _BEFORE_CONDITIONALS:
        return None
    test = without_noops(resolver.deref(loc.child("if")))
    if not isinstance(test.node, dict):
        return None
    found: list[Loc] = []
    then = _arm(resolver, loc, "then")
    if then is None:
        found.append(test)  # `then` absent: the values `if` takes
    elif then.node is not False:
        if not covers(Side(resolver, test), Side(resolver, then)):  # `then` alone may take values `if` refuses
            laid = laid_into(then, test, {k: v for k, v in test.node.items() if not is_annotation(k)})
            if laid is None:
                return None
            then = placed(loc.child("then"), laid)
        found.append(then)
    otherwise = _arm(resolver, loc, "else")
    if otherwise is None or not disjoint(Side(resolver, test), Side(resolver, otherwise)):
        return None  # `else` (or its absence, which takes everything) may take values `if` takes
    if otherwise.node is not False:
        found.append(otherwise)
    return found


def _arm(resolver: Resolver, loc: Loc, keyword: str) -> Loc | None:
    """The schema under `then` or `else` as an object (`true` as `{}`), None when absent."""
    if keyword not in loc.node:
        return None
    arm = without_noops(resolver.deref(loc.child(keyword)))
    if arm.node is True:
        return Loc(arm.doc, arm.pointer, {}, arm.borrowed)
    return arm

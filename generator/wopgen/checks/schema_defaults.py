"""Defaults: a description that gives a default has the `default` keyword, and a `default` is a value its
schema takes.

Generated models and validators read `default`, not descriptions. A member whose description says
"absent means `reject`" or "defaults to `2`" but declares no `default` gives every generated model
a `None` where the spec promises a value; one whose `default` says something else contradicts it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import Any

from jsonschema.exceptions import best_match

from wopgen.corpus import Corpus
from wopgen.corpus.defaults import refused_defaults
from wopgen.corpus.graph import Position, unescape_token, value_at
from wopgen.diagnostics import Diagnostic, define

DEFAULT_UNDECLARED = define(
    "schema-default-undeclared",
    "error",
    "A description states a default (absent means `x`, defaults to `x`) that the schema does not declare, or declares differently, with `default`.",
)

DEFAULT_INVALID = define(
    "schema-default-invalid",
    "warning",
    "A `default` that the schema it is written in refuses: generated models that fill in or validate defaults would "
    "refuse or produce invalid data.",
)

# "absent means `x`", "defaults to `x`", "default `x`" / "Default: `x`", and "default when omitted: `x`" /
# "default when absent is `x`", each ending the clause or followed by the member's absence alone ("when
# omitted", "if not specified"); not "the default `x`" nor "the image's default `x`", which name some
# other default rather than this member's, nor a default given only under another condition
# ("defaults to `x` when `y` is set").
_ABSENT = r"(?:when|if)\s+(?:omitted|absent|unset|not\s+(?:specified|set|given|provided|present))"
_STATED = re.compile(
    r"(?:[Aa]bsent means|[Dd]efaults to|(?<!the )(?<!spec )(?<!'s )(?<!\u2019s )\b[Dd]efault(?:\s+"
    + _ABSENT
    + r"(?::|\s+is)|:)?)"
    r"\s+`([^`]+)`(?=\s*(?:[.;,)]|$|" + _ABSENT + r"\s*(?:[.;,)]|$)))"
)
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def stated_default(description: str) -> Any:
    """The value a description gives as the default, or `...` when it gives none."""
    match = _STATED.search(description)
    if match is None:
        return ...
    text = match.group(1).strip()
    try:
        return json.loads(text)
    except ValueError:
        # a string written as code quotes it (`'x-token'`, `"x"`): the value is what the quotes hold
        return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" else text


def _fits(node: dict[str, Any], value: Any) -> bool:
    """Whether `value` is of a type the schema node allows (a node without `type` allows any)."""
    declared = node.get("type")
    names = [declared] if isinstance(declared, str) else declared if isinstance(declared, list) else None
    if names is None:
        return True
    for name in names:
        kinds = _JSON_TYPES.get(name, ()) if isinstance(name, str) else ()
        if isinstance(value, kinds) and not (isinstance(value, bool) and name in ("number", "integer")):
            return True
    return False


def _names_something(stated: Any, members: Callable[[], frozenset[str]], siblings: frozenset[str]) -> bool:
    """Whether a stated default reads as a name rather than a value: a placeholder ("`<module_name>.data`"),
    a member of the same object ("`name`: defaults to `ext`", the value of that member), or another member
    of the schema named in camel case ("defaults to `productName`"). A lower-case word that names a member
    elsewhere in the file (`query`, `light`) is still read as a value."""
    if not isinstance(stated, str):
        return False
    return ("<" in stated and ">" in stated) or stated in siblings or (stated != stated.lower() and stated in members())


def _siblings(data: Any, pointer: str) -> frozenset[str]:
    """The other members of the object whose member the schema at `pointer` describes (none when it is not
    the schema of a member)."""
    holder, _, name = pointer.rpartition("/")
    if holder.rpartition("/")[2] != "properties":
        return frozenset()
    listed = value_at(data, holder)[1]
    return frozenset(listed) - {unescape_token(name)} if isinstance(listed, dict) else frozenset()


def _member_names(corpus: Corpus, path: str) -> frozenset[str]:
    """The names every `properties` of a schema file lists, read from its objects in the graph."""
    return frozenset(
        name
        for item in corpus.graph.objects(path)
        if item.position is Position.SCHEMA and isinstance(item.node.get("properties"), dict)
        for name in item.node["properties"]
    )


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    refused = refused_defaults(corpus)
    for path in sorted(corpus.schemas):
        doc = corpus.schemas[path]
        found = [_invalid(corpus, path, pointer) for pointer in refused.get(path, [])]
        stated = list(_stated_apart(corpus, path))
        if stated and corpus.resolvable(path):
            # a value the member itself refuses is no default of it: the description names something else
            # (another setting, `global.interval`), or is wrong in a way `default` cannot fix
            verdicts = corpus.verdicts(path, [(pointer, value) for pointer, value, _ in stated])
            stated = [entry for entry, verdict in zip(stated, verdicts, strict=True) if verdict is not False]
        for pointer, value, message in stated:
            line, col = doc.locate(f"{pointer}/description")
            found.append(
                DEFAULT_UNDECLARED.at(
                    path,
                    line,
                    message,
                    f'add "default": {json.dumps(value)} beside the description, or correct one of the two',
                    col=col,
                )
            )
        yield from sorted(found, key=lambda d: (d.line, d.col))


def _stated_apart(corpus: Corpus, path: str) -> Iterator[tuple[str, Any, str]]:
    """(pointer, value, message) of each schema object of the file whose description states a default
    that its `default` does not say (absent or another value)."""
    doc = corpus.schemas[path]
    members = cache(partial(_member_names, corpus, path))  # read once, where a default is stated
    for item in corpus.graph.objects(path):
        if item.position is not Position.SCHEMA:  # names maps, unknown keywords, instance data
            continue
        ptr, node = item.pointer, item.node
        description = node.get("description")
        if not isinstance(description, str):
            continue
        stated = stated_default(description)
        if stated is ... or not _fits(node, stated) or _names_something(stated, members, _siblings(doc.data, ptr)):
            continue
        if "default" not in node:
            yield ptr, stated, f"the description gives the default {stated!r} but the schema declares no `default`"
        elif node["default"] != stated or type(node["default"]) is not type(stated):
            yield ptr, stated, f"the description gives the default {stated!r} but `default` is {node['default']!r}"


def _invalid(corpus: Corpus, path: str, pointer: str) -> Diagnostic:
    doc = corpus.schemas[path]
    value = value_at(doc.data, pointer)[1]["default"]
    error = best_match(corpus.validator(path, pointer).iter_errors(value))
    reason = f": {error.message[:200]}" if error is not None else ""
    shown = json.dumps(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    line, col = doc.locate(f"{pointer}/default")
    return DEFAULT_INVALID.at(
        path,
        line,
        f"the `default` {shown} is refused by the schema it is written in{reason}",
        "correct the default, or the schema, so that the default is one of the values the schema takes",
        col=col,
    )

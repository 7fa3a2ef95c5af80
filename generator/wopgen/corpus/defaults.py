"""The `default` values their own schema refuses. JSON Schema recommends a default be valid against the
schema it sits in; one that is not is reported by `check` (`schema-default-invalid`), and the models
leave it out, since a model that validates its defaults would refuse every instance leaving the member
out, which the schema takes."""

from __future__ import annotations

from typing import Any

from wopgen.corpus.documents import may_write
from wopgen.corpus.graph import Position, replaced
from wopgen.corpus.model import Corpus


def refused_defaults(corpus: Corpus) -> dict[str, list[str]]:
    """By schema path, the pointers (in document order) of the schema objects whose `default` the object
    itself refuses; a default no verdict can be reached on (an unresolvable `$ref`) is left out. Made once
    per corpus."""
    return corpus.view(("refused-defaults",), lambda: _refused(corpus))


def _refused(corpus: Corpus) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(corpus.schemas):
        if not may_write(corpus.schemas[path].text, "default") or not corpus.resolvable(path):
            continue
        stated = [
            (item.pointer, item.node["default"])
            for item in corpus.graph.objects(path)
            if item.position is Position.SCHEMA and "default" in item.node
        ]
        refused = [
            pointer for (pointer, _), ok in zip(stated, corpus.verdicts(path, stated), strict=True) if ok is False
        ]
        if refused:
            found[path] = refused
    return found


def without_defaults(data: Any, pointers: list[str]) -> Any:
    """The schema document `data` with the `default` of the object at each of `pointers` left out (`data`
    itself when there is none), the objects on the way to them copied."""
    out = data
    for pointer in pointers:
        out = replaced(out, pointer, lambda node: {key: value for key, value in node.items() if key != "default"})
    return out

"""Bundle the corpus schemas into one document: each schema becomes a named component.

Cross-file and local `$ref`s are rewritten to JSON pointers inside the bundle (`<prefix><Name>` or
`<prefix><Name>/$defs/x`), and `$id`/`$schema` are dropped, so the result needs no resolver that
knows the corpus: OpenAPI and AsyncAPI tools read it as it is, and so does hypothesis-jsonschema.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urldefrag, urljoin

from wopgen.corpus import Corpus
from wopgen.corpus.keywords import INSTANCE_DATA

_COMPONENT_NAME = re.compile(r"^[A-Za-z0-9._-]+$")


class BundleError(Exception):
    """A `$ref` that the bundle cannot express (it leaves the corpus or is not a JSON pointer)."""


def component_names(corpus: Corpus) -> dict[str, str]:
    """Schema name -> component name: the schema's title when it is unique and usable, else the name."""
    titles: dict[str, str] = {}
    for name, doc in sorted(corpus.schemas_by_name.items()):
        title = doc.data.get("title") if isinstance(doc.data, dict) else None
        titles[name] = title if isinstance(title, str) and _COMPONENT_NAME.match(title) else name
    counts: dict[str, int] = {}
    for title in titles.values():
        counts[title] = counts.get(title, 0) + 1
    return {name: (title if counts[title] == 1 else name) for name, title in titles.items()}


def bundle_components(corpus: Corpus, prefix: str) -> dict[str, Any]:
    """Component name -> schema with every `$ref` pointing inside the bundle under `prefix`."""
    names = component_names(corpus)
    by_uri = {corpus.uri_of(doc.path): corpus.schema_name(doc.path) for doc in corpus.schemas.values()}
    by_uri.update({corpus.expected_id(path): corpus.schema_name(path) for path in corpus.schemas})
    components: dict[str, Any] = {}
    for path, doc in sorted(corpus.schemas.items()):
        if not isinstance(doc.data, dict):
            continue
        base = corpus.uri_of(path)
        body = {k: v for k, v in doc.data.items() if k not in ("$id", "$schema")}
        components[names[corpus.schema_name(path)]] = _rewrite(body, base, by_uri, names, prefix)
    return components


def _rewrite(node: Any, base: str, by_uri: dict[str, str], names: dict[str, str], prefix: str) -> Any:
    if isinstance(node, list):
        return [_rewrite(item, base, by_uri, names, prefix) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str):
            out[key] = _target(value, base, by_uri, names, prefix)
        elif key in INSTANCE_DATA:
            out[key] = value  # instance data, not schemas
        else:
            out[key] = _rewrite(value, base, by_uri, names, prefix)
    return out


def _target(ref: str, base: str, by_uri: dict[str, str], names: dict[str, str], prefix: str) -> str:
    uri, fragment = urldefrag(urljoin(base, ref))
    schema_name = by_uri.get(uri)
    if schema_name is None:
        raise BundleError(f"$ref {ref!r} does not name a corpus schema")
    if fragment and not fragment.startswith("/"):
        raise BundleError(f"$ref {ref!r} uses an anchor; only JSON pointers can be bundled")
    return prefix + names[schema_name] + fragment


def referenced_components(components: dict[str, Any], start: list[str], prefix: str) -> list[str]:
    """The names of the components reachable from `start` through `$ref`s under `prefix`, sorted."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name in seen or name not in components:
            continue
        seen.add(name)
        todo.extend(_refs_under(components[name], prefix))
    return sorted(seen)


def _refs_under(node: Any, prefix: str) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(prefix):
                found.append(value[len(prefix) :].split("/", 1)[0])
            elif key not in INSTANCE_DATA:
                found.extend(_refs_under(value, prefix))
    elif isinstance(node, list):
        for item in node:
            found.extend(_refs_under(item, prefix))
    return found


def bundled_schema(corpus: Corpus, schema_name: str, pointer: str = "") -> dict[str, Any]:
    """One self-contained JSON Schema for `schema_name` (or its subschema at `pointer`).

    Only the components it reaches are included.
    """
    prefix = "#/$defs/"
    names = component_names(corpus)
    components = bundle_components(corpus, prefix)
    keep = referenced_components(components, [names[schema_name]], prefix)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": prefix + names[schema_name] + pointer,
        "$defs": {name: components[name] for name in keep},
    }

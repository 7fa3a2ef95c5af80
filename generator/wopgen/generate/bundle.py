"""Bundle the corpus schemas into one document: each schema becomes a named component.

Cross-file and local `$ref`s are rewritten to JSON pointers inside the bundle (`<prefix><Name>` or
`<prefix><Name>/$defs/x`), and `$id`/`$schema` are dropped, so the result needs no resolver that
knows the corpus: OpenAPI and AsyncAPI tools read it as it is, and so does hypothesis-jsonschema.
"""

from __future__ import annotations

import re
from typing import Any

from wopgen.corpus import Corpus
from wopgen.corpus.graph import Located, RefSite, Status

_COMPONENT_NAME = re.compile(r"^[A-Za-z0-9._-]+$")
_DROPPED = frozenset({"$id", "$schema"})


class BundleError(Exception):
    """A `$ref` that the bundle cannot express: it leaves the corpus or leads nowhere.

    `site` is the `$ref` at fault, when there is one (None for a name the API description gives).
    """

    def __init__(self, message: str, site: RefSite | None = None) -> None:
        super().__init__(message)
        self.site = site


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
    """Component name -> schema with every `$ref` pointing inside the bundle under `prefix`.

    Each `$ref` becomes the location the graph resolved it to, so pointers, `$anchor`s and embedded
    `$id`s bundle alike; embedded `$id`s are dropped with the top-level ones, since a base URI
    left in place would change what the rewritten pointers mean. Made once per corpus and prefix
    (both API documents and the site ask for it); callers copy what they change.
    """
    return corpus.view(("bundle", prefix), lambda: _bundle_components(corpus, prefix))


def _bundle_components(corpus: Corpus, prefix: str) -> dict[str, Any]:
    names = component_names(corpus)

    def target(site: RefSite) -> str:
        if site.target is None or site.status not in (Status.RESOLVED, Status.UNCHECKED):
            if site.status in (Status.EXTERNAL, Status.NO_DOCUMENT):
                raise BundleError(f"$ref {site.ref!r} does not name a corpus schema", site)
            raise BundleError(f"$ref {site.ref!r}: {site.detail or 'it leads nowhere'}", site)
        return prefix + names[corpus.schema_name(site.target.path)] + site.target.pointer

    components: dict[str, Any] = {}
    for path, doc in sorted(corpus.schemas.items()):
        if not isinstance(doc.data, dict):
            continue
        body = corpus.graph.rewritten(Located(path, ""), target, drop=_DROPPED)
        for key in _DROPPED:
            body.pop(key, None)
        components[names[corpus.schema_name(path)]] = body
    return components


def reachable_components(corpus: Corpus, schema_names: list[str]) -> list[str]:
    """The component names of `schema_names` and of every schema they reach through `$ref`s, sorted."""
    names = component_names(corpus)
    paths = [corpus.schemas_by_name[name].path for name in schema_names if name in corpus.schemas_by_name]
    return sorted(names[corpus.schema_name(path)] for path in corpus.graph.reachable(paths))


def bundled_schema(corpus: Corpus, schema_name: str, pointer: str = "") -> dict[str, Any]:
    """One self-contained JSON Schema for `schema_name` (or its subschema at `pointer`).

    Only the components it reaches are included.
    """
    prefix = "#/$defs/"
    names = component_names(corpus)
    components = bundle_components(corpus, prefix)
    keep = reachable_components(corpus, [schema_name])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": prefix + names[schema_name] + pointer,
        "$defs": {name: components[name] for name in keep},
    }

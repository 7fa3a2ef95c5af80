"""Bundle the corpus schemas into one document: each schema becomes a named component.

Cross-file and local `$ref`s are rewritten to JSON pointers inside the bundle (`<prefix><Name>` or
`<prefix><Name>/$defs/x`), and `$id`/`$schema` are dropped, so the result needs no resolver that
knows the corpus: OpenAPI and AsyncAPI tools read it as it is, and so does hypothesis-jsonschema.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wopgen.corpus import Corpus
from wopgen.corpus.api import read_api
from wopgen.corpus.graph import Located, RefSite, Status, pointer_fragment, ref_strings
from wopgen.corpus.keywords import DIALECT

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
        "$schema": DIALECT,
        "$ref": prefix + names[schema_name] + pointer,
        "$defs": {name: components[name] for name in keep},
    }


SCHEMA_COMPONENTS = "#/components/schemas/"
UNBUNDLED = "x-wop-unbundled-ref"


def _at(data: Any, where: list[Any]) -> Any:
    for step in where:
        data = data[step]
    return data


@dataclass(frozen=True)
class BundledDocument:
    """What `bundling` made of a document: the copy, and what it did to it (for a reader of the copy)."""

    document: dict[str, Any]
    schemas: tuple[str, ...]  # the components the corpus schemas were bundled under, sorted
    unbundled: tuple[str, ...]  # the `$ref`s taken out and kept as `x-wop-unbundled-ref`, in document order
    siblings: tuple[str, ...] = ()  # the `$ref`s into another API document, now naming it beside the copy


def bundling(corpus: Corpus, path: str, data: Any, beside: Mapping[str, str] | None = None) -> BundledDocument:
    """A copy of the corpus's own OpenAPI or AsyncAPI document at `path` (parsed: `data`) that needs
    no other file: every `$ref` into a corpus schema (`../schemas/x.schema.json#/$defs/y`, an `$id`)
    points instead at a copy of that schema bundled under `components/schemas`, with the schemas it
    reaches. A bundled schema takes its component name (see `component_names`); a component of the
    document by that name that is only a `$ref` to that very schema gives its place up to it. Should
    a name stand for something else in the document, every bundled name starts with `corpus.`.
    `$ref`s inside the document are left as written. One into another API document of the corpus names
    that document by the file name the site publishes it under beside the copy: `beside` gives it by
    document path, else it is the document's own file name. One that
    leads nowhere else (a file the corpus lacks, a fragment of another YAML file) would send a reader of
    the copy to fetch what is not there: it is taken out and kept as the note `x-wop-unbundled-ref`
    (`wopgen check` reports it as `api-ref-unresolved`)."""
    plain = json.loads(json.dumps(data))
    if not isinstance(plain, dict):
        raise BundleError(f"{path} is not an object")
    names = component_names(corpus)
    documents = {document.path for document in read_api(corpus).standard}
    found: list[tuple[list[Any], str, Located]] = []
    unbundled: list[str] = []
    siblings: list[str] = []
    for where, ref in ref_strings(plain):
        if ref.startswith("#"):
            continue
        target = corpus.graph.document_ref(path, data, ref)[0]
        if target is not None and target.path in corpus.schemas:
            found.append((where, ref, target))
        elif target is not None and target.path in documents:
            fragment = pointer_fragment(target.pointer) if target.pointer else ""
            name = (beside or {}).get(target.path) or posixpath.basename(target.path)
            _at(plain, where)["$ref"] = name + fragment
            siblings.append(ref)
        else:  # nowhere to lead in a file of its own: kept as a note, not as a reference to fetch
            holder = _at(plain, where)
            del holder["$ref"]
            holder[UNBUNDLED] = ref
            unbundled.append(ref)
    used = reachable_components(corpus, [corpus.schema_name(target.path) for _, _, target in found])
    if not used:  # no schema to bundle: the document keeps its components as they are
        return BundledDocument(plain, (), tuple(unbundled), tuple(siblings))
    components = plain.setdefault("components", {})
    own = components.get("schemas") if isinstance(components, dict) else None
    if not isinstance(components, dict) or not (own is None or isinstance(own, dict)):
        raise BundleError(f"{path}: components/schemas is not an object")
    own = own or {}
    for namespace in ("", "corpus."):
        prefix = SCHEMA_COMPONENTS + namespace

        def pointer(target: Located) -> str:
            return prefix + names[corpus.schema_name(target.path)] + target.pointer  # noqa: B023 (called at once)

        replaced = {
            namespace + name
            for name in used
            if (namespace + name) in own
            and any(
                where == ["components", "schemas", namespace + name] and pointer(target) == prefix + name
                for where, _, target in found
            )
            and set(own[namespace + name]) == {"$ref"}
        }
        if any((namespace + name) in own and (namespace + name) not in replaced for name in used):
            continue  # the document names something else so
        for where, _, target in found:
            _at(plain, where)["$ref"] = pointer(target)
        bundled = bundle_components(corpus, prefix)
        schemas = {key: value for key, value in own.items() if key not in replaced}
        schemas.update({namespace + name: bundled[name] for name in used})
        if schemas:
            components["schemas"] = schemas
        return BundledDocument(plain, tuple(namespace + name for name in used), tuple(unbundled), tuple(siblings))
    raise BundleError(f"{path}: components/schemas already uses the names the corpus schemas would take")

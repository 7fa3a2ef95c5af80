"""Bundle the corpus schemas into one document: each schema becomes a named component, and so
does each of its `$defs` entries (and theirs), hoisted out of it as `<Name>_<entry>`.

Cross-file and local `$ref`s are rewritten to JSON pointers inside the bundle (`<prefix><Name>` or
`<prefix><Name>_x`), and `$id`/`$schema` are dropped, so the result needs no resolver that knows the
corpus: OpenAPI and AsyncAPI tools read it as it is, and so does hypothesis-jsonschema. The `$defs`
are hoisted because the most used client generators resolve a `$ref` only to a whole component
(openapi-python-client drops what points into `<Name>/$defs/x`; openapi-typescript types `$defs` as a
member of the component). `_` joins the names: a `.` would do, but datamodel-code-generator reads a
dotted component name as a module path. A `$defs` entry (or other subschema) that is nothing but a
`$ref` is no component: generators read a component with a `$ref` at its root as an alias, and
openapi-python-client then builds the schema it names a second time, under that schema's title, and
drops one of the two as a duplicate model. A `$ref` to the entry points where the entry's does.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wopgen.corpus import Corpus
from wopgen.corpus.api import read_api
from wopgen.corpus.documents import escape_token
from wopgen.corpus.graph import Located, Position, RefSite, Status, pointer_fragment, ref_strings, unescape_token
from wopgen.corpus.keywords import DIALECT

_COMPONENT_NAME = re.compile(r"^[A-Za-z0-9._-]+$")
_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9_-]+")  # what a `$defs` entry's name loses in its component's name
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


def component_origins(corpus: Corpus) -> dict[str, Located]:
    """Component name -> what it holds: a corpus schema (its root, pointer "") or a subschema of one.

    A schema's component is named by `component_names`. Each `$defs` entry of a component becomes
    the component `<that name>_<entry name>`, recursively (breadth first, entries in sorted order);
    so does any other subschema a `$ref` lands on, as `<name of the component it is in>_<the tokens
    of its pointer there>` (`VerificationGate_gatePosition_properties_placement`), and is left in its
    place as a `$ref` to it. Characters a component name cannot hold, and `.`, are written `_`. A name
    already taken, by a schema or an entry named before it, gets `-2`, `-3`, ... added: two schemas
    never share a component. A subschema below a schema's root that is nothing but a `$ref` gets no
    component (see `aliases`).
    """
    return corpus.view(("bundle-origins",), lambda: _component_origins(corpus))


def _component_origins(corpus: Corpus) -> dict[str, Located]:
    names = component_names(corpus)
    out: dict[str, Located] = {}
    at: dict[Located, str] = {}

    def add(base: str, where: Located) -> str:
        base = _NOT_IN_NAME.sub("_", base)
        name, n = base, 1
        while name in out:
            n += 1
            name = f"{base}-{n}"
        out[name], at[where] = where, name
        return name

    skipped = aliases(corpus)
    for path in sorted(corpus.schemas):
        add(names[corpus.schema_name(path)], Located(path, ""))
    pending = deque((name, root, corpus.schemas[root.path].data) for name, root in sorted(out.items()))
    while pending:  # breadth first: an entry's name is taken before those of the entries inside it
        parent, where, node = pending.popleft()
        defs = node.get("$defs") if isinstance(node, dict) else None
        if not isinstance(defs, dict):
            continue
        for key in sorted(defs):
            inner = Located(where.path, f"{where.pointer}/$defs/{escape_token(key)}")
            if inner not in skipped:
                pending.append((add(f"{parent}_{key}", inner), inner, defs[key]))
    targets = {
        skipped.get(site.target, site.target)
        for site in corpus.graph.sites
        if site.keyword == "$ref" and site.status is Status.RESOLVED and site.target is not None
    }
    # Shallowest first, so that each is named after the component holding it.
    for target in sorted(targets - set(at), key=lambda t: (t.path, t.pointer.count("/"), t.pointer)):
        if target.pointer not in {
            o.pointer for o in corpus.graph.objects(target.path) if o.position is Position.SCHEMA
        }:
            continue
        holder = _holder(at, target.path, target.pointer.rpartition("/")[0])
        add(at[holder] + target.pointer[len(holder.pointer) :].replace("/", "_"), target)
    return out


def aliases(corpus: Corpus) -> dict[Located, Located]:
    """Each subschema below the root of a corpus schema that is nothing but a resolved `$ref`
    (`"ping": {"$ref": "ping.schema.json"}`) -> the first place its chain of such `$ref`s leads that is
    not one; a chain that comes back round is left out. The bundle gives these no component, and a
    `$ref` to one points where it leads: the two mean the same."""
    return corpus.view(("bundle-aliases",), lambda: _aliases(corpus))


def _aliases(corpus: Corpus) -> dict[Located, Located]:
    step: dict[Located, Located] = {}
    for site in corpus.graph.sites:
        if site.keyword == "$ref" and site.pointer and site.status is Status.RESOLVED and site.target is not None:
            node = corpus.graph.node(site.source)
            if isinstance(node, dict) and set(node) == {"$ref"}:
                step[site.source] = site.target
    out: dict[Located, Located] = {}
    for start, end in step.items():
        seen = {start}
        while end in step and end not in seen:
            seen.add(end)
            end = step[end]
        if end not in seen:
            out[start] = end
    return out


def _holder(at: Mapping[Located, str], path: str, pointer: str) -> Located:
    """The innermost node of the schema at `path`, at `pointer` or around it, with a component of its own."""
    while pointer and Located(path, pointer) not in at:
        pointer = pointer.rpartition("/")[0]
    return Located(path, pointer)


def _components_at(corpus: Corpus) -> dict[Located, str]:
    return corpus.view(("bundle-components-at",), lambda: {at: name for name, at in component_origins(corpus).items()})


def component_ref(corpus: Corpus, prefix: str, target: Located) -> str:
    """The `$ref` under `prefix` of a node of a corpus schema: into the component of the innermost
    `$defs` entry (or schema) that holds it, or, for a node that is nothing but a `$ref`, where that leads."""
    at = _components_at(corpus)
    target = aliases(corpus).get(target, target)
    holder = _holder(at, target.path, target.pointer)
    return prefix + at[holder] + target.pointer[len(holder.pointer) :]


def bundle_components(corpus: Corpus, prefix: str) -> dict[str, Any]:
    """Component name -> schema with every `$ref` pointing inside the bundle under `prefix`.

    Each `$ref` becomes the location the graph resolved it to, so pointers, `$anchor`s and embedded
    `$id`s bundle alike; embedded `$id`s are dropped with the top-level ones, since a base URI
    left in place would change what the rewritten pointers mean. The `$defs` entries, and the other
    subschemas a `$ref` lands on, are components of their own (see `component_origins`); one of the
    latter is left in its place as a `$ref` to its component. An entry that is nothing but a `$ref` is
    left out, and `$ref`s to it point where it does. Made once per corpus and prefix (both API
    documents and the site ask for it); callers copy what they change.
    """
    return corpus.view(("bundle", prefix), lambda: _bundle_components(corpus, prefix))


def _bundle_components(corpus: Corpus, prefix: str) -> dict[str, Any]:
    at = _components_at(corpus)

    def target(site: RefSite) -> str:
        if site.target is None or site.status not in (Status.RESOLVED, Status.UNCHECKED):
            if site.status in (Status.EXTERNAL, Status.NO_DOCUMENT):
                raise BundleError(f"$ref {site.ref!r} does not name a corpus schema", site)
            raise BundleError(f"$ref {site.ref!r}: {site.detail or 'it leads nowhere'}", site)
        return component_ref(corpus, prefix, site.target)

    def hoist(name: str, where: Located, body: Any) -> None:
        defs = body.pop("$defs", None) if isinstance(body, dict) else None
        components[name] = body
        for key, entry in defs.items() if isinstance(defs, dict) else ():
            inner = Located(where.path, f"{where.pointer}/$defs/{escape_token(key)}")
            if inner in at:  # not an entry that is only a `$ref`
                hoist(at[inner], inner, entry)

    components: dict[str, Any] = {}
    for path, doc in sorted(corpus.schemas.items()):
        if not isinstance(doc.data, dict):
            continue
        body = corpus.graph.rewritten(Located(path, ""), target, drop=_DROPPED)
        for key in _DROPPED:
            body.pop(key, None)
        hoist(at[Located(path, "")], Located(path, ""), body)
    for name, where in component_origins(corpus).items():  # the other subschemas a `$ref` lands on
        holder = _holder(at, where.path, where.pointer.rpartition("/")[0])
        if name in components or at.get(holder) not in components:
            continue
        node = components[at[holder]]
        *steps, last = [unescape_token(t) for t in where.pointer[len(holder.pointer) + 1 :].split("/")]
        for step in steps:
            node = node[int(step)] if isinstance(node, list) else node[step]
        place: Any = int(last) if isinstance(node, list) else last
        components[name], node[place] = node[place], {"$ref": prefix + name}
    return components


def reachable_components(corpus: Corpus, schema_names: list[str]) -> list[str]:
    """The component names of `schema_names` and of every schema they reach through `$ref`s (with
    their hoisted `$defs` entries), sorted."""
    paths = [corpus.schemas_by_name[name].path for name in schema_names if name in corpus.schemas_by_name]
    reached = set(corpus.graph.reachable(paths))
    return sorted(name for name, origin in component_origins(corpus).items() if origin.path in reached)


def bundled_schema(corpus: Corpus, schema_name: str, pointer: str = "") -> dict[str, Any]:
    """One self-contained JSON Schema for `schema_name` (or its subschema at `pointer`).

    Only the components it reaches are included.
    """
    prefix = "#/$defs/"
    components = bundle_components(corpus, prefix)
    keep = reachable_components(corpus, [schema_name])
    return {
        "$schema": DIALECT,
        "$ref": component_ref(corpus, prefix, Located(corpus.schemas_by_name[schema_name].path, pointer)),
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
    schemas: tuple[str, ...]  # the components the corpus schemas were bundled under, sorted (not their `$defs`)
    unbundled: tuple[str, ...]  # the `$ref`s taken out and kept as `x-wop-unbundled-ref`, in document order
    siblings: tuple[str, ...] = ()  # the `$ref`s into another API document, now naming it beside the copy


def bundling(corpus: Corpus, path: str, data: Any, beside: Mapping[str, str] | None = None) -> BundledDocument:
    """A copy of the corpus's own OpenAPI or AsyncAPI document at `path` (parsed: `data`) that needs
    no other file: every `$ref` into a corpus schema (`../schemas/x.schema.json#/$defs/y`, an `$id`)
    points instead at a copy of that schema bundled under `components/schemas`, with the schemas it
    reaches. A bundled schema takes its component name, and each of its `$defs` entries one of its own
    (see `component_origins`); a component of the document by that name that is only a `$ref` to
    that very schema gives its place up to it. Should
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
    origins = component_origins(corpus)
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
            return component_ref(corpus, prefix, target)  # noqa: B023 (called at once)

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
        whole = tuple(namespace + name for name in used if not origins[name].pointer)
        return BundledDocument(plain, whole, tuple(unbundled), tuple(siblings))
    raise BundleError(f"{path}: components/schemas already uses the names the corpus schemas would take")

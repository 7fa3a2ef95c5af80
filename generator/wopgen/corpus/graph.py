"""The located `$ref` graph of a corpus: the one place where a `$ref` is found and resolved.

Every schema document is walked at most once, when something first asks about it. Each object is
located (file, JSON pointer) and given its position (a schema, a map of named subschemas, instance
data such as `examples`, or the value of an unknown keyword) and the base URI in effect there (the
file's `$id`, changed by every embedded `$id`). Every `$ref` in a schema position is a `RefSite`; it is resolved through the corpus
registry (`referencing`), so JSON pointers, `$anchor`s and embedded `$id`s all lead to a located
target: the file and the pointer of the very node `referencing` returns.

From the sites follow the derived views every consumer reads: `deref` (follow a chain of `$ref`s,
never forever), the pure-`$ref` cycles, the `$defs` entries some `$ref` lands in, the files a file
refers to and what they reach, and property paths (`capabilities.events.replay` style). A `$ref`
inside `const`, `enum`, `examples` or `default` is instance data, never a reference, and so is one
inside a keyword JSON Schema does not define (AsyncAPI's `"example": {"$ref": ...}`) unless a `$ref`
leads into it: no validator applies it. Nothing is
fetched: a URI outside the corpus is an `EXTERNAL` site, not a network request.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import quote as _percent_encoded
from urllib.parse import unquote as _percent_decoded
from urllib.parse import urldefrag, urljoin, urlsplit, uses_relative

import referencing.exceptions

from wopgen.corpus.documents import JsonDoc, escape_token, may_embed_id, may_write
from wopgen.corpus.keywords import (
    CURRENT,
    DEFS,
    INSTANCE_DATA,
    Draft,
    declared_id,
    draft_of,
)

if TYPE_CHECKING:
    from wopgen.corpus.model import Corpus

# An object whose only members are these is a pure reference: it adds nothing to its target.
PURE_REF_KEYS = frozenset({"$ref", "description", "title", "$comment"})
# A reference that is one file name (no scheme, folder, query or dot segment), with or without a fragment;
# a base of the web (`http`, `https`: urljoin resolves only in the schemes it knows) with a path; an
# absolute reference of the web that parsing and unparsing give back unchanged.
_FILE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:#.+)?")
_HIERARCHICAL = re.compile(r"https?://[^/?#;]+(?=/)")
_ABSOLUTE = re.compile(r"https?://[^/?#;]+(?:/[^?#;]*)?(?:#.+)?")


def join_uri(base: str, ref: str) -> str:
    """`urllib.parse.urljoin(base, ref)`, with the shapes nearly every `$id` and `$ref` has answered
    directly (absolute, a fragment of the base, a file beside it): resolving them is most of building
    the graph."""
    if _ABSOLUTE.fullmatch(ref):
        return ref
    authority = _HIERARCHICAL.match(base)
    if authority is not None:
        document = base.partition("#")[0]
        if len(ref) > 1 and ref[0] == "#":
            return document + ref
        path = document.partition("?")[0][authority.end() :]
        if _FILE_NAME.fullmatch(ref) and "/." not in path and "//" not in path and ";" not in path:
            return document[: authority.end() + path.rfind("/") + 1] + ref
    if ref.startswith("#") and urlsplit(base).scheme not in uses_relative:
        # A fragment names a place in the base document whatever its scheme (RFC 3986, 5.2.2); urljoin
        # resolves only in the schemes it knows, and gave `#/$defs/a` back unresolved against `urn:...`.
        return base.partition("#")[0] + ref
    return urljoin(base, ref)


def split_fragment(uri: str) -> tuple[str, str]:
    """`urllib.parse.urldefrag(uri)` as a pair, answered directly for an absolute URI of the web."""
    if _ABSOLUTE.fullmatch(uri) or (uri.endswith("#") and _ABSOLUTE.fullmatch(uri[:-1])):
        document, _, fragment = uri.partition("#")
        return document, fragment
    document, fragment = urldefrag(uri)
    return document, fragment


class Position(Enum):
    """What an object is, judged by the keyword path that leads to it."""

    SCHEMA = "schema"  # the document root or a subschema under a known keyword
    NAMES = "names"  # the value of `properties`, `$defs`, ...: names mapped to subschemas
    OTHER = "other"  # the value of an unknown keyword (kept schema-like, but its `$id` is not a resource)
    DATA = "data"  # inside `const`, `enum`, `examples` or `default`: instance data


class Status(Enum):
    RESOLVED = "resolved"  # the target is a located node of the corpus
    EXTERNAL = "external"  # the URI leaves the corpus (another host, another scheme, outside the base)
    NO_DOCUMENT = "no-document"  # no schema of the corpus has that URI
    NO_NODE = "no-node"  # the document exists, the pointer or anchor does not
    UNCHECKED = "unchecked"  # the source or target schema is not in the registry (the metaschema rejects it)


@dataclass(frozen=True, order=True)
class Located:
    """A node of the corpus: the schema file (relative path) and the JSON pointer inside it."""

    path: str
    pointer: str

    def __str__(self) -> str:
        return f"{self.path}#{self.pointer}"

    def child(self, *tokens: str | int) -> Located:
        return Located(self.path, self.pointer + "".join("/" + escape_token(t) for t in tokens))


class SchemaObject(NamedTuple):
    """One object of a schema document, located, with its position and base URI."""

    pointer: str
    node: dict[str, Any]
    position: Position
    base: str
    declared: str | None = None  # the `$id` of a schema object that declares one (`id` in draft-04)


@dataclass(frozen=True)
class RefSite:
    """One `$ref` (or `$dynamicRef`, as `keyword` says): where it is written, what it says, and what it
    resolves to."""

    doc: JsonDoc
    pointer: str  # pointer of the object holding the `$ref`
    ref: str
    base: str  # the base URI in effect at the object
    uri: str  # the reference made absolute against `base`
    status: Status
    target: Located | None  # for RESOLVED (and UNCHECKED when the pointer can be followed as text)
    detail: str = ""  # why it does not resolve, for the diagnostic
    keyword: str = "$ref"

    @property
    def path(self) -> str:
        return self.doc.path

    @property
    def source(self) -> Located:
        return Located(self.doc.path, self.pointer)

    def locate(self) -> tuple[int, int]:
        """line, col of the `$ref` (or `$dynamicRef`) value."""
        return self.doc.locate(f"{self.pointer}/{self.keyword}")

    @property
    def line(self) -> int:
        return self.locate()[0]


@dataclass(frozen=True)
class Cycle:
    """A loop of pure `$ref` objects; `sites` starts at the first site (in file order) that enters it."""

    sites: tuple[RefSite, ...]
    route: tuple[Located, ...]  # the loop, closed: last == first


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def value_at(data: Any, pointer: str) -> tuple[bool, Any]:
    """(found, value) of a JSON pointer in `data`, read as text: no `$ref` is followed."""
    node = data
    for raw in pointer.split("/")[1:] if pointer else []:
        key = unescape_token(raw)
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return False, None
    return True, node


def replaced(document: Any, pointer: str, change: Callable[[Any], Any]) -> Any:
    """`document` with the value at `pointer` changed by `change`, each object and array on the way to it
    copied (the rest is shared); `document` itself when nothing is there."""
    if not pointer:
        return change(document)
    token, _, rest = pointer[1:].partition("/")
    key: int | str
    if isinstance(document, dict) and unescape_token(token) in document:
        key = unescape_token(token)
        out: Any = dict(document)
    elif isinstance(document, list) and token.isdigit() and int(token) < len(document):
        key = int(token)
        out = list(document)
    else:
        return document
    out[key] = replaced(out[key], "/" + rest if rest else "", change)
    return out


def unquote(text: str) -> str:
    """`urllib.parse.unquote`, answered directly for a text with no `%` (nearly every pointer)."""
    return _percent_decoded(text) if "%" in text else text


def pointer_fragment(pointer: str) -> str:
    """`#` and the JSON pointer `pointer` percent-encoded as a URI fragment must be (RFC 3986): the
    engines decode a fragment, so a member named `%41` written as is would lead to the one named `A`."""
    return "#" + _percent_encoded(pointer, safe="/?:@!$&'()*+,;=~")


def rebased(base: str, declared: str) -> str:
    """The base URI inside a schema object that declares `$id` `declared`, where `base` was in effect."""
    return split_fragment(join_uri(base, declared))[0]


# What `referencing` indexes by `int` in parsed JSON: its arrays and strings (named, not the `Sequence` ABC,
# whose check costs several times more).
_SEQUENCES = (list, str, tuple)


_MISSING = object()


def _pointed(contents: Any, fragment: str) -> Any:
    """What a URI fragment read as a JSON pointer leads to in `contents`, read the way `referencing`
    reads it: percent-decoded, every sequence (strings too) indexed by `int`; `_MISSING` where it leads
    nowhere."""
    if not fragment:
        return contents
    try:
        for segment in unquote(fragment[1:]).split("/"):
            key: int | str = int(segment) if isinstance(contents, _SEQUENCES) else unescape_token(segment)
            contents = contents[key]
    except (LookupError, ValueError, TypeError):
        return _MISSING
    return contents


def _not_a_schema(value: Any) -> str | None:
    """What a `$ref` found instead of a schema (an object, or a boolean): `an integer`, `a string`...;
    None when it is one. Validators refuse such a reference (jsonschema-rs when it compiles the schema)."""
    if isinstance(value, dict | bool):
        return None
    kinds = {int: "an integer", float: "a number", str: "a string", list: "an array", type(None): "null"}
    return kinds.get(type(value), type(value).__name__)


# A tuple made once: `isinstance(x, dict | list)` builds the union anew at every call, and this is
# asked of every value of every schema.
_CONTAINERS = (dict, list)


def schema_objects(data: Any, base: str) -> Iterator[SchemaObject]:
    """Every object of a schema document in document order, iteratively (deep nesting cannot overflow),
    read in the draft its `$schema` names: which keywords hold subschemas, which member is an `$id`.

    An object under a keyword the draft does not know (`definitions/<group>/<name>`, an `x-` member) is
    a schema all the same where a `$ref` of the document points at it: validators apply it there."""
    return iter(_walked(data, base)[0])


def pointed_schemas(data: Any) -> list[str]:
    """The pointers of the objects of a schema document that only a `$ref` makes schemas (see
    `schema_objects`), each before any inside it."""
    return _walked(data, "")[1]


def _walked(data: Any, base: str) -> tuple[list[SchemaObject], list[str]]:
    """The objects of a schema document (`schema_objects`), and the pointers a `$ref` made schemas."""
    draft = draft_of(data)
    found = list(_objects_below("", data, Position.SCHEMA, base, draft))
    promoted: list[str] = []
    while True:
        targets = _pointed_at_other(found) if any(item.position is Position.OTHER for item in found) else []
        if not targets:
            return found, promoted
        for target in targets:  # each a whole subtree read as OTHER until now, so they do not overlap
            at = next(index for index, item in enumerate(found) if item.pointer == target)
            end = at + 1
            while end < len(found) and found[end].pointer.startswith(target + "/"):
                end += 1
            head = found[at]
            found[at:end] = _objects_below(target, head.node, Position.SCHEMA, head.base, draft)
        promoted += targets


def _objects_below(pointer: str, root: Any, position: Position, base: str, draft: Draft) -> Iterator[SchemaObject]:
    """The objects of `root` (at `pointer`, read as `position` where `base` is in effect), in document order."""
    stack: list[tuple[str, Any, Position, str]] = [(pointer, root, position, base)]
    while stack:  # only objects and lists are stacked: other values hold no object
        ptr, node, position, here = stack.pop()
        if isinstance(node, list):
            for index in range(len(node) - 1, -1, -1):
                if isinstance(node[index], _CONTAINERS):
                    stack.append((f"{ptr}/{index}", node[index], position, here))
            continue
        if not isinstance(node, dict):
            continue
        declared = draft.id_of(node) if position is Position.SCHEMA and draft.id_key in node else None
        if declared is not None:
            here = rebased(here, declared)
        yield SchemaObject(ptr, node, position, here, declared)
        for key, value in reversed(node.items()):
            if isinstance(value, _CONTAINERS):
                token = escape_token(key) if "~" in key or "/" in key else key
                stack.append((f"{ptr}/{token}", value, _child_position(draft, position, key), here))


def _pointed_at_other(found: list[SchemaObject]) -> list[str]:
    """The pointers of the objects read as OTHER that a `$ref` of the document leads to by a JSON pointer
    (`#/...` from the root of the resource it is written in); of nested ones, the outermost alone."""
    others = {item.pointer for item in found if item.position is Position.OTHER}
    roots = {found[0].base: ""}  # each resource's base URI -> the pointer of its root
    for item in found:
        if item.declared is not None and item.base not in roots:
            roots[item.base] = item.pointer
    targets = set()
    for item in found:  # a `$ref` is applied where it sits in a schema: not in data, nor in OTHER until pointed at
        ref = item.node.get("$ref") if item.position is Position.SCHEMA else None
        if isinstance(ref, str) and ref.startswith("#/") and item.base in roots:
            target = roots[item.base] + unquote(ref[1:])
            if target in others:
                targets.add(target)
    ordered = sorted(targets, key=lambda t: t.split("/"))
    return [t for i, t in enumerate(ordered) if not any(t.startswith(o + "/") for o in ordered[:i])]


def _child_position(draft: Draft, position: Position, key: str) -> Position:
    if position is Position.DATA:
        return Position.DATA
    if position is Position.NAMES:
        return Position.SCHEMA
    if key in INSTANCE_DATA:
        return Position.DATA
    if position is Position.OTHER:
        return Position.OTHER
    if key in draft.maps:
        return Position.NAMES
    if key in draft.lists or key in draft.singles:
        return Position.SCHEMA
    return Position.OTHER


def beside(path: str, target: str) -> str:
    """The corpus path a relative reference `target` (no fragment) written in the file `path` names."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(path), target))


def ref_strings(data: Any) -> Iterator[tuple[list[Any], str]]:
    """Every `$ref` string of a document that is not a schema of the corpus (an OpenAPI or AsyncAPI
    document), with the path of the object holding it; iterative, so depth cannot overflow."""
    stack: list[tuple[list[Any], Any]] = [([], data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                yield path, ref
            stack.extend(([*path, k], v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend(([*path, i], v) for i, v in reversed(list(enumerate(node))))


def map_subschemas(schema: Any, change: Callable[[Any], Any], draft: Draft = CURRENT) -> Any:
    """A shallow copy of `schema` with `change` applied to each of its immediate subschemas, as `draft`
    (the one of the document it is part of) places them: an array `items` before 2020-12 holds one per
    position, a `dependencies` value that is a list of names is left as it is."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    for key in sorted(draft.maps):
        if isinstance(out.get(key), dict):
            out[key] = {name: change(sub) if isinstance(sub, dict | bool) else sub for name, sub in out[key].items()}
    for key in sorted(draft.lists):
        if isinstance(out.get(key), list):
            out[key] = [change(sub) for sub in out[key]]
    for key in sorted(draft.singles):
        if key in out:
            out[key] = [change(sub) for sub in out[key]] if isinstance(out[key], list) else change(out[key])
    return out


def subschemas(schema: Any, draft: Draft = CURRENT) -> list[Any]:
    """The immediate subschemas of `schema`, those `map_subschemas` applies its change to, without copying
    anything: for a question about them that changes nothing."""
    if not isinstance(schema, dict):
        return []
    found: list[Any] = []
    for key in draft.maps:
        if isinstance(schema.get(key), dict):
            found += [sub for sub in schema[key].values() if isinstance(sub, dict | bool)]
    for key in draft.lists:
        if isinstance(schema.get(key), list):
            found += schema[key]
    for key in draft.singles:
        if key in schema:
            found += schema[key] if isinstance(schema[key], list) else [schema[key]]
    return found


# A `$ref` member with a string value as JSON text writes it, when the value holds no escape.
_WRITTEN_REF = re.compile(r'"\$ref"\s*:\s*"([^"\\]*)"')


class RefGraph:
    """The `$ref` graph of one corpus. Build it through `Corpus.graph` (computed once per corpus).

    A file is walked when something first asks about it: its objects, its sites, a site at or below
    one of its locations. What asks about every file (`sites`, `locate`, the derived views) walks them
    all, in path order, so the answers are those of one walk of the whole corpus; a comparison that
    reads a few files walks only those (and what they refer to).
    """

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self._objects: dict[str, list[SchemaObject]] = {}  # path -> its objects, for each file walked
        self._where: dict[int, tuple[str, str]] = {}  # id() of every object walked -> its path and pointer
        self._outside: dict[str, bool] = {}  # document URI -> whether it leaves the corpus
        self._file_sites: dict[str, list[RefSite]] = {}  # path -> its sites, for each file resolved
        self._site_at: dict[Located, RefSite] = {}  # the sites of the files resolved, by where they are
        self._sites_by_ref: dict[str, dict[str, list[RefSite]]] = {}  # path -> `$ref` as written -> its sites
        self._all_walked = False

    # --- walking, file by file -------------------------------------------------------------

    def _walk(self, path: str) -> list[SchemaObject]:
        """The objects of the schema at `path` (none when it is not an object), walked once."""
        found = self._objects.get(path)
        if found is None:
            doc = self.corpus.schemas.get(path)
            found = (
                list(schema_objects(doc.data, self.corpus.uri_of(path))) if doc and isinstance(doc.data, dict) else []
            )
            self._objects[path] = found
            for item in found:
                self._where[id(item.node)] = (path, item.pointer)
        return found

    def _walk_all(self) -> None:
        if not self._all_walked:
            for path in sorted(self.corpus.schemas):
                self._walk(path)
            self._all_walked = True

    def file_sites(self, path: str) -> list[RefSite]:
        """The `$ref` sites of the schema at `path`, in document order (resolved on first use)."""
        sites = self._file_sites.get(path)
        if sites is None:
            doc = self.corpus.schemas.get(path)
            sites = (
                [
                    self._resolve(doc, item)
                    for item in self._walk(path)
                    if item.position is Position.SCHEMA and isinstance(item.node.get("$ref"), str)
                ]
                if doc is not None
                else []
            )
            self._file_sites[path] = sites
            by_ref: dict[str, list[RefSite]] = {}
            for site in sites:
                self._site_at[site.source] = site
                by_ref.setdefault(site.ref, []).append(site)
            self._sites_by_ref[path] = by_ref
        return sites

    def outward_refs(self, path: str) -> dict[str, RefSite] | None:
        """Each `$ref` value written in the schema file at `path` that may lead out of it -> the site
        it makes, read from the file's text without walking it; None when its text is not plain
        enough to be read so (an escape, an embedded `$id`, a `$ref` member whose value is not a
        plain string).

        Without an embedded `$id`, every object of a file has the file's base URI, so a `$ref`
        resolves the same wherever it is written and one resolution answers for all its sites. A
        JSON pointer into that base (`#/...`) stays in the file when the base is the file's own
        URI, and is left out then. The keys are a superset of the file's other sites' refs: a `$ref`
        member inside instance data (`const`, `examples`) is read as one too. The sites answered are
        located at the root."""
        doc = self.corpus.schemas.get(path)
        if doc is None or not isinstance(doc.data, dict) or may_embed_id(doc.text, doc.data):
            return None
        text = doc.text
        written = _WRITTEN_REF.findall(text)
        if len(written) != text.count('"$ref"'):
            return None
        base = self._root_base(doc)
        files = self._files_by_uri
        own = files is not None and files.get(base) == path
        return {
            ref: self._resolve(doc, SchemaObject("", {"$ref": ref}, Position.SCHEMA, base))
            for ref in set(written)
            if not (own and (ref == "#" or ref.startswith("#/")))
        }

    def _root_base(self, doc: JsonDoc) -> str:
        """The base URI in effect at the root of a schema file (its `$id` read against its URI)."""
        base = self.corpus.uri_of(doc.path)
        declared = declared_id(doc.data)
        return rebased(base, declared) if declared is not None else base

    @cached_property
    def dynamic_sites(self) -> list[RefSite]:
        """Every `$dynamicRef` of the corpus, each resolved as a `$ref` of the same value would be: where
        the dynamic reference starts (JSON Schema 2020-12, 8.2.3.2), which must exist, and which a
        `$dynamicAnchor` there may then move. Only the checks read them."""
        found = []
        for path in sorted(self.corpus.schemas):
            doc = self.corpus.schemas[path]
            if not may_write(doc.text, "$dynamicRef"):
                continue
            for item in self._walk(path):
                if item.position is Position.SCHEMA and isinstance(item.node.get("$dynamicRef"), str):
                    found.append(self._resolve(doc, item, "$dynamicRef"))
        return found

    @cached_property
    def sites(self) -> list[RefSite]:
        """Every `$ref` site of the corpus: file by file in path order, each in document order."""
        self._walk_all()
        return [site for path in sorted(self.corpus.schemas) for site in self.file_sites(path)]

    # --- objects and nodes -----------------------------------------------------------------

    def objects(self, path: str) -> list[SchemaObject]:
        """Every object of the schema at `path` (instance data included), in document order."""
        return self._walk(path)

    def locate(self, node: object) -> Located | None:
        """Where an object of some corpus schema sits (by identity), or None."""
        self._walk_all()
        found = self._where.get(id(node))
        return Located(*found) if found is not None else None

    def node(self, where: Located) -> Any:
        """The value at a location, or None when there is none."""
        doc = self.corpus.schemas.get(where.path)
        return value_at(doc.data, where.pointer)[1] if doc is not None else None

    def site_at(self, where: Located) -> RefSite | None:
        """The `$ref` written in the object at `where`, if that object has one in a schema position."""
        self.file_sites(where.path)
        return self._site_at.get(where)

    # --- resolution ------------------------------------------------------------------------

    @cached_property
    def _files_by_uri(self) -> dict[str, str] | None:
        """URI -> schema path of every resource of the registry, when each of them is a whole file:
        no schema the registry holds embeds an `$id` below its root and no two files claim one URI.
        Then a `$ref` to a URI (and a JSON pointer in it) is resolved here without crawling the
        registry, with the very outcome `referencing` gives; None when `referencing` must decide."""
        corpus = self.corpus
        table: dict[str, str] = {}
        for uri, doc in corpus.schemas_by_uri.items():
            if not corpus.resolvable(doc.path):
                continue
            key = uri.rstrip("#")  # how the registry files it
            claims = [key]
            declared = declared_id(doc.data)
            if declared is not None:
                claims.append(join_uri(key, declared.rstrip("#")))  # how its crawl files it again
            for claim in claims:
                if table.setdefault(claim, doc.path) != doc.path:
                    return None
            if may_embed_id(doc.text, doc.data) and any(item.declared is not None for item in self._walk(doc.path)[1:]):
                return None
        return table

    def _resolve(self, doc: JsonDoc, item: SchemaObject, keyword: str = "$ref") -> RefSite:
        """The site of the reference `item` writes under `keyword`, resolved as a `$ref` of that value."""
        ref = item.node[keyword]
        uri = join_uri(item.base, ref)
        document, fragment = split_fragment(uri)

        def site(status: Status, target: Located | None = None, detail: str = "") -> RefSite:
            return RefSite(doc, item.pointer, ref, item.base, uri, status, target, detail, keyword)

        outside = self._outside.get(document)
        if outside is None:
            within = document.startswith(self.corpus.settings.id_base)
            web = within and (
                document.startswith(("https://", "http://")) or urlsplit(document).scheme in ("http", "https")
            )
            # A resource of the corpus under another base (an `$id` embedded below a root, or a root's own
            # `$id` off the convention, which `schema-id` reports) is resolved, not called external.
            outside = self._outside[document] = not web and document not in self.corpus.registry
        if outside:
            return site(Status.EXTERNAL)
        known = self.corpus.schemas_by_uri.get(document)
        if not self.corpus.resolvable(doc.path):
            if known is None:
                return site(Status.NO_DOCUMENT, detail=f"no schema in the corpus has $id {document!r}")
            return site(Status.UNCHECKED, self._as_text(known, fragment))
        pointer = fragment.startswith("/") or not fragment
        if pointer and document == split_fragment(self._root_base(doc))[0]:
            # the file's own resource: found in the file, as a validator of the file finds it, though
            # another file claims the same `$id` (`schema-id-duplicate`) and so holds it in the registry
            return self._resolve_in_file(site, known, document, fragment, doc.path)
        if self._files_by_uri is not None and pointer:
            return self._resolve_in_file(site, known, document, fragment)
        resolver = self.corpus.registry.resolver(base_uri=item.base)
        try:
            root = resolver.lookup(document)
        except referencing.exceptions.Unresolvable:
            if known is None:
                return site(Status.NO_DOCUMENT, detail=f"no schema in the corpus has $id {document!r}")
            # The file exists but the metaschema rejects it, so it is not in the registry.
            return site(Status.UNCHECKED, self._as_text(known, fragment))
        try:
            found = resolver.lookup(ref).contents
        except (referencing.exceptions.Unresolvable, ValueError, TypeError):
            what = "pointer" if fragment.startswith("/") else "anchor"  # `#meta` names an $anchor or $dynamicAnchor
            return site(Status.NO_NODE, detail=f"{what} {fragment!r} does not exist in {document}")
        start = self.locate(root.contents)
        if start is None:  # pragma: no cover - every registry resource is a corpus object
            return site(Status.NO_NODE, detail=f"{document} is not a corpus schema")
        kind = _not_a_schema(found)
        if kind is not None:
            return site(Status.NO_NODE, detail=f"{ref!r} leads to {kind} in {document}, not to a schema")
        if fragment.startswith("/") or not fragment:
            return site(Status.RESOLVED, Located(start.path, start.pointer + unquote(fragment)))
        target = self.locate(found)
        if target is None:  # pragma: no cover - an anchor always names an object
            return site(Status.NO_NODE, detail=f"anchor {fragment!r} does not name a subschema in {document}")
        return site(Status.RESOLVED, target)

    def _resolve_in_file(
        self, site: Callable[..., RefSite], known: JsonDoc | None, document: str, fragment: str, path: str | None = None
    ) -> RefSite:
        """A `$ref` to a whole-file resource with a JSON pointer (or none): what `referencing`
        answers, found without it (see `_files_by_uri`); in the file at `path` when given."""
        if path is None:
            assert self._files_by_uri is not None
            path = self._files_by_uri.get(document)
        if path is None:
            if known is None:
                return site(Status.NO_DOCUMENT, detail=f"no schema in the corpus has $id {document!r}")
            return site(Status.UNCHECKED, self._as_text(known, fragment))
        found = _pointed(self.corpus.schemas[path].data, fragment)
        if found is _MISSING:
            return site(Status.NO_NODE, detail=f"pointer {fragment!r} does not exist in {document}")
        kind = _not_a_schema(found)
        if kind is not None:
            return site(Status.NO_NODE, detail=f"pointer {fragment!r} leads to {kind} in {document}, not to a schema")
        return site(Status.RESOLVED, Located(path, unquote(fragment)))

    @staticmethod
    def _as_text(doc: JsonDoc | None, fragment: str) -> Located | None:
        """A target read as a plain pointer into a schema outside the registry, when it exists."""
        if doc is None or not (fragment.startswith("/") or not fragment):
            return None
        pointer = unquote(fragment)
        return Located(doc.path, pointer) if value_at(doc.data, pointer)[0] else None

    def chain(self, where: Located) -> tuple[list[Located], bool]:
        """The locations met following `$ref`s from `where` (first `where`, last a node without a
        `$ref`), and whether the chain ends well: False on a `$ref` that does not resolve or on a loop."""
        met = [where]
        while (site := self.site_at(met[-1])) is not None:
            if site.status is not Status.RESOLVED or site.target is None or site.target in met:
                return met, False
            met.append(site.target)
        return met, True

    def deref(self, where: Located) -> Located | None:
        """Follow the `$ref` of `where`, and of its target, ... to a node without one; None on a
        `$ref` that does not resolve or on a loop."""
        met, complete = self.chain(where)
        return met[-1] if complete else None

    def first_site_below(self, where: Located, ref: str) -> RefSite | None:
        """The first `$ref` site spelled `ref` in the value at `where` (itself included), in document
        order; None when there is none."""
        self.file_sites(where.path)
        inside = where.pointer + "/"
        for site in self._sites_by_ref[where.path].get(ref, ()):
            if site.pointer == where.pointer or site.pointer.startswith(inside):
                return site
        return None

    def sites_below(self, where: Located) -> list[RefSite]:
        """The `$ref` sites in the value at `where` (itself included), in document order."""
        inside = where.pointer + "/"
        return [
            site
            for site in self.file_sites(where.path)
            if site.pointer == where.pointer or site.pointer.startswith(inside)
        ]

    def property_path(self, where: Located, names: Iterable[str]) -> Located | None:
        """The subschema reached from `where` by the property names `names` (following `$ref`s), or None."""
        current: Located | None = where
        for name in names:
            current = self.deref(current) if current is not None else None
            node = self.node(current) if current is not None else None
            properties = node.get("properties") if isinstance(node, dict) else None
            if current is None or not isinstance(properties, dict) or name not in properties:
                return None
            current = current.child("properties", name)
        return current

    def property_tree(self, where: Located) -> Iterator[tuple[str, Located, Located]]:
        """(dotted name, the property's subschema, that subschema with its `$ref`s followed) for every
        property below `where`, depth first in file order; a property whose schema is already open
        on the way down is listed but not entered again."""

        def visit(at: Located, prefix: str, open_: frozenset[Located]) -> Iterator[tuple[str, Located, Located]]:
            here = self.deref(at) or at
            node = self.node(here)
            properties = node.get("properties") if isinstance(node, dict) else None
            if here in open_ or not isinstance(properties, dict):
                return
            for name in properties:
                child = here.child("properties", name)
                target = self.deref(child) or child
                yield f"{prefix}{name}", child, target
                yield from visit(target, f"{prefix}{name}.", open_ | {here})

        return visit(where, "", frozenset())

    def document_ref_problem(self, path: str, data: Any, ref: str) -> str | None:
        """Why `ref`, written in the corpus document `path` that is not a schema (an OpenAPI or
        AsyncAPI document, whose parsed content is `data`), leads nowhere; None when it resolves
        inside that document, to a schema of the corpus (by `$id` or relative path) or to another
        corpus file. Nothing is fetched."""
        return self.document_ref(path, data, ref)[1]

    def document_ref(self, path: str, data: Any, ref: str) -> tuple[Located | None, str | None]:
        """Where `ref`, written in the corpus document `path` that is not a schema (see
        `document_ref_problem`), leads: (the file and the JSON pointer, None), or (None, why it leads
        nowhere). The file is `path` itself for a pointer into the document, a schema path, or another
        file of the corpus (a shared YAML fragment, whose pointer is not checked here). A pointer into a
        schema the metaschema rejects is given as written. Nothing is fetched."""
        corpus = self.corpus
        target, fragment = urldefrag(ref)
        pointer = unquote(fragment)
        if not target:
            if value_at(data, pointer)[0]:
                return Located(path, pointer), None
            return None, f"no {fragment or '/'} in this document"
        if "://" in target:
            schema = corpus.schemas_by_uri.get(target)
            if schema is None:
                return None, f"{target} is not a schema of the corpus (nothing is fetched from the network)"
            found = schema.path
        else:
            found = beside(path, target)
            if not corpus.inside(found):
                return None, f"{target} leaves the corpus"
            if found not in corpus.schemas:
                if corpus.exists(found):  # e.g. a shared YAML fragment
                    return Located(found, pointer), None
                return None, f"{found} does not exist"
        if not corpus.resolvable(found):
            return Located(found, pointer), None  # the schema itself is broken; `schema-metaschema` says why
        if fragment and not value_at(corpus.schemas[found].data, pointer)[0]:
            return None, f"no {fragment} in {found}"
        return Located(found, pointer), None

    # --- derived views ---------------------------------------------------------------------

    @cached_property
    def used_defs(self) -> dict[str, frozenset[str]]:
        """Schema path -> names of its top-level `$defs` entries that some `$ref` (or `$dynamicRef`) lands
        in or below, or that hold a `$dynamicAnchor` some `$dynamicRef` may bind to: dynamic scope reaches it
        from wherever validation passed through its resource, with no `$ref` landing there."""
        used: dict[str, set[str]] = {}
        landed = [site.target for site in [*self.sites, *self.dynamic_sites] if site.target is not None]
        for target in [*landed, *self._dynamic_anchors()]:
            parts = target.pointer.split("/")
            if len(parts) >= 3 and parts[1] == DEFS:
                used.setdefault(target.path, set()).add(unescape_token(parts[2]))
        return {path: frozenset(names) for path, names in used.items()}

    def _dynamic_anchors(self) -> list[Located]:
        """The objects whose `$dynamicAnchor` names the anchor of some `$dynamicRef` of the corpus."""
        names = {split_fragment(site.uri)[1] for site in self.dynamic_sites} - {""}
        found = []
        for path in sorted(self.corpus.schemas) if names else ():
            text = self.corpus.schemas[path].text
            if not may_write(text, "$dynamicAnchor"):
                continue
            found += [
                Located(path, item.pointer)
                for item in self._walk(path)
                if item.position is Position.SCHEMA and item.node.get("$dynamicAnchor") in names
            ]
        return found

    @cached_property
    def edges(self) -> dict[str, frozenset[str]]:
        """Schema path -> the other schema files its `$ref`s land in."""
        out: dict[str, set[str]] = {}
        for site in self.sites:
            if site.target is not None and site.target.path != site.path:
                out.setdefault(site.path, set()).add(site.target.path)
        return {path: frozenset(targets) for path, targets in out.items()}

    def reachable(self, paths: Iterable[str]) -> list[str]:
        """`paths` and every schema file they reach through cross-file `$ref`s, sorted."""
        seen: set[str] = set()
        todo = list(paths)
        while todo:
            path = todo.pop()
            if path not in seen:
                seen.add(path)
                todo.extend(self.edges.get(path, ()))
        return sorted(seen)

    @cached_property
    def cycles(self) -> list[Cycle]:
        """Loops of objects that are nothing but a `$ref` (plus notes), each reported once."""
        pure = {
            site.source: site
            for site in self.sites
            if site.target is not None and set(self._holder(site)) <= PURE_REF_KEYS
        }
        found: list[Cycle] = []
        reported: set[frozenset[Located]] = set()
        for start in sorted(pure):
            chain = [start]
            while True:
                nxt = pure[chain[-1]].target
                assert nxt is not None
                if nxt in chain:
                    loop = chain[chain.index(nxt) :]
                    if frozenset(loop) not in reported:
                        reported.add(frozenset(loop))
                        found.append(Cycle(tuple(pure[p] for p in chain), (*loop, nxt)))
                    break
                if nxt not in pure:
                    break
                chain.append(nxt)
        return found

    @staticmethod
    def _holder(site: RefSite) -> Mapping[str, Any]:
        found, node = value_at(site.doc.data, site.pointer)
        return node if found and isinstance(node, dict) else {}

    # --- copies ----------------------------------------------------------------------------

    def rewritten(self, where: Located, replace: Callable[[RefSite], str], drop: frozenset[str] = frozenset()) -> Any:
        """A deep copy of the value at `where` with each `$ref` site's value replaced by
        `replace(site)` and the members `drop` names removed from every embedded resource
        (subschemas other than `where` that declare an `$id`)."""

        def copy(node: Any, pointer: str, top: bool) -> Any:
            if isinstance(node, list):
                return [copy(item, f"{pointer}/{index}", False) for index, item in enumerate(node)]
            if not isinstance(node, dict):
                return node
            site = self.site_at(Located(where.path, pointer))
            embedded = not top and declared.get(pointer) is not None
            out: dict[str, Any] = {}
            for key, value in node.items():
                if embedded and key in drop:
                    continue
                if key == "$ref" and site is not None:
                    out[key] = replace(site)
                else:
                    out[key] = copy(value, f"{pointer}/{escape_token(key)}", False)
            return out

        declared = {item.pointer: item.declared for item in self.objects(where.path)}
        return copy(self.node(where), where.pointer, True)

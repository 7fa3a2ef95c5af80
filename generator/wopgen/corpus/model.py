"""The frozen view of a loaded corpus: its parsed documents, the schema registry and cached views.

Checks and generators are pure functions of the `Corpus`; `load.load(root)` builds it.
"""

from __future__ import annotations

import gc
import posixpath
import re
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Generic, TypeVar
from urllib.parse import urljoin

import referencing
import referencing.exceptions
from jsonschema import Draft202012Validator
from jsonschema.exceptions import UnknownType, ValidationError
from jsonschema.protocols import Validator
from referencing.jsonschema import DRAFT202012, specification_with

from wopgen.corpus.documents import JsonDoc, YamlDoc, may_embed_id
from wopgen.corpus.files import glob_paths, inside
from wopgen.corpus.graph import RefGraph, Status, pointer_fragment
from wopgen.corpus.keywords import declared_id
from wopgen.corpus.markdown import MarkdownDoc
from wopgen.corpus.regexes import BoundedValidator, PatternTimeout
from wopgen.corpus.rfc import Rfc
from wopgen.corpus.settings import InstanceSet, Settings
from wopgen.corpus.validation import FORMAT_CHECKER, CompiledSchemas, dialect, draft, metaschema_accepts
from wopgen.diagnostics import Diagnostic

SCHEMA_SUFFIX = ".schema.json"
# What `jsonschema` may raise instead of a verdict: a `$ref` it cannot follow, a pattern past its
# budget, a keyword of the wrong type, endless recursion.
_UNJUDGED = (
    referencing.exceptions.Unresolvable,
    PatternTimeout,
    UnknownType,
    re.error,
    TypeError,
    ValueError,
    AttributeError,
    RecursionError,
)
T = TypeVar("T")
V = TypeVar("V")


@contextmanager
def gc_paused() -> Iterator[None]:
    """Hold back the cyclic garbage collector while a large acyclic structure is built (parsed
    documents, the `$ref` graph): its passes would walk every object made so far and free nothing,
    since what these builders drop is freed by reference counting.

    On the way out the objects made are moved to the oldest generation (`freeze` then `unfreeze`,
    two list splices) rather than left in the youngest: otherwise the first collection after the
    pause walks every one of them, which cost a fifth of loading the repository's corpus. Garbage
    cycles among them are still collected, by the next full collection."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


@dataclass(frozen=True)
class Example:
    schema_name: str
    kind: str  # "valid" | "invalid"
    doc: JsonDoc
    why: str = ""
    def_name: str = ""  # the per-def layout: the `$defs` entry of `examples-schema` it illustrates

    @property
    def path(self) -> str:
        return self.doc.path


@dataclass(frozen=True)
class Instance:
    """A JSON file an `instances` entry of the settings matches, to validate against its schema."""

    entry: InstanceSet
    doc: JsonDoc

    @property
    def path(self) -> str:
        return self.doc.path


@cache
def _crawlable(specification: referencing.Specification[Any]) -> referencing.Specification[Any]:
    """The draft, crawled only into values that are schemas: `referencing` yields every value of a
    draft-04 to 07 `dependencies` once the first is a schema, a list of member names among them, and
    fails on it (`"dependencies": {"begin": {...}, "end": ["begin"]}`, a valid draft-07 schema)."""
    anchors_in = getattr(specification, "_anchors_in", None)  # the function the draft was made with
    if anchors_in is None:
        return specification
    walk = specification.subresources_of

    def subresources_of(contents: Any) -> Iterator[Any]:
        return (each for each in walk(contents) if isinstance(each, dict | bool))

    return referencing.Specification(  # type: ignore[call-arg]
        name=specification.name,
        id_of=specification.id_of,
        subresources_of=subresources_of,
        anchors_in=anchors_in,
        maybe_in_subresource=specification.maybe_in_subresource,
    )


def _resource(data: Any) -> referencing.Resource[Any]:
    """A schema as a registry resource, in the draft its `$schema` names (2020-12 otherwise)."""
    declared = data.get("$schema") if isinstance(data, dict) else None
    found = specification_with(declared, default=DRAFT202012) if isinstance(declared, str) else DRAFT202012
    return referencing.Resource(contents=data, specification=_crawlable(found))  # type: ignore[call-arg]


def _refuse(uri: str) -> referencing.Resource[Any]:
    """Retrieval hook for the registry: nothing outside the corpus is ever fetched."""
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


def _entries(invariants: Any) -> int:
    """How many entries the invariants file lists (none when it is not a mapping with a list)."""
    listed = invariants.get("invariants") if isinstance(invariants, dict) else None
    return len(listed) if isinstance(listed, list) else 0


class ParsedOnUse(MutableMapping[str, V]):
    """A mapping of documents read at load whose parsing waits until one is first asked for (then
    it is kept). Checks that read no page or RFC do not pay for parsing them; iteration order is
    the order of loading."""

    def __init__(self) -> None:
        self._items: dict[str, V | _Pending[V]] = {}

    def later(self, key: str, make: Callable[[], V], source: str | None = None) -> None:
        """Add the document `make()` returns, parsed when first asked for; `source`, the text it is
        parsed from, may be given to be read without parsing it."""
        self._items[key] = _Pending(make, source)

    def source(self, key: str) -> str | None:
        """The text the document at `key` is parsed from, while it is not parsed yet and was given."""
        found = self._items[key]
        return found.source if isinstance(found, _Pending) else None

    def __getitem__(self, key: str) -> V:
        found = self._items[key]
        if isinstance(found, _Pending):
            with gc_paused():
                made = found.make()
            self._items[key] = made
            return made
        return found

    def __setitem__(self, key: str, value: V) -> None:
        self._items[key] = value

    def __delitem__(self, key: str) -> None:
        del self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __repr__(self) -> str:
        return f"ParsedOnUse({list(self._items)!r})"


@dataclass(frozen=True)
class _Pending(Generic[V]):
    make: Callable[[], V]
    source: str | None = None


@dataclass
class Corpus:
    """Everything in the corpus, parsed, with the diagnostics met while reading it."""

    settings: Settings
    schemas: dict[str, JsonDoc] = field(default_factory=dict)  # keyed by relative path
    examples: list[Example] = field(default_factory=list)
    instances: list[Instance] = field(default_factory=list)  # in the order of the entries, then of paths
    docs: MutableMapping[str, MarkdownDoc] = field(default_factory=ParsedOnUse)
    rfcs: MutableMapping[str, Rfc] = field(default_factory=ParsedOnUse)
    api: dict[str, YamlDoc] = field(default_factory=dict)
    # The YAML or JSON files (not schemas) the API documents share parts from by `$ref`, and those these
    # refer to in turn, wherever they are in the corpus: `common/parameters.yaml` of a multi-file OpenAPI.
    api_shared: dict[str, YamlDoc] = field(default_factory=dict)
    invariants: YamlDoc | None = None
    # The changelog under its path (none or one entry), read at load and parsed when first asked
    # for: most commands never read it. See `changelog`.
    changelogs: MutableMapping[str, MarkdownDoc] = field(default_factory=ParsedOnUse)
    load_diagnostics: list[Diagnostic] = field(default_factory=list)
    # Every file and folder of the repository (relative, POSIX), listed once by `load`; links that
    # lead out of the root and the ignored folders are left out. `exists` and `glob` ask this list.
    files: frozenset[str] = frozenset()
    folders: frozenset[str] = frozenset()
    # Relative path -> digest of the bytes of every file the loader read (settings file aside).
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        return self.settings.root

    @property
    def changelog(self) -> MarkdownDoc | None:
        """The changelog, parsed (None when the corpus has none)."""
        for path in self.changelogs:
            return self.changelogs[path]
        return None

    def checked(self) -> dict[str, int]:
        """How much of each part was read: what the summary of `wopgen check` says it looked at."""
        return {
            "schemas": len(self.schemas),
            "examples": len(self.examples),
            "RFCs": len(self.rfcs),
            "pages": len(self.docs),
            "API files": len(self.api),
            # only when [tool.wopgen] instances asks for any: a corpus without them reads as before
            **({"instances": len(self.instances)} if self.settings.instances else {}),
            # the single-file parts, when the corpus has them
            **({"invariants": _entries(self.invariants.data)} if self.invariants is not None else {}),
            **({"changelogs": len(self.changelogs)} if self.changelogs else {}),
        }

    # --- schemas -------------------------------------------------------------------------

    def schema_name(self, path: str) -> str:
        """The file name without its `schema-suffix` (`.schema.json`); below a sub-folder of the schemas
        folder, with that folder in front (`envelopes/error`)."""
        relative = self.schema_relative(path)
        suffix = self.settings.conventions.schema_suffix
        return relative.removesuffix(suffix) if relative.endswith(suffix) else relative.removesuffix(".json")

    def schema_relative(self, path: str) -> str:
        """The path of a schema below the schemas folder (its file name unless schemas are recursive)."""
        folder = posixpath.normpath(self.settings.schemas)
        if folder != "." and path.startswith(folder + "/"):
            return path[len(folder) + 1 :]
        return path if folder == "." else Path(path).name

    def expected_id(self, path: str) -> str:
        return self.settings.id_base + self.schema_relative(path)

    @cached_property
    def schemas_by_name(self) -> dict[str, JsonDoc]:
        return {self.schema_name(p): d for p, d in self.schemas.items()}

    @cached_property
    def schemas_by_uri(self) -> dict[str, JsonDoc]:
        """Each schema under its declared `$id` (`id` in draft-04) and under base + file name (for relative refs)."""
        table: dict[str, JsonDoc] = {}
        for _path, doc in sorted(self.schemas.items()):
            if not isinstance(doc.data, dict):
                continue
            declared = declared_id(doc.data)
            if declared is not None and declared not in table:
                table[declared] = doc
        for path, doc in sorted(self.schemas.items()):
            if isinstance(doc.data, dict):
                table.setdefault(self.expected_id(path), doc)
        return table

    def metaschema_errors(self, path: str) -> tuple[ValidationError, ...] | None:
        """What the 2020-12 metaschema says about the schema at `path` (None: too deeply nested to
        tell): the corpus convention, which the schema checks report."""
        return self._metaschema_verdict(path, Draft202012Validator)

    def draft_errors(self, path: str) -> tuple[ValidationError, ...] | None:
        """What the metaschema of the draft the schema at `path` declares says about it (2020-12 when
        it declares none or one no draft has; see `validation.draft`).

        The registry leaves out every schema with errors, since `referencing` cannot crawl a keyword
        of the wrong type; a draft-04 or draft-07 schema that its own draft accepts is in it, read in
        its draft, though the 2020-12 metaschema may reject it."""
        return self._metaschema_verdict(path, draft(self.schemas[path].data))

    def _metaschema_verdict(self, path: str, cls: Any) -> tuple[ValidationError, ...] | None:
        """Computed once per schema and draft: the compiled engine's yes, or the explaining engine's
        errors, in the order of the places they are at."""
        cache = self._metaschema_errors
        key = (path, cls)
        data = self.schemas[path].data
        if key not in cache and metaschema_accepts(data, cls):
            cache[key] = ()  # the compiled engine's yes; only a no needs the explaining engine
        if key not in cache:
            try:
                found = cls(cls.META_SCHEMA).iter_errors(data)
                cache[key] = tuple(sorted(found, key=lambda e: list(map(str, e.absolute_path))))
            except RecursionError:
                cache[key] = None
        return cache[key]

    @cached_property
    def _metaschema_errors(self) -> dict[tuple[str, Any], tuple[ValidationError, ...] | None]:
        return {}

    def adopt_metaschema_verdicts(self, other: Corpus) -> None:
        """Take the metaschema verdicts `other` has reached on schemas whose text is the same here:
        a verdict depends on the text alone (two versions of a corpus share most of their files)."""
        mine = self._metaschema_errors
        for key, verdict in other._metaschema_errors.items():
            doc = self.schemas.get(key[0])
            if doc is not None and key not in mine and doc.text == other.schemas[key[0]].text:
                mine[key] = verdict

    def resolvable(self, path: str) -> bool:
        """Whether the schema at `path` is in the registry: a JSON object the metaschema of its draft accepts."""
        return isinstance(self.schemas[path].data, dict) and self.draft_errors(path) == ()

    @cached_property
    def registry(self) -> referencing.Registry[Any]:
        """One immutable registry of every schema the metaschema of its draft accepts, each read in
        its draft; unknown URIs are refused, never fetched. A schema left out is reported by
        `schema-metaschema`, and every `$ref` into it is unresolvable rather than a crash."""
        resources = []
        embedding = False  # whether some schema may hold an `$id` below its root
        for uri, doc in self.schemas_by_uri.items():
            if not self.resolvable(doc.path):
                continue
            resources.append((uri, _resource(doc.data)))
            embedding = embedding or may_embed_id(doc.text, doc.data)
        registry: referencing.Registry[Any] = referencing.Registry(retrieve=_refuse)  # type: ignore[call-arg]
        if not embedding:  # every resource is a whole file under its own URIs: the crawl order decides nothing
            return registry.with_resources(resources).crawl()
        # A subschema's `$id` may claim the URI of a file or of another subschema (`schema-id-duplicate`).
        # One crawl of every file takes them in the order of a hash set, which changes from run to run with
        # the hash seed, and the last one crawled wins the URI. Crawled file by file in the order of
        # `schemas_by_uri` instead, then each file given back its own URI, the outcome is the same in every
        # run: a file keeps its URI, and of subschemas claiming one URI the last crawled has it.
        for pair in resources:
            registry = registry.with_resources([pair]).crawl()
        taken = [(uri, resource) for uri, resource in resources if registry[uri] is not resource]
        return registry.with_resources(taken) if taken else registry

    @cached_property
    def graph(self) -> RefGraph:
        """The located `$ref` graph: every `$ref` site resolved once, for every consumer."""
        with gc_paused():
            return RefGraph(self)

    def uri_of(self, path: str) -> str:
        doc = self.schemas[path]
        declared = declared_id(doc.data)
        return declared if declared is not None else self.expected_id(path)

    def validator(self, path: str, pointer: str = "") -> Validator:
        """A validator for the schema at `path`, or for the subschema at `pointer` inside it, of the
        draft that schema declares (a subschema reached by a pointer says none of its own).

        Every validator shares one resolver over the registry, so making one costs nothing
        however large the corpus is.
        """
        key = (path, pointer)
        cache = self._validators
        if key not in cache:
            wrapper: dict[str, Any] = {"$ref": self.target_uri(path, pointer)}
            cls = draft(self.schemas[path].data)
            if cls is not Draft202012Validator:
                wrapper = {"$schema": dialect(cls), **wrapper}
            cache[key] = self._base_validator.evolve(schema=wrapper)
        return cache[key]

    def accepts(self, path: str, pointer: str, instance: Any) -> bool:
        """Whether `instance` is surely valid against the schema at `path` (or its subschema at
        `pointer`): `verdict` is yes. False also when no verdict can be reached."""
        return self.verdict(path, pointer, instance) is True

    def verdict(self, path: str, pointer: str, instance: Any) -> bool | None:
        """Whether `instance` is valid against the schema at `path` (or its subschema at `pointer`),
        judged as `wopgen check` judges a valid example: the compiled engine's yes, else `jsonschema`'s
        verdict; None when no verdict can be reached (a `$ref` that leads nowhere or out of the
        corpus, a pattern past its time budget, a keyword of the wrong type, endless recursion)."""
        return (
            True if self.compiled_verdict(path, pointer, instance) else self._explained_verdict(path, pointer, instance)
        )

    def _explained_verdict(self, path: str, pointer: str, instance: Any) -> bool | None:
        """`jsonschema`'s verdict, where the compiled engine said no or could not tell."""
        try:
            return bool(self.validator(path, pointer).is_valid(instance))
        except _UNJUDGED:
            return None

    def verdicts(self, path: str, pairs: Sequence[tuple[str, Any]]) -> list[bool | None]:
        """`verdict` for each (pointer, instance) of `pairs` in the schema at `path`, the compiled engine
        judging them all at once."""
        if not pairs:
            return []
        compiled: list[bool | None] = (
            [None] * len(pairs)
            if path in self._reaching_cycles
            else self.compiled.verdicts([(self.target_uri(path, pointer), instance) for pointer, instance in pairs])
        )
        return [
            True if quick else self._explained_verdict(path, pointer, instance)
            for (pointer, instance), quick in zip(pairs, compiled, strict=True)
        ]

    def target_uri(self, path: str, pointer: str = "") -> str:
        """The URI of the schema at `path`, or of the subschema at `pointer` inside it (the pointer
        percent-encoded: see `pointer_fragment`)."""
        return urljoin(self.uri_of(path), pointer_fragment(pointer)) if pointer else self.uri_of(path)

    def compiled_verdict(self, path: str, pointer: str, instance: Any) -> bool | None:
        """Whether `instance` validates against the schema at `path` (or its subschema at `pointer`),
        answered by the compiled engine; None where it may not answer: it cannot tell, or the schema
        reaches a pure-`$ref` cycle (which `jsonschema` finds unverifiable and so must judge)."""
        if path in self._reaching_cycles:
            return None
        return self.compiled.is_valid(self.target_uri(path, pointer), instance)

    @cached_property
    def _reaching_cycles(self) -> frozenset[str]:
        looped = {located.path for cycle in self.graph.cycles for located in cycle.route}
        if not looped:
            return frozenset()
        return frozenset(path for path in self.schemas if looped.intersection(self.graph.reachable([path])))

    @cached_property
    def compiled(self) -> CompiledSchemas:
        """Compiled validators over the schemas the metaschema accepts, each under its URI: the fast
        answer to "does this validate?", with `validator` kept to explain a no."""
        left_out = self._reaching_unresolved
        docs = [doc for path, doc in sorted(self.schemas.items()) if self.resolvable(path) and path not in left_out]
        return CompiledSchemas([(self.uri_of(doc.path), doc.data) for doc in docs], [doc.text for doc in docs])

    @cached_property
    def _reaching_unresolved(self) -> frozenset[str]:
        """The schemas with a `$ref` that leads out of the corpus or nowhere, and those that reach one: the
        compiled engine resolves every `$ref` of its registry up front, and one such would refuse the whole
        registry, so they are left to `jsonschema` (which judges each instance as far as it goes)."""
        graph = self.graph
        found = {site.path for site in [*graph.sites, *graph.dynamic_sites] if site.status is not Status.RESOLVED}
        if not found:
            return frozenset()
        referrers: dict[str, set[str]] = {}
        for path, targets in graph.edges.items():
            for target in targets:
                referrers.setdefault(target, set()).add(path)
        todo = list(found)
        while todo:
            for path in referrers.get(todo.pop(), ()):
                if path not in found:
                    found.add(path)
                    todo.append(path)
        return frozenset(found)

    @cached_property
    def _base_validator(self) -> Validator:
        # `pattern`s run in bounded time (RE2, or `regex` with a timeout): see corpus/regexes.py
        bounded: Validator = BoundedValidator({}, registry=self.registry, format_checker=FORMAT_CHECKER)
        return bounded

    @cached_property
    def _validators(self) -> dict[tuple[str, str], Validator]:
        return {}

    # --- derived views -------------------------------------------------------------------

    def view(self, key: tuple[str, ...], make: Callable[[], T]) -> T:
        """The view named `key`, made by `make` the first time it is asked for and kept after.

        The readers of the corpus package (the API description, the event index) keep their
        result here, so a command computes each of them once however many checks ask.
        """
        cache = self._views
        if key not in cache:
            cache[key] = make()
        found: T = cache[key]
        return found

    @cached_property
    def _views(self) -> dict[tuple[str, ...], Any]:
        return {}

    # --- RFCs ----------------------------------------------------------------------------

    @cached_property
    def rfcs_by_number(self) -> dict[int, Rfc]:
        table: dict[int, Rfc] = {}
        for path in sorted(self.rfcs):
            rfc = self.rfcs[path]
            number = rfc.known_number
            if number is not None:
                table.setdefault(number, rfc)
        return table

    # --- files ---------------------------------------------------------------------------

    def inside(self, relative: str) -> bool:
        """Whether a corpus-relative path stays below the root when read as written (no `..` out, not absolute)."""
        return inside(relative)

    def exists(self, relative: str) -> bool:
        """Whether the repository has this file or folder, as listed when the corpus was loaded."""
        if not inside(relative):
            return False
        normal = posixpath.normpath(relative)
        return normal == "." or normal in self.files or normal in self.folders

    def glob(self, pattern: str) -> list[str]:
        """Listed files and folders matching a glob (`*`, `?`, `[...]` within a segment, `**` across them)."""
        return glob_paths(self.files | self.folders, pattern)

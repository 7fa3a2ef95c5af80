"""How `compat` reads the two sides: which schema files pair up, which definitions pair by shape
when renamed, and which role (client-sent, host-emitted, artifact) each definition takes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wopgen.compat import rules as R
from wopgen.compat.normalize import Loc, Resolver, fingerprint, root
from wopgen.corpus import SCHEMA_SUFFIX, Corpus
from wopgen.corpus.documents import JsonDoc
from wopgen.corpus.keywords import INSTANCE_DATA


def stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(SCHEMA_SUFFIX)


def def_tables(doc: JsonDoc) -> list[tuple[str, dict[str, Any]]]:
    """The definition tables of a schema file: `$defs` (2020-12) and `definitions` (draft-07)."""
    data = doc.data if isinstance(doc.data, dict) else {}
    return [(k, data[k]) for k in ("$defs", "definitions") if isinstance(data.get(k), dict)]


@dataclass(frozen=True)
class Plan:
    """How the two sides are read: which files pair up, and who sends what.

    `pairs` names the (base path, head path) files to compare when they are not paired by path or
    `$id` (two single schema files). `direction` is the role of a schema that declares none in
    `x-wop-direction`. `client_roots` and `server_roots` name definitions (`$defs` or
    `definitions` entries) that a client sends and a host emits: every definition reachable from
    them through `$ref`s takes that role (both: `artifact`), the rest keep their file's role.
    """

    pairs: tuple[tuple[str, str], ...] = ()
    direction: str = R.ARTIFACT
    client_roots: tuple[str, ...] = ()
    server_roots: tuple[str, ...] = ()


class PlanError(ValueError):
    """The plan names something neither side has (a usage error)."""


def defs_of(doc: JsonDoc) -> dict[str, tuple[str, Any]]:
    """Each definition of a schema file by name: (the table keyword, its schema)."""
    found: dict[str, tuple[str, Any]] = {}
    for keyword, table in def_tables(doc):
        for name, node in table.items():
            found.setdefault(name, (keyword, node))
    return found


def top_def(pointer: str) -> str | None:
    parts = pointer.split("/")
    if len(parts) >= 3 and parts[1] in ("$defs", "definitions"):
        return parts[2].replace("~1", "/").replace("~0", "~")
    return None


def reached(resolver: Resolver, roots: tuple[str, ...]) -> set[tuple[str, str]]:
    """(file, definition name) of every definition reachable through `$ref`s from the named roots."""
    todo: list[Loc] = []
    for _path, doc in sorted(resolver.corpus.schemas.items()):
        defs = defs_of(doc)
        for name in roots:
            if name in defs:
                todo.append(root(doc).child(defs[name][0], name))
    seen: set[tuple[str, str]] = set()
    reached: set[tuple[str, str]] = set()
    while todo:
        loc = todo.pop()
        if loc.key in seen:
            continue
        seen.add(loc.key)
        top = top_def(loc.pointer)
        if top is not None:
            reached.add((loc.doc.path, top))
        stack: list[Loc] = [loc]
        while stack:
            here = stack.pop()
            node = here.node
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str):
                    target = resolver.target(here, ref)
                    if target is not None and target.key not in seen:
                        todo.append(target)
                stack.extend(here.child(k) for k in node if k not in INSTANCE_DATA and isinstance(node[k], dict | list))
            elif isinstance(node, list):
                stack.extend(here.child(i) for i in range(len(node)) if isinstance(node[i], dict | list))
    return reached


class Roles:
    """The direction of each definition: from the roots that reach it, else from its file."""

    def __init__(self, base: Resolver, head: Resolver, plan: Plan) -> None:
        self.plan = plan
        self.client: set[tuple[str, str]] = set()
        self.server: set[tuple[str, str]] = set()
        if not (plan.client_roots or plan.server_roots):
            return  # no roots: every definition takes its file's direction
        known = {name for side in (base, head) for doc in side.corpus.schemas.values() for name in defs_of(doc)}
        missing = sorted(set(plan.client_roots + plan.server_roots) - known)
        if missing:
            raise PlanError(f"no definition named {', '.join(map(repr, missing))} on either side")
        self.client = reached(base, plan.client_roots) | reached(head, plan.client_roots)
        self.server = reached(base, plan.server_roots) | reached(head, plan.server_roots)

    def of_file(self, doc: JsonDoc) -> str:
        value = doc.data.get("x-wop-direction") if isinstance(doc.data, dict) else None
        return value if value in R.DIRECTIONS else self.plan.direction

    def of_def(self, bpath: str, hpath: str, name: str, file_direction: str) -> str:
        client = (bpath, name) in self.client or (hpath, name) in self.client
        server = (bpath, name) in self.server or (hpath, name) in self.server
        if client and server:
            return R.ARTIFACT
        if client:
            return R.CLIENT
        if server:
            return R.HOST
        return file_direction


def pair_files(base: Corpus, head: Corpus, plan: Plan) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """(base, head) file pairs by the plan, else by path, else by `$id`; then the files left on each side."""
    if plan.pairs:
        paired = list(plan.pairs)
    else:
        head_by_uri = {head.uri_of(p): p for p in head.schemas}
        paired = []
        for path in sorted(base.schemas):
            hpath = path if path in head.schemas else head_by_uri.get(base.uri_of(path))
            if hpath is not None:
                paired.append((path, hpath))
    removed = sorted(base.schemas.keys() - {b for b, _ in paired})
    added = sorted(head.schemas.keys() - {h for _, h in paired})
    return paired, removed, added


def same_shapes(
    removed: list[str], added: list[str], shape_of_base: Callable[[str], str], shape_of_head: Callable[[str], str]
) -> list[tuple[str, str]]:
    """Removed and added names with the same normalised shape, paired in name order."""
    waiting: dict[str, list[str]] = {}
    for name in added:
        waiting.setdefault(shape_of_head(name), []).append(name)
    found = []
    for name in removed:
        shape = shape_of_base(name)
        if shape in TRIVIAL_SHAPES:
            continue  # an empty schema has the shape of every other empty schema: no evidence of a rename
        candidates = waiting.get(shape)
        if candidates:
            found.append((name, candidates.pop(0)))
    return found


TRIVIAL_SHAPES = frozenset({fingerprint({}), fingerprint(True), fingerprint([fingerprint({}), []])})


def file_shape(resolver: Resolver, doc: JsonDoc) -> str:
    defs = sorted(resolver.fingerprint(root(doc).child(keyword, name)) for name, (keyword, _) in defs_of(doc).items())
    return fingerprint([resolver.fingerprint(root(doc)), defs])

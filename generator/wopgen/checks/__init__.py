"""The checks behind `wopgen check`: one module per concern, each `check(corpus) -> Iterator`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import chain
from typing import Protocol

from wopgen.checks import (
    api,
    changelog,
    conformance,
    docs,
    examples,
    front_matter,
    instances,
    invariants,
    prose_enums,
    rfc_records,
    rfcs,
    schema_defaults,
    schema_keywords,
    schemas,
    semantics,
    standard_api,
)
from wopgen.corpus import Corpus
from wopgen.corpus.model import gc_paused
from wopgen.diagnostics import Diagnostic, prefix


class FindingsCache(Protocol):
    """Where the CLI keeps the findings of the slow checks (`wopgen.cli.check_cache`): checks stay pure,
    the disk is the CLI's."""

    def findings(self, name: str, compute: Callable[[], Iterable[Diagnostic]]) -> list[Diagnostic]: ...


# Every check module (each declares the rules it finds; the catalogue lists them from here).
MODULES = (
    schemas,
    schema_defaults,
    schema_keywords,
    examples,
    instances,
    rfcs,
    rfc_records,
    docs,
    front_matter,
    prose_enums,
    changelog,
    invariants,
    api,
    standard_api,
    semantics,
    conformance,
)

Check = Callable[[Corpus], Iterable[Diagnostic]]
Families = tuple[str, ...]  # the rule-id prefixes a check can emit

# Each check with the rule families it emits, so a --select/--ignore that excludes all of them
# skips the check instead of running it (the API rendering and the conformance run are slow).
CHECKS: tuple[tuple[Families, Check], ...] = (
    (
        ("schema-",),
        lambda corpus: chain(schemas.check(corpus), schema_defaults.check(corpus), schema_keywords.check(corpus)),
    ),
    (("example-",), examples.check),
    (("instance-",), instances.check),
    (("rfc-",), lambda corpus: chain(rfcs.check(corpus), rfc_records.check(corpus))),
    (("doc-",), lambda corpus: chain(docs.check(corpus), front_matter.check(corpus), prose_enums.check(corpus))),
    (("changelog-",), changelog.check),
    (("invariant-",), invariants.check),
    (("api-",), api.check),
    (("semantic-",), semantics.check),
    (("conformance-", "host-"), conformance.check),  # last: it executes the spec against the generated host
)

# The checks whose findings a FindingsCache keeps (by module name): rendering the API documents and
# running the conformance suite are most of a check's time, and pure functions of the corpus.
CACHED = frozenset({"api", "conformance"})


def wanted(families: Families, include: tuple[str, ...] = (), exclude: tuple[str, ...] = ()) -> bool:
    """Whether a check that emits `families` (rule-id prefixes such as `schema-`) can report anything
    the selection keeps. Decided from the patterns alone: a family is wanted when an included pattern
    reaches into it (`schema`, `schema-defs-unused`) and no excluded pattern covers all of it."""

    def reached(family: str) -> bool:
        return not include or any(
            family.startswith(prefix(p)) or p.strip().startswith(family) for p in include if p.strip()
        )

    def covered(family: str) -> bool:
        return any(family.startswith(prefix(p)) for p in exclude if p.strip())

    return any(reached(f) and not covered(f) for f in families)


def run_all(
    corpus: Corpus,
    checks: Iterable[tuple[Families, Check]] | None = None,
    *,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    cache: FindingsCache | None = None,
) -> Iterator[Diagnostic]:
    """The load findings and those of every check (default: CHECKS). Given a selection (rule ids or prefixes, as for
    `wopgen check --select/--ignore`), checks none of whose rules it keeps are skipped; the caller
    still filters the findings with `diagnostics.select`. Given a `cache`, the CACHED checks reuse the
    findings stored for the same corpus and toolchain."""
    yield from corpus.load_diagnostics
    for families, check in CHECKS if checks is None else checks:
        if not wanted(families, include, exclude):
            continue
        name = check.__module__.rsplit(".", 1)[-1]
        if cache is not None and name in CACHED:
            yield from cache.findings(name, partial(check, corpus))
        elif name in CACHED:
            yield from check(corpus)
        else:
            # These checks build acyclic data (line indexes, views): the cycle collector's passes
            # over the whole corpus would find nothing to free. (The executable checks keep it.)
            with gc_paused():
                found = list(check(corpus))
            yield from found

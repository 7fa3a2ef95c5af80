"""The checks behind `wopgen check`: one module per concern, each `check(corpus) -> Iterator`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from wopgen.checks import api, changelog, conformance, docs, examples, invariants, rfcs, schemas, semantics
from wopgen.corpus import Corpus
from wopgen.diagnostics import Diagnostic

Check = Callable[[Corpus], Iterable[Diagnostic]]

CHECKS: tuple[Check, ...] = (
    schemas.check,
    examples.check,
    rfcs.check,
    docs.check,
    changelog.check,
    invariants.check,
    api.check,
    semantics.check,
    conformance.check,  # last: it executes the spec against the generated host
)


def run_all(corpus: Corpus, checks: Iterable[Check] = CHECKS) -> Iterator[Diagnostic]:
    yield from corpus.load_diagnostics
    for check in checks:
        yield from check(corpus)

"""What stops a generator: findings that leave the schemas unreadable or their `$ref`s unresolved."""

from __future__ import annotations

from wopgen.checks import schemas
from wopgen.corpus import Corpus
from wopgen.diagnostics import Diagnostic, Severity, matches

# Rule ids (or prefixes) whose errors make generated output meaningless. Other findings, such as
# an RFC number missing from the corpus, are `wopgen check`'s business and do not block.
BLOCKING_RULES = (
    "corpus-unreadable",
    "corpus-outside-root",
    "schema-invalid-json",
    "schema-metaschema",
    "schema-ref-unresolved",
    "schema-ref-external",
    "schema-ref-cycle",
    "schema-event-index",
)


def blocking(corpus: Corpus, also: tuple[str, ...] = ()) -> list[Diagnostic]:
    """The error findings of the loader and the schema checks that stop generation.

    `also` adds rule ids or prefixes a particular generator cannot do without.
    """
    rules = BLOCKING_RULES + also
    found = [*corpus.load_diagnostics, *schemas.check(corpus)]
    return [d for d in found if d.severity is Severity.ERROR and matches(d.rule, rules)]

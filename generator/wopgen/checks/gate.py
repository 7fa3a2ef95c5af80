"""What stops a generator: findings that leave the corpus unreadable, its schemas unusable or their
`$ref`s unresolved, (for the generators that read it) an API description that breaks its format, and
(for the site) page front matter the site would fail on or misread."""

from __future__ import annotations

from wopgen.checks import front_matter, schemas
from wopgen.corpus import Corpus
from wopgen.corpus.api import read_api
from wopgen.diagnostics import Diagnostic, Severity, matches

# Rule ids (or prefixes) whose errors make generated output meaningless. Other findings, such as
# an RFC number missing from the corpus, are `wopgen check`'s business and do not block.
BLOCKING_RULES = (
    "corpus-unreadable",
    "corpus-outside-root",
    "corpus-invalid-yaml",
    "corpus-missing",  # only its error form blocks: a part [tool.wopgen] names that is absent
    "schema-invalid-json",
    "schema-id-duplicate",
    "schema-metaschema",
    "schema-ref-unresolved",
    "schema-ref-external",
    "schema-ref-cycle",
    "schema-event-index",
)

# Added by the generators that render spec/api/ (`wopgen api`, `wopgen site`): without a readable
# API description they would silently leave its pages or documents out.
API_RULES = ("api-shape", "api-format")

# Added by the site (`wopgen site build` and `serve`): front matter that fails mkdocs or its theme, or
# that the site would show as text or drop, is refused with the page and line that hold it rather
# than met half-way through the build.
FRONT_MATTER_RULES = (
    front_matter.INVALID.id,
    front_matter.IMPLICIT.id,
    front_matter.TEMPLATE.id,
    front_matter.VALUE.id,
)


def blocking(corpus: Corpus, also: tuple[str, ...] = ()) -> list[Diagnostic]:
    """The error findings of the loader, the schema checks and the API reader that stop generation.

    `also` adds rule ids or prefixes a particular generator cannot do without (e.g. `API_RULES`).
    """
    rules = BLOCKING_RULES + also
    found = [*corpus.load_diagnostics, *schemas.check(corpus)]
    if matches("api-shape", also) or matches("api-format", also):
        found.extend(read_api(corpus).diagnostics)
    if any(matches(rule, also) for rule in FRONT_MATTER_RULES):
        found.extend(front_matter.check(corpus))
    return [d for d in found if d.severity is Severity.ERROR and matches(d.rule, rules)]

"""What stops a generator: findings that leave the corpus unreadable, its schemas unusable or their
`$ref`s unresolved, (for the generators that read it) an API description that breaks its format, and
(for the site) page front matter the site would fail on or misread."""

from __future__ import annotations

from wopgen.checks import front_matter, schemas
from wopgen.corpus import Corpus
from wopgen.corpus.api import read_api
from wopgen.corpus.keywords import CURRENT, draft_of
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


def blocking(corpus: Corpus, also: tuple[str, ...] = (), own_drafts: bool = False) -> list[Diagnostic]:
    """The error findings of the loader, the schema checks and the API reader that stop generation.

    `also` adds rule ids or prefixes a particular generator cannot do without (e.g. `API_RULES`). With
    `own_drafts` (a generator that reads each schema in the draft it declares: the models), a schema of
    another draft that its own draft's metaschema accepts is not stopped by what the 2020-12 one rejects
    in it (a draft-07 array `items`): that is the convention `check` reports, not a broken schema.
    """
    rules = BLOCKING_RULES + also
    found = [*corpus.load_diagnostics, *schemas.check(corpus)]
    if own_drafts:
        found = [d for d in found if not (d.rule == schemas.METASCHEMA.id and _in_own_draft(corpus, d.path))]
    if matches("api-shape", also) or matches("api-format", also):
        found.extend(read_api(corpus).diagnostics)
    if any(matches(rule, also) for rule in FRONT_MATTER_RULES):
        found.extend(front_matter.check(corpus))
    return [d for d in found if d.severity is Severity.ERROR and matches(d.rule, rules)]


def _in_own_draft(corpus: Corpus, path: str) -> bool:
    """Whether the schema at `path` declares a draft other than 2020-12 and that draft's metaschema accepts it."""
    doc = corpus.schemas.get(path)
    return doc is not None and draft_of(doc.data) is not CURRENT and corpus.resolvable(path)

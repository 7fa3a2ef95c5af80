"""Only valid schemas are compared: a side whose schema its metaschema rejects is refused, by name.

A keyword of the wrong type (`"required": 5`, `"minItems": 1e999`) has no meaning a validator
would give it, so a diff of it would be a guess. Each schema is checked against the metaschema
of the draft its `$schema` names (2020-12 when it names none or one no draft has), the same verdict
that admits it to the corpus registry (`Corpus.draft_errors`); for a 2020-12 schema it is the one
`check` reports.
"""

from __future__ import annotations

from wopgen.compat import rules as R
from wopgen.compat.change import Change, Side
from wopgen.corpus import Corpus
from wopgen.corpus.documents import pointer


def problem(corpus: Corpus, path: str) -> tuple[str, str] | None:
    """(JSON pointer, what is wrong) for a schema its metaschema rejects, else None."""
    data = corpus.schemas[path].data
    if not isinstance(data, dict | bool):
        return "", f"a schema is an object or a boolean, not {type(data).__name__}"
    errors = corpus.draft_errors(path)
    if errors is None:
        return "", "nested too deeply to check against its metaschema"
    if not errors:
        return None
    first = errors[0]
    where = pointer(first.absolute_path)
    return where, f"{where or '/'}: {first.message}"


def invalid_schemas(corpus: Corpus, label: str) -> list[Change]:
    """One `compat-schema-invalid` per schema of this side (`base` or `head`) its metaschema rejects."""
    found = []
    for path in sorted(corpus.schemas):
        wrong = problem(corpus, path)
        if wrong is None:
            continue
        where, what = wrong
        doc = corpus.schemas[path]
        place = Side(path, where, doc.line(where))
        message = f"the {label} schema {path} is not a valid JSON Schema ({what}); the comparison is refused"
        hint = "fix the schema so its metaschema accepts it (wopgen check names every problem), then compare again"
        base, head = (place, None) if label == "base" else (None, place)
        found.append(Change(R.SCHEMA_INVALID.id, R.SCHEMA_INVALID.severity, message, base, head, hint))
    return found

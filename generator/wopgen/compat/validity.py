"""Only valid schemas are compared: a side whose schema its metaschema rejects is refused, by name.

A keyword of the wrong type (`"required": 5`, `"minItems": 1e999`) has no meaning a validator
would give it, so a diff of it would be a guess. Each schema is checked against the metaschema
its `$schema` names (draft-07 through 2020-12; 2020-12 when it names none or one this library
does not know). The 2020-12 verdicts are the corpus's own, which `check` shares; for an older
draft `jsonschema-rs` answers first, since it is fast, and only a schema it does not accept is read
by `jsonschema`, whose verdict and message decide.
"""

from __future__ import annotations

import warnings
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.validators import validator_for

from wopgen.compat import rules as R
from wopgen.compat.change import Change, Side
from wopgen.corpus import Corpus
from wopgen.corpus.documents import pointer

_DIALECT = Draft202012Validator.META_SCHEMA["$id"]


def _metaschema_class(data: Any) -> Any:
    if not isinstance(data, dict) or data.get("$schema", _DIALECT) == _DIALECT:  # nearly every schema, told at once
        return Draft202012Validator
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # an unknown $schema: read as 2020-12
        return validator_for(data, default=Draft202012Validator)


def _quickly_valid(data: Any) -> bool:
    try:
        return bool(jsonschema_rs.meta.is_valid(data))
    except Exception:  # a value it cannot take (a huge integer, a float it refuses): ask jsonschema
        return False


def problem(corpus: Corpus, path: str) -> tuple[str, str] | None:
    """(JSON pointer, what is wrong) for a schema its metaschema rejects, else None."""
    data = corpus.schemas[path].data
    if not isinstance(data, dict | bool):
        return "", f"a schema is an object or a boolean, not {type(data).__name__}"
    cls = _metaschema_class(data)
    errors: tuple[ValidationError, ...] | None
    if cls is Draft202012Validator:
        errors = corpus.metaschema_errors(path)  # the corpus's own verdict, which `check` shares
    elif _quickly_valid(data):  # the draft the document declares, asked of the compiled engine
        return None
    else:
        try:
            errors = tuple(
                sorted(cls(cls.META_SCHEMA).iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
            )
        except RecursionError:
            errors = None
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

"""One JSON value validated against a corpus schema, the way every check that validates does it.

The compiled engine answers first (`Corpus.compiled_verdict`); only when it does not confirm what the
caller expects is the pure-Python `jsonschema` asked, for the errors that explain the failure (each
one's keyword and instance path, and so its line), or for why no verdict can be reached at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import referencing.exceptions
from jsonschema.exceptions import UnknownType, ValidationError, best_match

from wopgen.corpus import Corpus
from wopgen.corpus.documents import JsonDoc
from wopgen.corpus.regexes import BUDGET_SECONDS, PatternTimeout
from wopgen.diagnostics import Diagnostic, Rule

# The failures one value is reported with, each a finding of its own; any further ones are counted.
MAX_ERRORS = 20


@dataclass(frozen=True)
class Verdict:
    """What validating one value found.

    `confirmed`: the compiled engine agrees with what the caller expected, and nothing needs saying.
    Otherwise `errors` holds each failure `jsonschema` finds (none: the value validates), every one as
    its best explanation (`best_match`: into the branch of an `anyOf` or `oneOf` that came closest), up
    to MAX_ERRORS, with `more` counting the rest; unless `problem` says why no verdict could be reached
    (with `hint`; `slow_pattern` when a `pattern` ran past its time budget)."""

    confirmed: bool = False
    errors: tuple[ValidationError, ...] = ()
    more: int = 0
    problem: str = ""
    hint: str = ""
    slow_pattern: bool = False


def validate(
    corpus: Corpus, schema_path: str, pointer: str, instance: Any, *, expect_valid: bool, noun: str
) -> Verdict:
    """Validate `instance` against the schema at `schema_path` (or its subschema at `pointer`). `noun`
    names what the value is in a message (`example`, `instance`)."""
    if corpus.compiled_verdict(schema_path, pointer, instance) is expect_valid:
        return Verdict(confirmed=True)
    validator = corpus.validator(schema_path, pointer)
    try:
        found = list(validator.iter_errors(instance))
        return Verdict(errors=tuple(best_match([e]) for e in found[:MAX_ERRORS]), more=max(0, len(found) - MAX_ERRORS))
    except PatternTimeout as exc:
        return Verdict(
            problem=f"the pattern {exc.pattern!r} of {schema_path} ran past {BUDGET_SECONDS:g} s on the string "
            f"{exc.text[:60]!r} of this {noun}",
            hint="rewrite the pattern without nested or overlapping repetition (or without look-around and "
            "back-references, so it runs in linear time)",
            slow_pattern=True,
        )
    except referencing.exceptions.Unresolvable as exc:
        return Verdict(
            problem=f"schema {schema_path} has an unresolvable $ref: {exc}", hint="fix the schema-ref-* findings first"
        )
    except (UnknownType, re.error, TypeError, ValueError, AttributeError) as exc:
        return Verdict(
            problem=f"schema {schema_path} cannot be evaluated: {str(exc).splitlines()[0][:160]}",
            hint="fix the schema-metaschema findings first",
        )
    except RecursionError:
        return Verdict(
            problem=f"validation against {schema_path} never ends (a $ref cycle or extreme nesting)",
            hint="fix the schema-ref-cycle findings first",
        )


def describe(error: ValidationError, prefix: list[str | int]) -> tuple[list[str | int], str]:
    """Where an error is (its instance path below `prefix`) and how a finding words it."""
    where = [*prefix, *error.absolute_path]
    path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in where)
    return where, f"`{error.validator}` at {path}: {error.message[:240]}"


def failures(
    verdict: Verdict, rule: Rule, path: str, doc: JsonDoc, prefix: list[str | int], message: str, hint: str
) -> Iterator[Diagnostic]:
    """A `rule` finding in the file `path` (read as `doc`) at each error of `verdict`, located below
    `prefix` and worded `message` followed by the error (`describe`); the last one says how many
    more there are, if any."""
    for index, error in enumerate(verdict.errors, start=1):
        where, text = describe(error, prefix)
        if index == len(verdict.errors) and verdict.more:
            text += f" ({verdict.more} more failure{'s' if verdict.more > 1 else ''} of this value not reported)"
        line, col = doc.locate(where)
        yield rule.at(path, line, f"{message}{text}", hint, col=col)

"""Schema `pattern`s evaluated as ECMA-262 reads them, in bounded time.

A pattern is searched by the compiled engine first, so both engines read it alike: ECMA-262's `\\d`,
`\\w` and `\\s` are narrower or other than Python's (`\\d` takes no Arabic-Indic digit, `\\s` takes a
byte-order mark), and its `$` does not match before a final newline. Where the compiled engine
refuses a pattern or gives up on a search (its backtracking limit), the pure-Python path below decides.

Python's `re` backtracks, so a pattern such as `^(a+)+$` against a long almost-matching string
runs for hours. Patterns are compiled with google-re2 (linear time) where RE2 accepts them; the
few it refuses (back-references, look-around) go to the `regex` module, whose searches take a
timeout. A search past the budget raises `PatternTimeout`, which the checks turn into a finding.

`BOUNDED` holds, for each draft `jsonschema` knows, its validator with the three keywords that
search a pattern (`pattern`, `patternProperties`, and `additionalProperties`, which asks whether a
key matches one) routed through here; `BoundedValidator` is the one of 2020-12.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import attrs
import jsonschema_rs
import re2  # type: ignore[import-untyped]
import regex
from jsonschema import Draft3Validator, Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from wopgen.corpus.keywords import DIALECT
from wopgen.corpus.validation import BACKTRACK_LIMIT, COMPILED_DRAFTS, draft

BUDGET_SECONDS = 1.0


class PatternTimeout(Exception):
    """A pattern took longer than the budget on one string."""

    def __init__(self, pattern: str, text: str) -> None:
        super().__init__(f"pattern {pattern!r} ran past {BUDGET_SECONDS:g} s on {text[:60]!r}")
        self.pattern = pattern
        self.text = text


_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False  # a pattern RE2 refuses goes to `regex`; nothing to print


@lru_cache(maxsize=4096)
def _compiled(pattern: str) -> Any:
    """RE2 where it accepts the pattern, else `regex`; re.error when neither does (as `re` would)."""
    try:
        return re2.compile(pattern, _RE2_OPTIONS)
    except re2.error:
        pass
    try:
        return regex.compile(pattern)
    except regex.error as exc:
        raise re.error(f"invalid pattern {pattern!r}: {exc}") from None


@lru_cache(maxsize=4096)
def _ecma(pattern: str) -> Any:
    """The compiled engine's validator of `{"pattern": pattern}`; None where it refuses the pattern."""
    try:
        return jsonschema_rs.validator_for(
            {"$schema": DIALECT, "pattern": pattern},
            pattern_options=jsonschema_rs.FancyRegexOptions(backtrack_limit=BACKTRACK_LIMIT),
        )
    except (jsonschema_rs.ValidationError, ValueError):
        return None


def _ecma_search(pattern: str, text: str) -> bool | None:
    """Whether `pattern` matches somewhere in `text` as the compiled engine reads it; None where it cannot tell."""
    judge = _ecma(pattern)
    if judge is None:
        return None
    try:
        if judge.is_valid(text):
            return True
        if any(error.message.startswith("Error executing regex") for error in judge.iter_errors(text)):
            return None  # past its backtracking limit
    except (jsonschema_rs.ValidationError, ValueError):
        return None
    return False


def search(pattern: str, text: str) -> bool:
    """Whether `pattern` matches somewhere in `text`; PatternTimeout past the budget."""
    found = _ecma_search(pattern, text)
    if found is not None:
        return found
    compiled = _compiled(pattern)
    if isinstance(compiled, regex.Pattern):
        try:
            return compiled.search(text, timeout=BUDGET_SECONDS) is not None
        except TimeoutError:
            raise PatternTimeout(pattern, text) from None
    return compiled.search(text) is not None


@lru_cache(maxsize=64)
def _as_re(pattern: str) -> Any:
    return regex.compile(pattern, flags=regex.VERSION0)  # VERSION0: the pattern is read as `re` reads it


def bounded_match(pattern: str, text: str) -> Any:
    """`re.match(pattern, text)` for a pattern a user configured (a match object or None), with the
    `regex` module, which reads it as `re` does but stops: PatternTimeout past the budget."""
    try:
        return _as_re(pattern).match(text, timeout=BUDGET_SECONDS)
    except TimeoutError:
        raise PatternTimeout(pattern, text) from None


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, table: dict[str, Any], instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in table.items():
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    named = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    left = sorted(
        (key for key in instance if key not in named and not any(search(p, key) for p in patterns)),
        key=str,
    )
    if validator.is_type(extra, "object"):
        for key in left:
            yield from validator.descend(instance[key], extra, path=key)
    elif extra is False and left:
        listed = ", ".join(repr(key) for key in left)
        if patterns:
            yield ValidationError(f"{listed} match none of the patterns {', '.join(map(repr, sorted(patterns)))}")
        else:
            verb = "was" if len(left) == 1 else "were"
            yield ValidationError(f"Additional properties are not allowed ({listed} {verb} unexpected)")


_PATTERN_KEYWORDS = {
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
}
BOUNDED: dict[Any, Any] = {
    cls: validators.extend(cls, _PATTERN_KEYWORDS)  # type: ignore[no-untyped-call]
    for cls in (Draft3Validator, *COMPILED_DRAFTS)
}
BoundedValidator: Any = BOUNDED[Draft202012Validator]


def _bounded_evolve(self: Any, **changes: Any) -> Any:
    """jsonschema's `evolve` picks the class a subschema's `$schema` names, which would drop back to an
    unbounded validator at every `$ref` into another file; take the bounded validator of the draft it
    names instead, and stay in this one when it names none."""
    schema = changes.get("schema", self.schema)
    if not isinstance(schema, dict) or "$schema" not in schema:
        return attrs.evolve(self, **changes)
    cls = BOUNDED.get(draft(schema), type(self))
    kept = {field.alias: getattr(self, field.name) for field in attrs.fields(type(self)) if field.init}
    return cls(**{**kept, **changes})


for _cls in BOUNDED.values():
    _cls.evolve = _bounded_evolve

"""What a generated model does not check of a string's `format` as the corpus validator does: a format
the model's string leaves unchecked, and the string keywords the library drops beside a format it types
as a datetime, an address or a URL. Each finding cites a value that shows the disagreement, so none is
guessed (see `models_inexact`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from wopgen.compat.cover import types
from wopgen.corpus import regexes
from wopgen.corpus.validation import ASSERTED_FORMATS, FORMAT_CHECKER

# The asserted formats the models leave a strict string, each for its reason: pydantic's EmailStr needs the
# optional email-validator package, which a user of the models may not have (the package would not import);
# the library types `idn-hostname` and `regex` as plain strings anyway.
STRING_FORMATS = frozenset({"email", "idn-email", "idn-hostname", "regex"})
# The formats the models give a Python type (a datetime, an address, a UUID), as the README lists them: the
# formats the corpus validator asserts (`wopgen check`), less those left strings. Never one it does not
# assert: that `format` is an annotation, and a type would refuse values the schema takes (`uri` as AnyUrl
# refused "a/b", `duration` as a timedelta refused "nonsense").
TYPED_FORMATS = ASSERTED_FORMATS - STRING_FORMATS

# The typed formats, which keep none of the string keywords beside them; each with values of it the
# model's type takes.
FORMAT_SAMPLES = {
    name: samples
    for name, samples in {
        "date-time": ("2026-06-01T10:00:00Z", "1999-12-31t23:59:59.123456+02:00"),
        "date": ("2026-06-01", "1999-12-31"),
        "time": ("10:00:00Z", "23:59:59.5+01:00"),
        "ipv4": ("192.0.2.1", "10.0.0.255"),
        "ipv6": ("::1", "2001:db8::8a2e:370:7334"),
        "uuid": ("12345678-1234-5678-1234-567812345678", "ABCDEF01-2345-6789-ABCD-EF0123456789"),
    }.items()
    if name in TYPED_FORMATS
}


def typed_format(node: dict[str, Any]) -> bool:
    """Whether the model types the `format` of `node` as a Python type: one of TYPED_FORMATS on a schema
    whose `type` names strings (and perhaps null) alone, or names none. The library applies a format to
    whichever type is named: `{"type": "integer", "format": "date-time"}` refused 5, which the schema
    takes (a format binds strings alone). Where no type is named it drops the format (`models_inexact`
    says so)."""
    if node.get("format") not in TYPED_FORMATS:
        return False
    kinds = node.get("type", "string")
    named = {kinds} if isinstance(kinds, str) else set(kinds) if isinstance(kinds, list) else set()
    return named - {"null"} == {"string"}


# Formats the corpus validator checks, each with a string it refuses: where the model does not type the
# format (`typed_format`), its string takes that value.
_UNCHECKED_FORMATS = {
    name: value
    for name, value in {
        **{"email": "nope", "idn-email": "nope", "regex": "(", "idn-hostname": "-a"},
        **{name: "nope" for name in ("date-time", "date", "time", "ipv4", "ipv6", "uuid")},
    }.items()
    if name in ASSERTED_FORMATS and not FORMAT_CHECKER.conforms(value, name)
}


def format_findings(node: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(keyword, message, hint) for what the model of the string schema `node` does not check of its format."""
    unchecked = None if typed_format(node) else _UNCHECKED_FORMATS.get(node.get("format"))  # type: ignore[arg-type]
    kinds = types(node)
    if unchecked is not None and kinds is not None and "string" in kinds:
        yield (
            "format",
            f"the model does not check `format` (`{node['format']}`): it takes {json.dumps(unchecked)}, which the "
            "corpus validator refuses",
            "check the format in the code that reads the model",
        )
    witness = _format_witness(node)
    if witness is not None:
        keyword, value = witness
        yield (
            keyword,
            f"the model types `format: {node['format']}` as its Python type and drops `{keyword}` beside it: it "
            f"takes {json.dumps(value)}, which `{keyword}` refuses",
            "check the text in the code that reads the model, or give the constraint to a string without the format",
        )


def _format_witness(node: dict[str, Any]) -> tuple[str, str] | None:
    """A value of `node`'s format that the model's type takes and a string keyword beside the format
    (`minLength`, `maxLength`, `pattern`, which the library drops there) refuses, with that keyword:
    the disagreement shown, never guessed (a pattern that every value of the format matches draws none)."""
    samples = FORMAT_SAMPLES.get(node.get("format"))  # type: ignore[arg-type]
    if samples is None:
        return None
    for value in samples:
        if isinstance(node.get("minLength"), int) and len(value) < node["minLength"]:
            return "minLength", value
        if isinstance(node.get("maxLength"), int) and len(value) > node["maxLength"]:
            return "maxLength", value
        pattern = node.get("pattern")
        try:
            if isinstance(pattern, str) and not regexes.search(pattern, value):
                return "pattern", value
        except (re.error, regexes.PatternTimeout):
            continue
    return None

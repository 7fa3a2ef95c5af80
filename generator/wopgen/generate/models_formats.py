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

# The formats the library types as something other than a string (a datetime, an address, a URL...),
# which keeps none of the string keywords beside them; each with values of it the model's type takes.
FORMAT_SAMPLES = {
    "date-time": ("2026-06-01T10:00:00Z", "1999-12-31t23:59:59.123456+02:00"),
    "date": ("2026-06-01", "1999-12-31"),
    "time": ("10:00:00Z", "23:59:59.5+01:00"),
    "duration": ("P1D", "PT1H30M", "P1Y2M3DT4H5M6S"),
    "ipv4": ("192.0.2.1", "10.0.0.255"),
    "ipv6": ("::1", "2001:db8::8a2e:370:7334"),
    "uuid": ("12345678-1234-5678-1234-567812345678", "ABCDEF01-2345-6789-ABCD-EF0123456789"),
    "uri": ("https://a.example/x", "http://a.example", "ftp://a.example/b?c=d#e"),
}


# Formats the corpus validator checks and the model's string does not, each with a value that shows it.
_UNCHECKED_FORMATS = {
    name: value
    for name, value in {"email": "nope", "idn-email": "nope", "regex": "(", "idn-hostname": "-a"}.items()
    if name in ASSERTED_FORMATS and not FORMAT_CHECKER.conforms(value, name)
}


def format_findings(node: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(keyword, message, hint) for what the model of the string schema `node` does not check of its format."""
    unchecked = _UNCHECKED_FORMATS.get(node.get("format"))  # type: ignore[arg-type]
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

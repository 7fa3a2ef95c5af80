"""Both engines read `format` and `pattern` alike, and alike on every machine.

jsonschema asserts a format as soon as a package that checks it can be imported (isoduration for
`duration`, fqdn for `hostname`, rfc3987 for `uri`...). Read from its FORMAT_CHECKER, the same corpus
passed on one machine and failed on another; and its own checkers, and Python's reading of a
pattern, took values the compiled engine refuses, so which engine was asked decided the verdict.
Both engines now assert ASSERTED_FORMATS alone, as the compiled engine reads them, and search a
pattern as ECMA-262 reads it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support.corpus_factory import good_files, write
from wopgen.corpus.regexes import BoundedValidator
from wopgen.corpus.validation import (
    ANNOTATION_ONLY,
    ASSERTED_FORMATS,
    COMPILED_FORMATS,
    FORMAT_CHECKER,
    CompiledSchemas,
)

INTENDED = {"date", "date-time", "email", "idn-email", "idn-hostname", "ipv4", "ipv6", "regex", "time", "uuid"}

# Per format: a value of it, then values that are not (for the formats asserted, refused by both engines).
SAMPLES: dict[str, tuple[str, ...]] = {
    "date": ("2026-06-01", "2026-13-01", "June 1st"),
    "date-time": ("2026-06-01T10:00:00Z", "2026-06-01 10:00", "soon", "2026-06-01T10:00:00Z\n"),
    "time": ("10:00:00Z", "25:00:00Z", "ten"),
    "email": ("a@example.com", "nope", "a..b@example.com", ".a@example.com", "a@", "a b@example.com"),
    "idn-email": ("a@example.com", "nope"),
    "idn-hostname": ("example.com", "-a", "example."),
    "ipv4": ("192.0.2.1", "192.0.2", "999.0.0.1"),
    "ipv6": ("::1", "1:::2", "x"),
    "regex": ("^a+$", "(", "(?P<n>x)", "(?#note)a"),
    "uuid": ("12345678-1234-5678-1234-567812345678", "1234", "12345678-1234-5678-1234-567812345678-"),
    "duration": ("P1D", "soon"),
    "hostname": ("a.example", "-a-", "a b"),
    "uri": ("https://a.example/x", "see the docs"),
    "uri-reference": ("a/b", "a b\\c"),
    "iri": ("https://a.example", "no iri"),
    "json-pointer": ("/a/b", "a/b"),
    "relative-json-pointer": ("0/a", "/a"),
    "uri-template": ("/a/{b}", "/a/{b"),
}


def test_the_asserted_formats_are_the_intended_ones() -> None:
    assert ASSERTED_FORMATS == INTENDED
    assert set(FORMAT_CHECKER.checkers) == INTENDED
    assert set(ANNOTATION_ONLY) == COMPILED_FORMATS - INTENDED
    assert set(SAMPLES) == COMPILED_FORMATS - {"iri-reference"}


def _verdicts(schema: dict[str, Any], value: Any) -> tuple[bool | None, bool]:
    """What the compiled engine and the explaining engine, as wopgen builds them, say of `value`."""
    uri = "https://example.test/s.json"
    explaining = BoundedValidator(schema, format_checker=FORMAT_CHECKER)
    return CompiledSchemas([(uri, schema)]).is_valid(uri, value), explaining.is_valid(value)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_both_engines_assert_exactly_the_asserted_formats(name: str) -> None:
    schema: dict[str, Any] = {"type": "string", "format": name}
    good, *bad = SAMPLES[name]
    assert _verdicts(schema, good) == (True, True)
    for value in bad:
        compiled, explaining = _verdicts(schema, value)
        assert compiled == explaining, value
        assert compiled is (name not in ASSERTED_FORMATS), value


# Per pattern, strings ECMA-262 does not match and Python's `re` does.
ECMA_ONLY = {
    r"^\d+$": ("\u0661\u0662",),  # Arabic-Indic digits: not ECMA's \d
    r"^\S+$": ("a\ufeffb",),  # a byte-order mark is ECMA whitespace
    r"^a$": ("a\n",),  # ECMA's $ does not match before a final newline
}


@pytest.mark.parametrize("pattern", sorted(ECMA_ONLY))
def test_both_engines_search_a_pattern_as_ecma_262_reads_it(pattern: str) -> None:
    for value in ECMA_ONLY[pattern]:
        assert _verdicts({"type": "string", "pattern": pattern}, value) == (False, False), value
        assert re.search(pattern, value), value  # so the explaining engine no longer reads it as Python does


# Gives jsonschema a checker, refusing every value, for formats wopgen leaves as annotations: what
# installing isoduration, fqdn or rfc3987 does on a user's machine.
_MORE_CHECKERS = """\
from jsonschema import Draft202012Validator

for _name in ("duration", "hostname", "uri"):
    Draft202012Validator.FORMAT_CHECKER.checks(_name)(lambda value: False)
"""


def _corpus(tmp_path: Path, example: dict[str, Any]) -> Path:
    files = good_files()
    thing = files["schemas/thing.schema.json"]
    thing["properties"].update(
        {
            "within": {"type": "string", "format": "duration"},
            "server": {"type": "string", "format": "hostname"},
            "link": {"type": "string", "format": "uri"},
            "at": {"type": "string", "format": "date-time"},
        }
    )
    files["schemas/examples/thing/valid/named.json"] = {"name": "x", **example}
    return write(tmp_path / "corpus", files)


def _check(root: Path) -> tuple[str, ...]:
    return ("-m", "wopgen", "--root", str(root), "check", "--no-cache", "--select", "example-")


def _run(extra: Path | None, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if extra is not None:
        env["PYTHONPATH"] = str(extra)  # its sitecustomize runs before wopgen is imported
    return subprocess.run(
        [sys.executable, *arguments],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )


def test_check_gives_one_verdict_whatever_else_is_installed(tmp_path: Path) -> None:
    extra = tmp_path / "site"
    extra.mkdir()
    (extra / "sitecustomize.py").write_text(_MORE_CHECKERS, encoding="utf-8")
    asked = "from jsonschema import Draft202012Validator as D; print(D.FORMAT_CHECKER.conforms('P1D', 'duration'))"
    assert _run(extra, "-c", asked).stdout.strip() == "False"  # jsonschema on that machine asserts `duration`
    annotated = _corpus(tmp_path / "a", {"within": "soon", "server": "a b", "link": "see the docs"})
    for machine in (None, extra):
        done = _run(machine, *_check(annotated))
        assert done.returncode == 0, done.stdout + done.stderr
    # An asserted format is refused on both machines.
    broken = _corpus(tmp_path / "b", {"at": "tomorrow"})
    for machine in (None, extra):
        done = _run(machine, *_check(broken))
        assert done.returncode == 1 and "is not a 'date-time'" in done.stdout, done.stdout + done.stderr

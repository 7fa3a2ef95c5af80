"""Validation runs in bounded time: catastrophic patterns, huge enums and deep nesting."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.api_corpus import api_files
from support.corpus_factory import write
from support.helpers import diagnose, hits
from wopgen.corpus.regexes import BoundedValidator, search

THING = "schemas/thing.schema.json"


def with_pattern(pattern: str, value: str) -> Callable[[dict[str, Any]], None]:
    def edit(files: dict[str, Any]) -> None:
        files[THING]["properties"]["code"] = {"type": "string", "pattern": pattern}
        for path in [p for p in files if p.startswith("schemas/examples/thing/valid/")]:
            files[path]["code"] = value

    return edit


def test_a_backtracking_pattern_runs_in_linear_time(make_corpus: Callable[..., Path]) -> None:
    started = time.perf_counter()
    found = diagnose(make_corpus(with_pattern("^(a+)+$", "a" * 5000 + "!")))
    assert time.perf_counter() - started < 30
    assert [path for path, _ in hits(found, "example-valid-fails")]  # judged, not hung


def test_a_pattern_past_the_budget_is_a_finding_naming_pattern_and_example(make_corpus: Callable[..., Path]) -> None:
    # The compiled engine gives up on it (its backtracking limit), RE2 refuses the look-ahead, and `regex`
    # runs it under a timeout.
    pattern = "^(a|aa)+(?=!)!$"
    found = diagnose(make_corpus(with_pattern(pattern, "a" * 40 + "?")))
    slow = [d for d in found if d.rule == "example-pattern-too-slow"]
    assert slow and all(d.path.startswith("schemas/examples/thing/valid/") for d in slow)
    assert pattern in slow[0].message and "aaaa" in slow[0].message
    assert not hits(diagnose(make_corpus(with_pattern(pattern, "aaaa!"))), "example-pattern-too-slow")


def test_a_pattern_the_compiled_engine_decides_needs_no_budget(make_corpus: Callable[..., Path]) -> None:
    """A look-ahead pattern `regex` would run past its budget on this string is answered by the compiled
    engine: the example does not match, which is a finding about the example, not about the pattern."""
    found = diagnose(make_corpus(with_pattern("^(?=x?)(a|aa)+$", "a" * 40 + "!")))
    assert not hits(found, "example-pattern-too-slow")
    assert [m for d in found if d.rule == "example-valid-fails" for m in [d.message] if "`pattern`" in m]


def test_bounded_validator_keeps_pattern_semantics() -> None:
    schema = {
        "type": "object",
        "properties": {"id": {"type": "string", "pattern": "^[a-z]+-[0-9]+$"}},
        "patternProperties": {"^x-": {"type": "integer"}},
        "additionalProperties": False,
    }
    validator = BoundedValidator(schema)
    assert not list(validator.iter_errors({"id": "run-1", "x-n": 1}))
    assert len(list(validator.iter_errors({"id": "Run", "x-n": "one", "other": 1}))) == 3
    assert search(r"(a)\1", "xaa") and not search(r"(a)\1", "xa")  # back-references still work


def _subprocess_check(root: Path, *command: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wopgen", "--root", str(root), *command],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.mark.parametrize("depth", [600, 950])
def test_deep_nesting_is_never_a_traceback(tmp_path: Path, depth: int) -> None:
    root = write(tmp_path / "c", api_files())
    deep = '{"type": "object", "properties": {"n": ' * depth + '{"type": "string"}' + "}}" * depth
    for path in (root / "schemas").glob("*.schema.json"):  # whichever the API bundles
        path.write_text(path.read_text().replace('"properties": {', '"properties": {"deep": ' + deep + ", ", 1))
    for command in (["check"], ["api", "--out", str(tmp_path / "api")], ["models", "--out", str(tmp_path / "m")]):
        result = _subprocess_check(root, *command)
        assert result.returncode in (0, 1, 2), (command, result.stderr[-2000:])
        assert "Traceback" not in result.stderr + result.stdout, command


def test_a_ten_thousand_value_enum_is_bounded(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    def edit(files: dict[str, Any]) -> None:
        files["schemas/decision.schema.json"]["enum"] = [f"v{n}" for n in range(10_000)]
        for path in [p for p in files if p.startswith("schemas/examples/decision/valid/")]:
            files[path] = "v1"

    root = make_corpus(edit)
    started = time.perf_counter()
    result = _subprocess_check(root, "models", "--out", str(tmp_path / "m"), timeout=60)
    assert time.perf_counter() - started < 60
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    if result.returncode == 0:
        assert json.dumps("v9999")[1:-1] in (tmp_path / "m/wop_models/decision_schema.py").read_text()


def test_a_document_too_deep_for_the_yaml_writer_is_an_api_error() -> None:
    from wopgen.generate.api import ApiError, dump

    deep: dict[str, Any] = {}
    node = deep
    for _ in range(3000):
        node["n"] = {}
        node = node["n"]
    with pytest.raises(ApiError, match="nested too deeply"):
        dump(deep)

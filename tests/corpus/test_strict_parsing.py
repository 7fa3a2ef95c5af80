"""JSON and YAML are read strictly: repeated keys are findings, odd YAML never raises."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.api_corpus import api_files
from support.corpus_factory import write
from support.helpers import hits
from wopgen.cli import cli
from wopgen.corpus import load
from wopgen.corpus.documents import ParseError as YamlLoadError
from wopgen.corpus.documents import parse_json, parse_yaml, yaml_too_deep

OPS = "spec/api/operations.yaml"


def test_a_json_key_written_twice_is_found_at_its_second_line() -> None:
    text = '{\n  "required": ["a"],\n  "type": "object",\n  "nested": {"x": 1, "x": 2},\n  "required": ["b"]\n}\n'
    doc = parse_json("s.json", text.encode())
    assert [(d.key, d.line, d.first_line) for d in doc.duplicates] == [("x", 4, 4), ("required", 5, 2)]
    assert doc.data["required"] == ["b"]
    assert parse_json("ok.json", b'{"a": {"b": 1}, "b": [{"a": 1}, {"a": 2}]}').duplicates == []


def test_a_duplicate_key_in_a_schema_is_a_finding(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    path = root / "schemas/thing.schema.json"
    text = path.read_text()
    path.write_text(text.replace('"title"', '"description": "first",\n  "title"', 1))
    lines = path.read_text().splitlines()
    line = next(n for n, x in enumerate(lines, 1) if x.strip().startswith('"description": "The'))
    assert hits(load(root).load_diagnostics, "corpus-duplicate-key") == [("schemas/thing.schema.json", line)]
    assert hits(load(make_corpus()).load_diagnostics, "corpus-duplicate-key") == []


def test_a_duplicate_key_in_operations_yaml_is_a_finding(tmp_path: Path) -> None:
    files = api_files()
    lines = files[OPS].splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("    auth:"))
    lines.insert(at + 1, lines[at])
    files[OPS] = "\n".join(lines) + "\n"
    root = write(tmp_path / "c", files)
    assert hits(load(root).load_diagnostics, "corpus-duplicate-key") == [(OPS, at + 2)]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("x-reviewed: 2026-13-45\nok: 1\n", None),  # a date that does not exist stays a string
        ("n: " + "9" * 5000 + "\n", 1),
        ("a: 1\nn: !!int abc\n", 2),
        ("a: !!float nope\n", 1),
        ("? [a, b]\n: 1\n", 1),
        ("? {a: 1}\n: 1\n", 1),
        ("a: !!python/object:os.system x\n", 1),
        ("a: !custom 1\n", 1),
        ("a: &x [*x]\n", 1),
    ],
)
def test_odd_yaml_is_a_parse_error_with_a_line_never_an_exception(text: str, line: int | None) -> None:
    if line is None:
        assert parse_yaml("a.yaml", text).data["x-reviewed"] == "2026-13-45"
        return
    with pytest.raises(YamlLoadError) as caught:
        parse_yaml("a.yaml", text)
    assert caught.value.line == line


def test_dates_are_kept_as_written() -> None:
    assert parse_yaml("a.yaml", "d: 2026-05-01\n").data == {"d": "2026-05-01"}


def test_a_billion_laughs_document_is_refused_quickly() -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for n in range(1, 10):
        lines.append(f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]")
    started = time.perf_counter()
    with pytest.raises(YamlLoadError, match="aliases"):
        parse_yaml("bomb.yaml", "\n".join(lines) + "\n")
    assert time.perf_counter() - started < 0.5
    assert parse_yaml("ok.yaml", "a: &a [1, 2]\nb: *a\nc: *a\n").data["c"] == [1, 2]


def _settings_root(tmp_path: Path, value: str) -> Path:
    root = tmp_path / "c"
    root.mkdir()
    (root / "pyproject.toml").write_text(f'[tool.wopgen]\nschemas = "{value}"\n')
    return root


def test_a_nul_byte_in_a_setting_is_a_config_error(tmp_path: Path) -> None:
    root = _settings_root(tmp_path, "sch\\u0000emas")
    result = CliRunner().invoke(cli, ["--root", str(root), "check"])
    assert result.exit_code == 2 and "NUL" in result.output


def test_a_symlink_loop_on_a_named_part_is_a_config_error(tmp_path: Path) -> None:
    root = _settings_root(tmp_path, "loop")
    os.symlink("loop2", root / "loop")
    os.symlink("loop", root / "loop2")
    result = CliRunner().invoke(cli, ["--root", str(root), "check"])
    assert result.exit_code == 2 and "loop" in result.output


@pytest.mark.parametrize("given", ["pyproject", "config"])
def test_settings_nested_too_deeply_are_a_config_error(tmp_path: Path, given: str) -> None:
    root = tmp_path / "c"
    root.mkdir()
    settings = root / "pyproject.toml" if given == "pyproject" else tmp_path / "other.toml"
    settings.write_text("[tool.wopgen]\nx = " + "[" * 100_000 + "]" * 100_000 + "\n")
    config = ["--config", str(settings)] if given == "config" else []
    result = CliRunner().invoke(cli, [*config, "--root", str(root), "check"])
    assert result.exit_code == 2, result.output
    assert f"{settings}: cannot read settings: values nested too deeply" in result.output


def test_rfc_new_without_a_passwd_entry(make_corpus: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    import getpass

    def no_user() -> Any:
        raise KeyError("getpwuid(): uid not found: 12345")

    monkeypatch.setattr(getpass, "getuser", no_user)
    root = make_corpus()
    result = CliRunner().invoke(cli, ["--root", str(root), "rfc", "new", "A title"])
    assert result.exit_code == 0, result.output
    written = root / result.output.strip()
    assert "pass --author" in written.read_text()


def test_a_nul_byte_in_yaml_is_a_parse_error_at_its_line() -> None:
    with pytest.raises(YamlLoadError) as caught:
        parse_yaml("a.yaml", "a: 1\nb: \x00\n")
    assert caught.value.line == 2


# Run in a process of their own: without the guard, libyaml's recursion in C kills the process.
_DEEP = """
import sys
from wopgen.corpus.documents import ParseError, parse_yaml
from wopgen.corpus.front_matter import read_front_matter
text = "x: " + "[" * 50000 + "]" * 50000 + "\\n"
try:
    parse_yaml("deep.yaml", text)
except ParseError as exc:
    print("yaml", exc.line, exc.col, exc)
found = read_front_matter("---\\n" + text + "---\\n# Title\\n")
print("front", found.line, found.col, found.problem)
"""


def test_yaml_nested_deeper_than_libyaml_can_build_is_refused_not_fatal() -> None:
    done = subprocess.run([sys.executable, "-c", _DEEP], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == [
        "yaml 1 10003 YAML nested more than 10,000 levels deep; flatten the structure",
        "front 2 10003 nests more than 10,000 levels deep",
    ]


def test_many_brackets_that_do_not_nest_deep_are_read() -> None:
    flat = parse_yaml("flat.yaml", "x: [" + ", ".join(["[1]"] * 6000) + "]\n")
    assert len(flat.data["x"]) == 6000
    assert yaml_too_deep("x: " + "[" * 9999 + "]" * 9999) is None  # the mapping and 9,999 lists: at the limit
    assert yaml_too_deep("x: " + "[" * 10000 + "]" * 10000) == (1, 10003)
    assert yaml_too_deep("- " * 10000 + "a\n") is None
    assert yaml_too_deep("- " * 10001 + "a\n") == (1, 20001)  # block sequences nest too

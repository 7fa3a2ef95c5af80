"""What compat reads: no empty base, refs streamed to disk, links out of a ref's tree, schemas the
metaschema rejects, and numbers no bound comparison expected."""

from __future__ import annotations

import copy
import json
import math
import os
import subprocess
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from support.compat_support import corpus_files, outcome, thing
from support.corpus_factory import good_files, write
from wopgen.cli import cli
from wopgen.compat import Change, compare, compare_against
from wopgen.corpus import load

HUGE = "__huge__"  # infinity once loaded (see `_infinite`)


def run_compat(tmp_path: Path, base: dict[str, Any], head: dict[str, Any]) -> list[Change]:
    corpora = [
        load(write(tmp_path / name, corpus_files(schemas))) for name, schemas in (("base", base), ("head", head))
    ]
    for corpus in corpora:
        for doc in corpus.schemas.values():
            doc.data = _infinite(doc.data)
    return compare(corpora[0], corpora[1])


def _infinite(value: Any) -> Any:
    """`value` with HUGE as infinity and "-HUGE" as minus infinity. The loader refuses a number that
    large in a file (`1e999` is schema-invalid-json), but a corpus built in code may still hold one."""
    if value in (HUGE, "-" + HUGE):
        return -math.inf if value.startswith("-") else math.inf
    if isinstance(value, dict):
        return {key: _infinite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_infinite(item) for item in value]
    return value


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True)
    return done.stdout


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", message)


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = write(tmp_path / "repo", good_files())
    git(root, "init", "-q", "-b", "main")
    commit(root, "v1")
    git(root, "tag", "v1")
    return root


@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_against_is_a_usage_error(repo: Path, value: str) -> None:
    result = run("--root", str(repo), "compat", "--against", value)
    assert result.exit_code == 2, result.output
    assert "--against is empty" in result.output
    assert run("--root", str(repo), "check", "--against", value).exit_code == 2
    assert run("--root", str(repo), "compat", "--against", "v1", "--head", value).exit_code == 2


def test_a_missing_against_is_a_usage_error(repo: Path) -> None:
    assert run("--root", str(repo), "compat").exit_code == 2


def test_a_ref_is_streamed_to_disk_not_held_in_memory(repo: Path) -> None:
    big = repo / "assets" / "blob.bin"
    big.parent.mkdir()
    size = 48 * 1024 * 1024
    with big.open("wb") as out:
        out.write(b"\0" * size)
    commit(repo, "a large file beside the corpus")
    git(repo, "tag", "v2")
    head = load(repo)
    tracemalloc.start()
    try:
        changes = compare_against("v2", head)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert changes == []
    assert peak < size // 4, f"peak {peak} bytes while reading a ref holding a {size}-byte file"


def test_a_link_out_of_the_ref_tree_is_a_finding(repo: Path, tmp_path: Path) -> None:
    secret = tmp_path / "outside.json"
    secret.write_text("{}", encoding="utf-8")
    os.symlink(secret, repo / "schemas" / "leak.schema.json")
    os.symlink("../../outside.json", repo / "notes.json")
    commit(repo, "links that lead out of the tree")
    git(repo, "tag", "linked")
    (repo / "schemas" / "leak.schema.json").unlink()
    (repo / "notes.json").unlink()
    result = run("--root", str(repo), "compat", "--against", "linked", "--format", "json")
    assert result.exit_code == 1, result.output
    doc = json.loads(result.output)
    found = sorted(c["base"]["path"] for c in doc["changes"] if c["rule"] == "compat-ref-link-outside")
    assert found == ["notes.json", "schemas/leak.schema.json"]
    assert all(c["severity"] == "error" and c["hint"] for c in doc["changes"] if c["rule"] == "compat-ref-link-outside")


def with_keyword(key: str, value: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"list": {"type": "array", key: value}}}


@pytest.mark.parametrize(
    ("side", "body", "pointer"),
    [
        ("head", {"type": "object", "properties": {"a": {"type": "string"}}, "required": 5}, "/required"),
        ("head", with_keyword("minItems", HUGE), "/properties/list/minItems"),
        ("base", with_keyword("maxItems", "three"), "/properties/list/maxItems"),
    ],
)
def test_a_side_the_metaschema_rejects_is_refused(tmp_path: Path, side: str, body: Any, pointer: str) -> None:
    good = {"type": "object", "properties": {"a": {"type": "string"}}}
    base, head = (good, body) if side == "head" else (body, good)
    changes = run_compat(tmp_path, {"thing": thing(copy.deepcopy(base))}, {"thing": thing(copy.deepcopy(head))})
    assert outcome(changes) == {("compat-schema-invalid", "error")}
    (change,) = changes
    place = change.head if side == "head" else change.base
    assert place is not None and place.pointer == pointer and place.line > 1
    assert change.hint


def test_a_metaschema_refusal_is_no_traceback_from_the_cli(repo: Path) -> None:
    files = copy.deepcopy(good_files())
    files["schemas/thing.schema.json"]["required"] = 5
    write(repo, files)
    result = run("--root", str(repo), "compat", "--against", "v1")
    assert result.exit_code == 1, result.output
    assert "[compat-schema-invalid]" in result.output


@pytest.mark.parametrize(
    ("before", "after", "rule"),
    [
        (10, HUGE, "compat-bound-loosened"),
        (HUGE, 10, "compat-bound-tightened"),
        (HUGE, "-" + HUGE, "compat-bound-tightened"),
    ],
)
def test_infinite_bounds_are_compared_not_a_crash(tmp_path: Path, before: Any, after: Any, rule: str) -> None:
    base = {"thing": thing({"type": "number", "maximum": before}, "client-sent")}
    head = {"thing": thing({"type": "number", "maximum": after}, "client-sent")}
    assert {r for r, _ in outcome(run_compat(tmp_path, base, head))} == {rule}


def test_a_number_past_the_range_of_a_double_is_a_schema_that_cannot_be_read(tmp_path: Path) -> None:
    schemas = {"thing": thing({"type": "number", "maximum": 10}, "client-sent")}
    base, head = (write(tmp_path / name, corpus_files(schemas)) for name in ("base", "head"))
    path = head / "schemas/thing.schema.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"maximum": 10', '"maximum": 1e999'), encoding="utf-8")
    (change,) = compare(load(base), load(head))
    assert change.rule == "compat-schema-removed" and "1e999 is out of range" in change.message


def test_an_infinite_multiple_of_is_no_crash(tmp_path: Path) -> None:
    base = {"thing": thing({"type": "number", "multipleOf": 2})}
    head = {"thing": thing({"type": "number", "multipleOf": HUGE})}
    rules = {r for r, _ in outcome(run_compat(tmp_path, base, head))}
    assert rules and rules <= {"compat-bound-tightened", "compat-bound-loosened"}


@pytest.mark.parametrize("broken", ['{"type": "number",\n  "maximum": }', '{"maximum": 1e999}', "\ufeff{}"])
def test_a_base_schema_that_cannot_be_read_is_not_called_added(tmp_path: Path, broken: str) -> None:
    """Read as absent, it made the head's schema "added" (info, exit 0), whatever the head changed."""
    schemas = {"thing": thing({"type": "number", "maximum": 10}, "client-sent")}
    base, head = (write(tmp_path / name, corpus_files(schemas)) for name in ("base", "head"))
    (base / "schemas/thing.schema.json").write_text(broken, encoding="utf-8")
    (change,) = compare(load(base), load(head))
    assert (change.rule, change.severity.value) == ("compat-schema-invalid", "error")
    assert change.base is not None and change.base.path == "schemas/thing.schema.json"
    assert "cannot be read in the base" in change.message
    result = run("--root", str(head), "compat", "--against", str(base))
    assert result.exit_code == 1 and "[compat-schema-invalid]" in result.output


@pytest.mark.parametrize(
    ("table", "reason"),
    [
        ("[tool.wopgen]\nschemas = 5\n", "schemas must be a string"),
        ("[tool.wopgen]\nschemas = \n", "cannot read settings"),
        ('[tool.wopgen]\nschemaz = "schemas"\n', "unknown [tool.wopgen] key 'schemaz'"),
    ],
)
def test_a_base_whose_settings_cannot_be_read_says_so(repo: Path, table: str, reason: str) -> None:
    """Read with the current layout, as before, but no longer in silence: its layout may differ."""
    (repo / "pyproject.toml").write_text(table, encoding="utf-8")
    commit(repo, "broken settings")
    git(repo, "tag", "broken")
    git(repo, "checkout", "-q", "v1")
    result = run("--root", str(repo), "compat", "--against", "broken", "--format", "json")
    found = [c for c in json.loads(result.output)["changes"] if c["rule"] == "compat-settings-unreadable"]
    assert len(found) == 1 and reason in found[0]["message"], result.output
    assert found[0]["severity"] == "warning" and found[0]["base"]["path"] == "pyproject.toml"


def test_a_base_without_settings_is_read_with_the_current_layout_in_silence(repo: Path) -> None:
    text = (repo / "pyproject.toml").read_text(encoding="utf-8")
    (repo / "pyproject.toml").write_text(text.split("[tool.wopgen]")[0], encoding="utf-8")
    commit(repo, "no table")
    git(repo, "tag", "bare")
    git(repo, "checkout", "-q", "v1")
    result = run("--root", str(repo), "compat", "--against", "bare", "--format", "json")
    assert result.exit_code == 0, result.output
    assert "compat-settings-unreadable" not in result.output


def test_a_side_with_no_corpus_names_why_its_table_could_not_be_read(tmp_path: Path) -> None:
    """Its schemas elsewhere and its table broken: the usage error says what was wrong with the table."""
    head = write(tmp_path / "head", good_files())
    base = write(tmp_path / "base", good_files())
    (base / "schemas").rename(base / "sch")
    (base / "pyproject.toml").write_text('[tool.wopgen]\nschemas = "sch"\nno-such-key = 1\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(head), "compat", "--against", str(base)])
    assert result.exit_code == 2
    assert "its [tool.wopgen] table cannot be read (unknown [tool.wopgen] key 'no-such-key'" in result.output

"""The slow checks' findings are reused only while the corpus and the toolchain are unchanged."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from wopgen.checks import run_all
from wopgen.cli import cli
from wopgen.cli.check_cache import CheckCache, corpus_key
from wopgen.corpus import Corpus, load
from wopgen.diagnostics import Diagnostic, Severity

PROBE = "api-cache-probe"  # a finding only these tests emit (deliberately not in the catalogue)


def counting_check(calls: list[int]) -> Callable[[Corpus], Iterator[Diagnostic]]:
    def check(corpus: Corpus) -> Iterator[Diagnostic]:
        calls.append(1)
        yield Diagnostic(PROBE, Severity.WARNING, "schemas/x.schema.json", 3, 1, "slow work done", "nothing to fix")

    check.__module__ = "wopgen.checks.api"  # one of the CACHED checks
    return check


def findings(root: Path, calls: list[int], *, cached: bool = True) -> list[Diagnostic]:
    corpus = load(root)
    cache = CheckCache(root / "build/.cache/check", corpus_key(corpus)) if cached else None
    return [d for d in run_all(corpus, [(("api-",), counting_check(calls))], cache=cache) if d.rule == PROBE]


def test_unchanged_corpus_reuses_findings(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    calls: list[int] = []
    first = findings(root, calls)
    second = findings(root, calls)
    assert len(calls) == 1
    assert first == second and second[0].line == 3 and second[0].hint == "nothing to fix"


def test_any_corpus_edit_runs_the_check_again(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    calls: list[int] = []
    findings(root, calls)
    schema = next(root.glob("schemas/*.schema.json"))
    schema.write_text(schema.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    findings(root, calls)
    assert len(calls) == 2


def _edit(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")


@pytest.mark.parametrize(
    "change",
    [
        lambda root: _edit(root / "schemas/examples/thing/valid/named.json"),
        lambda root: _edit(root / "schemas/examples/thing/invalid/empty-name.why"),
        lambda root: _edit(root / "spec/rfcs/0001-things.md"),
        lambda root: _edit(root / "spec/v1/overview.md"),
        lambda root: _edit(root / "spec/security/invariants.yaml"),
        lambda root: _edit(root / "CHANGELOG.md"),
        lambda root: _edit(root / "pyproject.toml"),  # the settings, read apart from the corpus files
        lambda root: (root / "tests/test_more.py").write_text("", encoding="utf-8"),  # a new file name
        lambda root: (root / "schemas/examples/thing/invalid/empty-name.why").unlink(),
        lambda root: (root / "spec/v1/more").mkdir(),  # a new folder (`exists` answers from the list)
    ],
    ids=["example", "why", "rfc", "page", "invariants", "changelog", "settings", "added", "removed", "folder"],
)
def test_every_corpus_input_is_in_the_key(make_corpus: Callable[..., Path], change: Callable[[Path], None]) -> None:
    root = make_corpus()
    before = corpus_key(load(root))
    assert corpus_key(load(root)) == before  # the key is stable while nothing changes
    change(root)
    assert corpus_key(load(root)) != before


def test_the_key_hashes_what_the_loader_read(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    corpus = load(root)
    assert "schemas/thing.schema.json" in corpus.sources and "spec/rfcs/0001-things.md" in corpus.sources
    key = corpus_key(corpus)
    # A file the loader never reads (no check sees its bytes) leaves the key alone; its name counts.
    _edit(root / "tests/test_things.py")
    assert corpus_key(load(root)) == key
    # The key is of the bytes the checks were given, not of the disk after loading.
    corpus.sources["schemas/thing.schema.json"] = "0" * 32
    assert corpus_key(corpus) != key


def test_the_key_hashes_any_file_name(make_corpus: Callable[..., Path]) -> None:
    corpus = load(make_corpus())
    key = corpus_key(corpus)
    corpus.sources[os.fsdecode(b"notes-\xff.txt")] = "0" * 32  # a name whose bytes are not UTF-8
    assert corpus_key(corpus) != key


@pytest.mark.skipif(sys.platform != "linux", reason="needs file names that are not UTF-8")
def test_a_file_name_that_is_not_utf8_outside_the_corpus_parts(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    (root / os.fsdecode(b"notes-\xff.txt")).touch()
    result = CliRunner().invoke(cli, ["--root", str(root), "check", "--select", "api-"], catch_exceptions=False)
    assert result.exit_code == 0, result.output


def test_without_a_cache_nothing_is_read_or_written(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    calls: list[int] = []
    findings(root, calls, cached=False)
    findings(root, calls, cached=False)
    assert len(calls) == 2 and not (root / "build").exists()


def test_a_damaged_entry_is_computed_again(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    calls: list[int] = []
    findings(root, calls)
    for entry in (root / "build/.cache/check").glob("api-*.json"):  # right key and format, damaged body
        stored = json.loads(entry.read_text())
        entry.write_text(json.dumps({**stored, "findings": [{"rule": 5}]}))
    assert findings(root, calls)[0].message == "slow work done"
    assert len(calls) == 2


def test_an_entry_nested_too_deeply_to_read_is_computed_again(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    check = ["--root", str(root), "check", "--select", "api-,changelog-"]  # the changelog is Markdown
    assert CliRunner().invoke(cli, check).exit_code == 0
    entries = sorted((root / "build/.cache/check").glob("*.json"))
    assert [p.name.split("-")[0] for p in entries] == ["api", "markdown"]
    for entry in entries:
        entry.write_text("[" * 100_000 + "]" * 100_000)
    result = CliRunner().invoke(cli, check, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert all(json.loads(entry.read_text())["format"] for entry in entries)  # stored again


def test_an_unwritable_cache_folder_only_costs_time(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    (root / "build").write_text("a file where the cache folder would go")
    calls: list[int] = []
    assert findings(root, calls) and findings(root, calls)
    assert len(calls) == 2


def test_check_no_cache_flag(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    runner = CliRunner()
    plain = runner.invoke(cli, ["--root", str(root), "check", "--select", "api-,changelog-", "--no-cache"])
    assert plain.exit_code == 0, plain.output
    assert not (root / "build/.cache").exists()
    cached = runner.invoke(cli, ["--root", str(root), "check", "--select", "api-,changelog-"])
    assert cached.exit_code == 0, cached.output
    assert sorted(p.name.split("-")[0] for p in (root / "build/.cache/check").iterdir()) == ["api", "markdown"]


def _check_json(root: Path) -> list[dict[str, object]]:
    result = CliRunner().invoke(cli, ["--root", str(root), "check", "--select", "doc-,rfc-", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return list(json.loads(result.output)["diagnostics"])


def test_parsed_pages_are_reused_and_never_stale(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    page = sorted(root.glob("spec/**/*.md"))[0]
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [gone](missing-page.md).\n", encoding="utf-8")
    first = _check_json(root)
    assert [d["rule"] for d in first] == ["doc-link-broken"]
    memo = next((root / "build/.cache/check").glob("markdown-*.json"))
    written = memo.stat().st_mtime_ns
    assert _check_json(root) == first and memo.stat().st_mtime_ns == written  # reused, not rewritten
    page.write_text(page.read_text(encoding="utf-8").replace("missing-page.md", "#"), encoding="utf-8")
    assert _check_json(root) == []
    memo.write_text('{"format": 1, "key": "x", "pages": 5}')
    assert _check_json(root) == []
    memo.write_text("not json")
    assert _check_json(root) == []


def _with_an_instance(files: dict[str, object]) -> None:
    files["pyproject.toml"] = str(files["pyproject.toml"]) + (
        'instances = [{ files = "fixtures/*.json", schema = "thing.schema.json" }]\n'
    )
    files["fixtures/one.json"] = {"name": "x"}


def test_an_instance_file_is_read_into_the_key(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus(_with_an_instance)
    corpus = load(root)
    assert "fixtures/one.json" in corpus.sources
    calls: list[int] = []
    findings(root, calls)
    findings(root, calls)
    assert len(calls) == 1
    _edit(root / "fixtures/one.json")
    assert corpus_key(load(root)) != corpus_key(corpus)
    findings(root, calls)
    assert len(calls) == 2  # the cached checks run again after an instance file changed


def test_an_edited_instance_is_checked_again_with_the_cache_on(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus(_with_an_instance)
    check = ["--root", str(root), "check", "--format", "json"]  # the cache is on unless --no-cache
    first = CliRunner().invoke(cli, check)
    assert first.exit_code == 0, first.output
    assert any((root / "build/.cache/check").iterdir())
    (root / "fixtures/one.json").write_text('{"name": 1}\n', encoding="utf-8")
    second = CliRunner().invoke(cli, check)
    assert second.exit_code == 1, second.output
    found = json.loads(second.output)["diagnostics"]
    assert [(d["rule"], d["path"]) for d in found] == [("instance-invalid", "fixtures/one.json")]

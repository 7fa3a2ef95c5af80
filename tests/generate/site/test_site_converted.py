"""Pages converted by an earlier build are reused only for the same Markdown, files, settings and
code: the same site, a strict build still fails on a broken link or anchor, damage is converted again.
A second build also reads no page for search and highlights nothing (see test_site_search_entries
and test_site_pieces for those caches' keys and damage)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.site_builds import built_site, edit_kept
from wopgen.cli import cli
from wopgen.generate.site import converted, template_cache
from wopgen.generate.site.build import SiteBuildError
from wopgen.generate.site.converted import build_key, corpus_file


def test_a_second_build_converts_indexes_and_highlights_nothing_and_writes_the_same_site(
    make_corpus: Callable[..., Path], tmp_path: Path, conversions: list[str], indexed: list[str], made: list[str]
) -> None:
    root, cache = make_corpus(), tmp_path / "cache"
    plain = built_site(root, tmp_path / "plain", None)
    pages, read = len(conversions), len(indexed)
    assert read > 5 and json.loads(plain["search/search_index.json"])["docs"]
    assert any(m.startswith("block:") for m in made) and any(m.startswith("table:") for m in made)
    for seen in (conversions, indexed, made):
        seen.clear()
    assert built_site(root, tmp_path / "cold", cache) == plain
    assert len(conversions) == pages and len(indexed) == read and len(list(cache.iterdir())) == 1
    for seen in (conversions, indexed, made):
        seen.clear()
    assert built_site(root, tmp_path / "warm", cache) == plain
    assert (conversions, indexed, made) == ([], [], [])


def test_only_a_changed_page_is_converted_and_indexed_again(
    make_corpus: Callable[..., Path], tmp_path: Path, conversions: list[str], indexed: list[str]
) -> None:
    root, cache = make_corpus(), tmp_path / "cache"
    built_site(root, tmp_path / "first", cache)
    overview = root / "spec/v1/overview.md"
    overview.write_text(overview.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    conversions.clear()
    indexed.clear()
    changed = built_site(root, tmp_path / "changed", cache)
    assert conversions == ["# Overview"] and indexed == ["spec/v1/overview/"]
    assert changed == built_site(root, tmp_path / "plain", None)
    assert b"One more sentence." in changed["spec/v1/overview/index.html"]
    assert b"One more sentence." in changed["search/search_index.json"]


def test_a_broken_link_fails_every_strict_build(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    def edit(files: dict[str, Any]) -> None:
        files["spec/v1/overview.md"] += "\nSee [nowhere][gone].\n\n[gone]: missing-page.md\n"

    root, cache = make_corpus(edit), tmp_path / "cache"
    for attempt in range(2):
        with pytest.raises(SiteBuildError) as refused:
            built_site(root, tmp_path / f"site{attempt}", cache)
        assert "missing-page.md" in str(refused.value)
    assert not list(cache.glob("*.json")) or all(
        "missing-page" not in json.dumps(v)
        for p in cache.glob("*.json")
        for v in json.loads(p.read_text())["pages"].values()
    )


def test_a_kept_page_linking_to_an_anchor_that_went_fails_the_strict_build(
    make_corpus: Callable[..., Path], tmp_path: Path, conversions: list[str]
) -> None:
    root, cache = make_corpus(), tmp_path / "cache"
    built_site(root, tmp_path / "first", cache)  # the overview links to ../rfcs/0001-things.md#summary
    rfc = root / "spec/rfcs/0001-things.md"
    rfc.write_text(rfc.read_text(encoding="utf-8").replace("## Summary", "## Synopsis"), encoding="utf-8")
    conversions.clear()
    with pytest.raises(SiteBuildError) as refused:
        built_site(root, tmp_path / "second", cache)
    assert "#summary" in str(refused.value)
    assert "# Overview" not in conversions  # the overview came from the cache, and its link was checked


def test_damage_is_converted_again(make_corpus: Callable[..., Path], tmp_path: Path, conversions: list[str]) -> None:
    root, cache = make_corpus(), tmp_path / "cache"
    plain = built_site(root, tmp_path / "plain", None)
    built_site(root, tmp_path / "first", cache)

    def damage(data: dict[str, Any]) -> None:
        for number, key in enumerate(sorted(data["pages"])[:3]):
            data["pages"][key] = [["not", "html"], 5, None, [], {}] if number else {"a": 1}
        data["pages"][sorted(data["pages"])[3]][1] = [{"level": "one"}]  # a table of contents of another shape

    data = edit_kept(cache, damage)
    (kept,) = cache.glob("*.json")
    conversions.clear()
    assert built_site(root, tmp_path / "entries", cache) == plain
    assert len(conversions) == 4
    kept.write_text(kept.read_text(encoding="utf-8")[:100], encoding="utf-8")  # cut short
    conversions.clear()
    assert built_site(root, tmp_path / "file", cache) == plain
    assert len(conversions) == len(data["pages"])
    kept.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")  # nested past what json.loads reads
    conversions.clear()
    assert built_site(root, tmp_path / "deep", cache) == plain
    assert len(conversions) == len(data["pages"])


class _File:
    def __init__(self, src_uri: str, url: str, excluded: bool = False) -> None:
        self.src_uri, self.url = src_uri, url
        self.inclusion = type("Inclusion", (), {"is_excluded": lambda _self: excluded})()


def test_the_build_key_names_every_setting_and_file() -> None:
    config: dict[str, Any] = {
        "markdown_extensions": ["toc", "tables"],
        "mdx_configs": {"toc": {"permalink": True, "slugify": partial(sorted, key=len)}},
        "use_directory_urls": True,
        "validation": {"links": {"not_found": 30}},
    }
    files = [_File("index.md", ""), _File("a.md", "a/")]
    key = build_key(config, files)
    same = {**config, "mdx_configs": {"toc": {"slugify": partial(sorted, key=len), "permalink": True}}}
    assert key is not None and key == build_key(same, list(reversed(files)))  # in any order, made anew
    changes: list[tuple[dict[str, Any], list[_File]]] = [
        ({**config, "markdown_extensions": ["toc"]}, files),
        ({**config, "mdx_configs": {"toc": {"permalink": False, "slugify": partial(sorted, key=len)}}}, files),
        ({**config, "mdx_configs": {"toc": {"permalink": True, "slugify": partial(sorted, key=abs)}}}, files),
        ({**config, "use_directory_urls": False}, files),
        ({**config, "validation": {"links": {"not_found": 20}}}, files),
        (config, [_File("index.md", ""), _File("a.md", "a.html")]),
        (config, [_File("index.md", ""), _File("b.md", "a/")]),
        (config, [_File("index.md", ""), _File("a.md", "a/", excluded=True)]),
        (config, files[:1]),
    ]
    keys = {build_key(changed, changed_files) for changed, changed_files in changes}
    assert None not in keys and key not in keys and len(keys) == len(changes)
    assert build_key({**config, "mdx_configs": {"toc": {"slugify": object()}}}, files) is None
    assert build_key({**config, "mdx_configs": {"toc": {"slugify": lambda s: s}}}, files) is None


def test_no_cache_neither_reads_nor_writes_converted_pages(
    make_corpus: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(template_cache, "folder", lambda: tmp_path / "templates")
    monkeypatch.setattr(converted, "folder", lambda: tmp_path / "converted")
    root = make_corpus()
    args = ["--root", str(root), "site", "build", "--out", str(tmp_path / "site")]
    assert CliRunner().invoke(cli, [*args, "--no-cache"], catch_exceptions=False).exit_code == 0
    assert not (tmp_path / "converted").exists()
    assert CliRunner().invoke(cli, args, catch_exceptions=False).exit_code == 0
    assert len(list((tmp_path / "converted").iterdir())) == 1


def test_a_build_removes_the_files_of_corpora_not_built_for_a_month(tmp_path: Path) -> None:
    folder = tmp_path / "site-pages"
    folder.mkdir(mode=0o700)
    month = converted.PRUNE_DAYS * 86400
    old, recent = folder / "old.json", folder / "recent.json"
    for path, age in ((old, month + 3600), (recent, month - 3600)):
        path.write_text("{}", encoding="utf-8")
        os.utime(path, (time.time() - age, time.time() - age))
    cache = converted.PageCache(folder / "this.json")
    cache.keep_pieces({"k": "<p>piece</p>"})
    cache.save()
    assert sorted(p.name for p in folder.iterdir()) == ["recent.json", "this.json"]


def test_a_corpus_root_whose_path_is_not_utf8_has_a_cache_file(tmp_path: Path) -> None:
    """The cache's file is named by the root's path as the file system spells it: a folder name holding a
    byte that is not UTF-8 (`\\xff`, which Python holds as a lone surrogate) is named like any other."""
    root = Path(os.fsdecode(bytes(tmp_path) + b"/d\xff"))
    plain = tmp_path / "d"
    assert corpus_file(root).endswith(".json") and corpus_file(root) != corpus_file(plain)
    assert corpus_file(plain) == hashlib.sha256(str(plain.resolve()).encode()).hexdigest()[:32] + ".json"

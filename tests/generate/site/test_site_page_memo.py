"""`wopgen site build` reads and keeps the Markdown pages `wopgen check` parsed: the same site, no
page parsed twice while its bytes are the same, a changed page parsed again, `--no-cache` bypasses."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.helpers import count_markdown_parses
from support.site_builds import snapshot
from wopgen.cli import cli
from wopgen.cli.check import CACHE_FOLDER
from wopgen.generate.site import template_cache


@pytest.fixture
def site_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., dict[str, bytes]]:
    monkeypatch.setattr(template_cache, "folder", lambda: tmp_path / "templates")  # not the user's cache

    def run(root: Path, name: str, *options: str) -> dict[str, bytes]:
        out = tmp_path / name
        args = ["--root", str(root), "site", "build", "--out", str(out), *options]
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return snapshot(out)

    return run


def test_a_second_build_parses_no_page_and_writes_the_same_site(
    make_corpus: Callable[..., Path], site_build: Callable[..., dict[str, bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    parsed = count_markdown_parses(monkeypatch)
    plain = site_build(root, "plain", "--no-cache")
    assert parsed and not (root / CACHE_FOLDER).exists()  # --no-cache neither reads nor writes it
    pages = set(parsed)
    parsed.clear()
    first = site_build(root, "first")
    assert set(parsed) == pages and list((root / CACHE_FOLDER).glob("markdown-*.json"))
    parsed.clear()
    second = site_build(root, "second")
    assert not parsed
    assert plain == first == second
    parsed.clear()
    site_build(root, "bypassed", "--no-cache")
    assert set(parsed) == pages  # a memo on disk is not read with --no-cache


def test_check_and_site_build_share_the_parsed_pages(
    make_corpus: Callable[..., Path], site_build: Callable[..., dict[str, bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    CliRunner().invoke(cli, ["--root", str(root), "check"], catch_exceptions=False)
    parsed = count_markdown_parses(monkeypatch)
    site_build(root, "after-check")
    assert not parsed


def test_a_changed_page_is_parsed_again_and_shown(
    make_corpus: Callable[..., Path], site_build: Callable[..., dict[str, bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    site_build(root, "first")
    page = sorted(root.glob("spec/**/*.md"))[0]
    rel = page.relative_to(root).as_posix()
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("\n# ", "\n# Renamed ", 1) if "\n# " in text else "# Renamed\n\n" + text)
    parsed = count_markdown_parses(monkeypatch)
    changed = site_build(root, "changed")
    assert set(parsed) == {rel}
    assert changed == site_build(root, "fresh", "--no-cache")
    assert any(b"Renamed" in body for body in changed.values())


def test_a_damaged_memo_is_parsed_again(
    make_corpus: Callable[..., Path], site_build: Callable[..., dict[str, bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    plain = site_build(root, "plain", "--no-cache")
    site_build(root, "first")
    (kept,) = (root / CACHE_FOLDER).glob("markdown-*.json")
    kept.write_text(kept.read_text(encoding="utf-8")[: len(kept.read_text(encoding="utf-8")) // 2])
    parsed = count_markdown_parses(monkeypatch)
    assert site_build(root, "damaged") == plain
    assert parsed

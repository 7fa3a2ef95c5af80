"""The theme's compiled templates kept between site builds: the same site, stale code never used."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import material  # type: ignore[import-untyped]  # the theme ships no annotations
import mkdocs
import pytest
from click.testing import CliRunner
from jinja2 import DictLoader, Environment

from support.site_builds import snapshot
from wopgen.caches import private_folder
from wopgen.catalogue import catalogue
from wopgen.cli import cli
from wopgen.corpus import load
from wopgen.generate.site import template_cache
from wopgen.generate.site.build import build
from wopgen.generate.site.template_cache import TemplateCache, attach, kept


def compiled_while(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja compiles from source from now on."""
    names: list[str] = []
    compile_source = Environment.compile

    def counting(self: Environment, source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        names.append(str(name))
        return compile_source(self, source, name, *args, **kwargs)

    monkeypatch.setattr(Environment, "compile", counting)
    return names


def test_a_second_build_reuses_the_compiled_theme_and_writes_the_same_site(
    make_corpus: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus, cache = load(make_corpus()), tmp_path / "cache"
    build(corpus, tmp_path / "plain", rules=catalogue())
    compiled = compiled_while(monkeypatch)
    build(corpus, tmp_path / "cold", rules=catalogue(), template_cache=cache)
    assert {"main.html", "404.html", "sitemap.xml", "partials/header.html", "partials/toc.html"} <= set(compiled)
    kept = sorted(p.name for p in cache.iterdir())
    assert kept and not any(name.endswith(".tmp") for name in kept)
    compiled.clear()
    build(corpus, tmp_path / "warm", rules=catalogue(), template_cache=cache)
    # (the theme's configuration reads its language templates with an environment of its own, before the build's)
    assert not {"main.html", "404.html", "sitemap.xml", "partials/header.html", "partials/toc.html"} & set(compiled)
    assert snapshot(tmp_path / "plain") == snapshot(tmp_path / "cold") == snapshot(tmp_path / "warm")
    for entry in cache.iterdir():  # damaged entries are compiled again, and the site stays the same
        entry.write_bytes(b"j2 not a compiled template")
    compiled.clear()
    build(corpus, tmp_path / "damaged", rules=catalogue(), template_cache=cache)
    assert "main.html" in compiled
    assert snapshot(tmp_path / "damaged") == snapshot(tmp_path / "plain")


def test_an_edited_template_is_compiled_again(tmp_path: Path) -> None:
    def rendered(source: str) -> str:
        env = attach(Environment(loader=DictLoader({"page.html": source})), tmp_path / "cache")
        assert isinstance(env.bytecode_cache, TemplateCache)
        return env.get_template("page.html").render(name="x")

    assert rendered("first {{ name }}") == "first x"
    assert len(list((tmp_path / "cache").iterdir())) == 1
    assert rendered("first {{ name }}") == "first x"
    assert rendered("second {{ name }}") == "second x"  # same name and file, new source: not the old code


def test_the_page_templates_are_kept_for_the_block_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def render(env: Environment) -> str:
        return env.get_template("page.md.j2").render(n=2)

    compiled = compiled_while(monkeypatch)
    first, second, plain = (Environment(loader=DictLoader({"page.md.j2": "{{ n * 2 }}"})) for _ in range(3))
    with kept(first, tmp_path / "cache"):
        assert render(first) == "4"
    assert first.bytecode_cache is None and compiled == ["page.md.j2"]
    with kept(second, tmp_path / "cache"):
        assert render(second) == "4"
    assert second.bytecode_cache is None and compiled == ["page.md.j2"]  # the kept code, not compiled again
    assert render(plain) == "4" and compiled == ["page.md.j2", "page.md.j2"]


def test_the_folder_is_named_after_every_version_that_shapes_the_code() -> None:
    name = template_cache.folder().name
    for version in (jinja2.__version__, mkdocs.__version__, material.__version__):
        assert version in name
    assert name.endswith(f"-{sys.implementation.cache_tag}")


def test_only_a_private_folder_is_used(tmp_path: Path) -> None:
    mine = tmp_path / "a" / "b"
    assert private_folder(mine) and mine.is_dir()
    assert mine.stat().st_mode & 0o777 == 0o700
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    assert not private_folder(shared)
    assert attach(Environment(), shared).bytecode_cache is None
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert not private_folder(blocked / "cache")
    assert attach(Environment(), blocked / "cache").bytecode_cache is None


def test_an_entry_that_cannot_be_written_is_left_out(tmp_path: Path) -> None:
    env = Environment(loader=DictLoader({"page.html": "{{ 1 + 1 }}"}))
    env.bytecode_cache = TemplateCache(str(tmp_path / "gone"))  # no such folder: every write fails
    assert env.get_template("page.html").render() == "2"
    assert not (tmp_path / "gone").exists()


def test_the_cli_keeps_compiled_templates_in_the_user_cache_unless_told_not_to(
    make_corpus: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    root, runner = make_corpus(), CliRunner()
    kept = template_cache.folder()
    assert kept.is_relative_to(tmp_path / "user-cache")
    result = runner.invoke(cli, ["--root", str(root), "site", "build", "--no-cache", "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    assert not kept.exists()
    result = runner.invoke(cli, ["--root", str(root), "site", "build", "--out", str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    assert any(kept.iterdir())
    in_corpus = [p.relative_to(root).as_posix() for p in (root / "build").rglob("*") if p.is_file()]
    assert [p.rsplit("-", 1)[0] for p in in_corpus] == ["build/.cache/check/markdown"]  # only the parsed pages:
    # executable code (and the HTML the site takes as it is) never goes into the corpus
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")
    assert "--no-cache" in runner.invoke(cli, ["site", "build", "--help"]).output
    overview = root / "spec/v1/overview.md"  # a warm build is as strict as any
    overview.write_text(overview.read_text(encoding="utf-8") + "\nSee [x](../rfcs/0001-things.md#nowhere).\n")
    result = runner.invoke(cli, ["--root", str(root), "site", "build", "--out", str(tmp_path / "b")])
    assert result.exit_code == 1 and "nowhere" in result.output
    assert snapshot(tmp_path / "b") == snapshot(tmp_path / "a")

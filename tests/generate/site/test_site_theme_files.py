"""The theme's static files are found without walking hidden folders: the same files as mkdocs finds."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import Environment, FileSystemLoader
from mkdocs.config import load_config
from mkdocs.structure.files import Files

from support.helpers import first_arguments
from wopgen.generate.site import BASE_CONFIG, theme_files
from wopgen.generate.site.theme_files import hide_dotted, visible_templates


def found_files(project: Path, hidden_skipped: bool) -> list[tuple[str, str | None, str]]:
    config = load_config(config_file=str(project / "mkdocs.yml"))
    if hidden_skipped:
        hide_dotted(config.theme)
    files = Files([])
    files.add_files_from_theme(config.theme.get_env(), config)
    return [(f.src_uri, f.abs_src_path, f.dest_uri) for f in files]


def _project(folder: Path) -> Path:
    (folder / "docs").mkdir(parents=True)
    (folder / "mkdocs.yml").write_text(f"INHERIT: {BASE_CONFIG}\ndocs_dir: docs\n")
    return folder


def test_mkdocs_finds_the_same_theme_files(tmp_path: Path) -> None:
    _project(tmp_path)
    found = found_files(tmp_path, True)
    assert found == found_files(tmp_path, False)
    assert any(src.startswith("assets/javascripts/") for src, _, _ in found)


def tree(root: Path) -> FileSystemLoader:
    for name in [
        "base.html",
        "a.b/c.css",
        "assets/x.js",
        "assets/.hidden.js",
        ".icons/i/one.svg",
        ".icons/two.svg",
        "deep/er/.git/config",
        "deep/er/keep.txt",
        ".top",
    ]:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name)
    return FileSystemLoader([str(root), str(root / "deep")])


def test_the_listing_is_jinjas_without_dotted_paths(tmp_path: Path) -> None:
    loader = tree(tmp_path)
    everything = loader.list_templates()
    assert visible_templates(loader) == [n for n in everything if not any(p.startswith(".") for p in n.split("/"))]
    assert "a.b/c.css" in visible_templates(loader) and "er/keep.txt" in visible_templates(loader)


class _Theme:
    def __init__(self, loader: FileSystemLoader) -> None:
        self.loader = loader

    def get_env(self) -> Environment:
        return Environment(loader=self.loader)


def test_a_filter_that_takes_hidden_paths_gets_every_path(tmp_path: Path) -> None:
    theme = _Theme(tree(tmp_path))
    hide_dotted(theme)
    env = theme.get_env()
    plain = Environment(loader=theme.loader)
    for accepts in (lambda name: True, lambda name: name.endswith(".svg"), lambda name: "/." in name):
        assert env.list_templates(filter_func=accepts) == plain.list_templates(filter_func=accepts)
    assert env.list_templates() == plain.list_templates()
    assert env.list_templates(extensions=["svg"]) == plain.list_templates(extensions=["svg"])
    refuses = lambda name: not name.startswith(".") and "/." not in name  # noqa: E731
    assert env.list_templates(filter_func=refuses) == plain.list_templates(filter_func=refuses)


def test_only_mkdocs_filter_skips_the_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    theme = _Theme(tree(tmp_path / "theme"))
    hide_dotted(theme)
    env = theme.get_env()
    walked = first_arguments(monkeypatch, theme_files, "visible_templates")
    files = Files([])
    config = load_config(config_file=str(_project(tmp_path / "project") / "mkdocs.yml"))
    config.theme.dirs[:] = [str(tmp_path / "theme")]
    files.add_files_from_theme(env, config)
    assert walked and {f.src_uri for f in files} == {"a.b/c.css", "assets/x.js", "deep/er/keep.txt"}
    walked.clear()
    env.list_templates(filter_func=lambda name: not name.startswith(".") and "/." not in name)
    assert not walked

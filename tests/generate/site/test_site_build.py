"""`wopgen site build` end to end: mkdocs --strict on the rendered tree, atomic output, same bytes."""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from support.site_builds import snapshot
from wopgen.catalogue import catalogue
from wopgen.checks.gate import API_RULES, BLOCKING_RULES, FRONT_MATTER_RULES
from wopgen.cli import cli
from wopgen.cli.site_hook import on_pre_build
from wopgen.corpus import load
from wopgen.generate.site import render
from wopgen.generate.site.build import SiteBuildError, build, watched
from wopgen.generate.writer import write_tree


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_build_writes_the_site_byte_identically(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    root = make_corpus()
    out = tmp_path / "site"
    result = run("--root", str(root), "site", "build", "--out", str(out))
    assert result.exit_code == 0, result.output
    first = snapshot(out)
    for page in ("index.html", "rfcs/0001-things/index.html", "schemas/thing/index.html", "events/index.html"):
        assert page in first, page
    assert first["spec/v1/thing.schema.json"] == (root / "schemas/thing.schema.json").read_bytes()
    assert b"<lastmod>2026-06-01</lastmod>" in first["sitemap.xml"]  # the corpus date, not today
    assert b"fonts.googleapis.com" not in first["index.html"]
    # The rule catalogue shows each rule's text as written: no `*` read as emphasis, no `{...}` closing a cell
    # read as an attribute list (which dropped the example).
    rules = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", first["rules/index.html"].decode()))
    assert "&lt;schema-name&gt;/valid/*.json or &lt;schema-name&gt;/invalid/*.json" in rules
    assert 'head: "verifier": {"$ref": "#/$defs/verifier"}' in rules
    assert run("--root", str(root), "site", "build", "--out", str(out)).exit_code == 0
    assert snapshot(out) == first


def test_default_output_is_build_site_under_the_root(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    result = run("--root", str(root), "site", "build")
    assert result.exit_code == 0, result.output
    assert (root / "build/site/index.html").is_file()


def test_broken_anchor_fails_strict_build_and_leaves_output_alone(
    make_corpus: Callable[..., Path], tmp_path: Path
) -> None:
    def edit(files: dict[str, Any]) -> None:
        files["spec/v1/overview.md"] += "\nSee [nowhere](../rfcs/0001-things.md#no-such-heading).\n"

    out = tmp_path / "site"
    write_tree({"keep.txt": "previous build"}, out)
    before = snapshot(out)
    result = CliRunner().invoke(cli, ["--root", str(make_corpus(edit)), "site", "build", "--out", str(out)])
    assert result.exit_code == 1
    assert "mkdocs refused the site" in result.output
    assert "no-such-heading" in result.output
    assert snapshot(out) == before and before["keep.txt"] == b"previous build"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus", "site"]  # no staging left beside it


def test_mkdocs_runs_in_this_process_and_leaves_it_as_it_found_it(
    make_corpus: Callable[..., Path], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    def edit(files: dict[str, Any]) -> None:
        files["spec/v1/overview.md"] += "\nSee [nowhere](../rfcs/0001-things.md#no-such-heading).\n"

    logger = logging.getLogger("mkdocs")
    before = (list(logger.handlers), logger.level, logger.propagate, os.environ.get("SOURCE_DATE_EPOCH"))
    root = make_corpus(edit)
    with pytest.raises(SiteBuildError) as refused:
        build(load(root), tmp_path / "site", rules=catalogue())
    assert "no-such-heading" in str(refused.value) and "strict mode" in str(refused.value)
    assert (list(logger.handlers), logger.level, logger.propagate, os.environ.get("SOURCE_DATE_EPOCH")) == before
    pages: list[tuple[int, int]] = []
    overview = root / "spec/v1/overview.md"
    overview.write_text(overview.read_text(encoding="utf-8").replace("#no-such-heading", ""), encoding="utf-8")
    assert build(load(root), tmp_path / "site", lambda done, total: pages.append((done, total)), rules=catalogue())
    assert pages[0] == (0, pages[-1][1]) and pages[-1][0] == pages[-1][1] == len(pages) - 1  # every page once
    said = capfd.readouterr()
    assert said.out == "" and "no-such-heading" not in said.err  # mkdocs' log is kept, not printed


def test_a_killed_builds_mkdocs_folder_is_removed_by_the_next(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    dead = 2**22 + 7  # above the default pid_max: no such process
    left = tmp_path / f".site.mkdocs.wopgen-staging.{dead}.abcd1234"
    (left / "site").mkdir(parents=True)
    (left / "site/index.html").write_text("half a site")
    result = run("--root", str(make_corpus()), "site", "build", "--out", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus", "site"]
    assert "half a site" not in (tmp_path / "site/index.html").read_text(encoding="utf-8")


def test_unwritable_output_is_a_usage_error(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run("--root", str(make_corpus()), "site", "build", "--out", str(blocker / "site"))
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_help_teaches_with_examples() -> None:
    for command in (["site", "--help"], ["site", "build", "--help"], ["site", "serve", "--help"]):
        text = run(*command).output
        assert "Example" in text and "wopgen site" in text, command


def test_build_help_names_exactly_the_rules_that_refuse_a_corpus() -> None:
    """The help lists the rules whose errors the gate blocks on (`wopgen.checks.gate`), no more and no
    fewer, and says that a `$ref` of an API document leading nowhere is not one of them."""
    text = run("site", "build", "--help").output
    refusing = text[text.index("What refuses a corpus") : text.index("Other findings")]
    named = set(re.findall(r"\b(?:corpus|schema|api|doc)-[a-z-]*[a-z]\b", refusing))
    assert named == {*BLOCKING_RULES, *API_RULES, *FRONT_MATTER_RULES}
    assert "api-ref-unresolved" in text[text.index("Other findings") :]


def test_serve_hook_renders_corpus_edits_into_the_staging_tree(
    make_corpus: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    staging = tmp_path / "staging"
    write_tree(render(load(root), rules=catalogue()), staging)
    config = SimpleNamespace(config_file_path=str(staging / "mkdocs.yml"))
    monkeypatch.setenv("WOPGEN_SITE_ROOT", str(root))
    page = staging / "docs/spec/v1/overview.md"
    untouched = staging / "docs/schemas/thing.md"
    before = untouched.stat().st_mtime_ns
    text = (root / "spec/v1/overview.md").read_text()
    (root / "spec/v1/overview.md").write_text(text + "\nA sentence added while serving.\n")
    os.utime(untouched, ns=(before - 10**9, before - 10**9))
    on_pre_build(config)
    assert "A sentence added while serving." in page.read_text()
    assert untouched.stat().st_mtime_ns == before - 10**9  # unchanged pages are not rewritten


def test_serve_hook_does_nothing_outside_serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WOPGEN_SITE_ROOT", raising=False)
    on_pre_build(SimpleNamespace(config_file_path=str(tmp_path / "mkdocs.yml")))
    assert list(tmp_path.iterdir()) == []


def test_serve_on_a_port_in_use_is_a_usage_error_before_any_build(make_corpus: Callable[..., Path]) -> None:
    """mkdocs built the whole site, then its bind failed with an OSError traceback."""
    root = make_corpus()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["--root", str(root), "site", "serve", "--port", str(port)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "Building documentation" not in result.output


def test_serve_previews_on_loopback_and_stops_cleanly(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "wopgen", "--root", str(root), "site", "serve", "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        page = ""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not page:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/rfcs/0001-things/", timeout=2) as response:
                    page = response.read().decode()
            except OSError:
                time.sleep(0.2)
        assert "RFC 0001: Things" in page
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=20)
    assert process.returncode == 0, output
    assert f"127.0.0.1:{port}" in output


def test_serve_watches_the_config_file_the_settings_came_from(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    from wopgen.corpus.settings import load_settings

    root = make_corpus()
    config = tmp_path / "site.toml"
    config.write_text((root / "pyproject.toml").read_text())
    paths = set(watched(load(root, load_settings(root, config))))
    assert config.resolve() in paths and root / "pyproject.toml" not in paths

"""A normal (non-editable) install carries every template and the site's base configuration.

The wheel is built from a copy of the sources without build isolation (the build backend is in the
dev extra, so nothing is downloaded); it must hold templates/ and site/ as `wopgen_templates` and
`wopgen_site`. Unpacked alone on sys.path, outside the repository, it still renders the host, the
site pages and a new RFC.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCES = (
    *("pyproject.toml", "setup.py", "README.md", "CONTRIBUTING.md", "CHANGELOG.md"),
    *("generator", "templates", "site", "schemas", "spec"),
)
_IGNORE = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")


def _files(folder: Path) -> set[str]:
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=_IGNORE)
        else:
            shutil.copy(REPO / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (built,) = out.glob("wopgen-*.whl")
    return built


def test_the_wheel_holds_every_template_and_the_site_configuration(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder, package in (("templates", "wopgen_templates"), ("site", "wopgen_site")):
        expected = {f"{package}/{name}" for name in _files(REPO / folder)}
        assert expected <= names, sorted(expected - names)
    assert "wopgen_templates/rfc/rfc.md.j2" in names and "wopgen_site/mkdocs.yml" in names
    assert "wopgen_templates/host/suites/core.openwop.evals.sample.json" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_the_unpacked_wheel_renders_host_site_and_rfc_outside_the_repository(wheel: Path, tmp_path: Path) -> None:
    installed = tmp_path / "site-packages"
    zipfile.ZipFile(wheel).extractall(installed)
    corpus = tmp_path / "corpus"
    for part in ("schemas", "spec"):
        shutil.copytree(REPO / part, corpus / part)
    for name in ("pyproject.toml", "CHANGELOG.md"):
        shutil.copy(REPO / name, corpus / name)
    env = {**os.environ, "PYTHONPATH": str(installed)}
    script = (
        "import sys, wopgen, wopgen_templates, wopgen_site\n"
        f"assert all(m.__file__.startswith({str(installed)!r}) for m in (wopgen, wopgen_templates, wopgen_site))\n"
        "from pathlib import Path\nfrom wopgen.corpus import load\n"
        "from wopgen.generate import host, site\n"
        f"corpus = load(Path({str(corpus)!r}))\n"
        "files = host.generate(corpus)\n"
        "from wopgen.catalogue import catalogue\ntree = site.render(corpus, rules=catalogue())\n"
        f"assert {str(installed)!r} in tree['mkdocs.yml'], tree['mkdocs.yml']\n"
        "print(len(files), len(tree))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    host_files, site_files = map(int, done.stdout.split())
    assert host_files > 10 and site_files > 50
    rfc = subprocess.run(
        [sys.executable, "-m", "wopgen", "--root", str(corpus), "rfc", "new", "Packaged template", "--author", "t"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert rfc.returncode == 0, rfc.stdout + rfc.stderr
    written = corpus / rfc.stdout.strip()
    assert written.name.endswith("-packaged-template.md")
    assert "| **Title** | Packaged template |" in written.read_text()


def test_the_unpacked_wheel_starts_a_corpus_that_checks_clean(wheel: Path, tmp_path: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "wopgen/data/corpus-format.md" in names and "wopgen_templates/init/pyproject.toml.j2" in names
    installed = tmp_path / "site-packages"
    zipfile.ZipFile(wheel).extractall(installed)
    env = {**os.environ, "PYTHONPATH": str(installed)}
    empty = tmp_path / "empty"
    empty.mkdir()

    def wopgen(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "wopgen", *args], cwd=empty, env=env, capture_output=True, text=True, check=False
        )

    where = subprocess.run(
        [sys.executable, "-c", "import wopgen.reference as r; print(r.__file__)"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert where.stdout.startswith(str(installed)), where.stdout + where.stderr
    made = wopgen("init", "--title", "Acme Protocol", "--id-base", "https://acme.example/spec/v1/")
    assert made.returncode == 0, made.stdout + made.stderr
    checked = wopgen("check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert '"$id": "https://acme.example/spec/v1/greeting.schema.json"' in (
        empty / "schemas" / "greeting.schema.json"
    ).read_text(encoding="utf-8")
    reference = wopgen("config", "--reference")
    assert reference.returncode == 0 and reference.stdout.startswith("# Contributing")


def test_the_unpacked_wheel_runs_conformance_outside_any_corpus(wheel: Path, tmp_path: Path) -> None:
    """The wheel carries the OpenWOP v1 slice, so a host implementer with no checkout can run the
    conformance scenarios (and serve the host); `check` still wants a corpus of its own."""
    names = set(zipfile.ZipFile(wheel).namelist())
    slice_files = {
        f"wopgen/data/openwop-v1-slice/{name}"
        for part in ("schemas", "spec")
        for name in (p.relative_to(REPO).as_posix() for p in (REPO / part).rglob("*") if p.is_file())
    }
    assert slice_files <= names, sorted(slice_files - names)[:5]
    assert {"wopgen/data/openwop-v1-slice/pyproject.toml", "wopgen/data/openwop-v1-slice/CHANGELOG.md"} <= names
    installed = tmp_path / "site-packages"
    zipfile.ZipFile(wheel).extractall(installed)
    env = {**os.environ, "PYTHONPATH": str(installed)}
    empty = tmp_path / "empty"
    empty.mkdir()
    ran = subprocess.run(
        [sys.executable, "-m", "wopgen", "conformance", "--select", "core-run-surface,agent-verified-shape"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert f"using the OpenWOP v1 slice shipped with wopgen ({installed}" in ran.stderr
    assert "host: 1 passed" in ran.stdout and "corpus: 1 passed" in ran.stdout
    checked = subprocess.run(
        [sys.executable, "-m", "wopgen", "check"], cwd=empty, env=env, capture_output=True, text=True, check=False
    )
    assert checked.returncode == 2 and "no pyproject.toml" in checked.stderr

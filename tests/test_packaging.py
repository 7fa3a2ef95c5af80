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
SOURCES = ("pyproject.toml", "setup.py", "README.md", "generator", "templates", "site")
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
        "tree = site.render(corpus)\n"
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

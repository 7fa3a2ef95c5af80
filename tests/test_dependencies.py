"""Dependencies are declared as a library declares them: ranges in pyproject.toml, exact versions
for CI in constraints.txt, a CI step that installs the lower bounds; a LICENSE; a complete sdist.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
RUNTIME = [Requirement(r) for r in PROJECT["dependencies"]]
DEV = [Requirement(r) for r in PROJECT["optional-dependencies"]["dev"]]


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            (spec,) = requirement.specifier
            assert spec.operator == "==", line
            pins[canonicalize_name(requirement.name)] = Version(spec.version)
    return pins


def _lower(requirement: Requirement) -> Version | None:
    bounds = [Version(s.version) for s in requirement.specifier if s.operator == ">="]
    return bounds[0] if bounds else None


@pytest.mark.parametrize("requirement", RUNTIME + DEV, ids=str)
def test_every_dependency_is_a_range_with_a_lower_bound(requirement: Requirement) -> None:
    operators = {s.operator for s in requirement.specifier}
    assert "==" not in operators and "===" not in operators, f"{requirement} pins an exact version"
    assert _lower(requirement) is not None, f"{requirement} has no lower bound"


@pytest.mark.parametrize("requirement", RUNTIME, ids=str)
def test_runtime_dependencies_stop_before_the_next_major(requirement: Requirement) -> None:
    assert any(s.operator == "<" for s in requirement.specifier), f"{requirement} has no upper bound"


@pytest.mark.parametrize("requirement", RUNTIME + DEV, ids=str)
def test_constraints_pin_every_dependency_inside_its_range(requirement: Requirement) -> None:
    pins = _pins()
    name = canonicalize_name(requirement.name)
    assert name in pins, f"constraints.txt does not pin {requirement.name}"
    assert requirement.specifier.contains(pins[name], prereleases=True), f"{pins[name]} is outside {requirement}"


def test_ci_and_setup_install_with_the_constraints_and_ci_runs_the_lowest_versions() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    setup = (ROOT / "scripts" / "setup-tests").read_text(encoding="utf-8")
    assert "-c constraints.txt -e ." in ci
    assert '-c constraints.txt -e ".[dev]"' in setup
    assert "scripts/test-lowest" in ci
    lowest = (ROOT / "scripts" / "test-lowest").read_text(encoding="utf-8")
    assert "scripts/lowest-constraints" in lowest and "pytest" in lowest


def test_the_lowest_constraints_are_the_declared_lower_bounds() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "lowest-constraints")], capture_output=True, text=True, check=True
    )
    produced = {canonicalize_name(Requirement(line).name): Requirement(line) for line in done.stdout.splitlines()}
    for requirement in RUNTIME:
        (spec,) = produced[canonicalize_name(requirement.name)].specifier
        assert Version(spec.version) == _lower(requirement), requirement
    pins = _pins()
    for requirement in DEV:
        name = canonicalize_name(requirement.name)
        if name in produced:
            (spec,) = produced[name].specifier
            assert Version(spec.version) == pins[name]


def test_the_other_tools_versions_we_promise_to_coexist_with_are_allowed() -> None:
    """`pip install wopgen` next to pydantic 2.11 and click 8.1 must not need another version."""
    by_name = {canonicalize_name(r.name): r for r in RUNTIME}
    assert by_name["pydantic"].specifier.contains("2.11.0")
    assert by_name["click"].specifier.contains("8.1.8")


def test_the_license_file_is_the_apache_license_the_package_declares() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert PROJECT["license"] == "Apache-2.0" and "LICENSE" in PROJECT["license-files"]
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text


def _tracked(*folders: str) -> set[str]:
    done = subprocess.run(["git", "ls-files", *folders], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return {line for line in done.stdout.splitlines() if (ROOT / line).is_file()}


def test_the_sdist_carries_what_a_packager_needs(tmp_path: Path) -> None:
    script = f"import sys\nfrom setuptools import build_meta\nprint(build_meta.build_sdist({str(tmp_path)!r}))\n"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    name = done.stdout.strip().splitlines()[-1]
    with tarfile.open(tmp_path / name) as archive:
        prefix = name.removesuffix(".tar.gz") + "/"
        members = {m.name.removeprefix(prefix) for m in archive.getmembers() if m.isfile()}
    wanted = _tracked("tests", "templates", "site", "schemas", "spec", "generator")
    wanted |= {"LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml", "setup.py", "constraints.txt"}
    missing = sorted(wanted - members)
    assert not missing, missing[:20]
    assert not [m for m in members if "__pycache__" in m or "node_modules" in m]

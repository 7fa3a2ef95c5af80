"""The OpenWOP v1 slice wopgen ships with: its settings, schemas and prose, for the commands that
execute the spec (`wopgen conformance`, `wopgen host`) when they run outside any corpus.

A wheel carries a copy under `wopgen/data/openwop-v1-slice/` (setup.py copies `pyproject.toml`,
`CHANGELOG.md`, `schemas/` and `spec/` at build time); an editable install reads the repository it
was installed from.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGED = "openwop-v1-slice"
PARTS = ("pyproject.toml", "CHANGELOG.md", "schemas", "spec")


def shipped_root() -> Path | None:
    """The root of the shipped slice, or None when this installation carries none."""
    packaged = Path(str(resources.files("wopgen").joinpath("data", PACKAGED)))
    if (packaged / "pyproject.toml").is_file():
        return packaged
    source = Path(__file__).resolve().parents[2]  # generator/wopgen -> the repository root
    if (source / "generator" / "wopgen").is_dir() and (source / "pyproject.toml").is_file():
        return source
    return None

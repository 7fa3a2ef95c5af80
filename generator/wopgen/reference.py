"""The corpus format reference (CONTRIBUTING.md of the toolchain's repository), as installed.

A wheel carries a copy as `wopgen/data/corpus-format.md` (setup.py copies it at build time); an
editable install reads the repository's own file.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGED = "corpus-format.md"


def format_reference() -> str | None:
    """The text of the format reference, or None when this installation has none."""
    packaged = resources.files("wopgen").joinpath("data", PACKAGED)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parents[2] / "CONTRIBUTING.md"  # generator/wopgen -> repository root
    if source.is_file() and (source.parent / "generator" / "wopgen").is_dir():
        return source.read_text(encoding="utf-8")
    return None

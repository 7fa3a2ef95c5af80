"""What an installation carries of the toolchain's repository: the corpus format reference
(CONTRIBUTING.md) and the OpenWOP v1 slice (its settings, changelog, schemas and prose).

A wheel carries copies under `wopgen/data/` (setup.py copies them at build time:
`corpus-format.md` and `openwop-v1-slice/`); an editable install reads the repository itself.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGED = "corpus-format.md"
PACKAGED_SLICE = "openwop-v1-slice"


def _packaged(name: str) -> Path:
    return Path(str(resources.files("wopgen").joinpath("data", name)))


def _source_checkout() -> Path | None:
    """The repository an editable install runs from, or None for any other installation."""
    root = Path(__file__).resolve().parents[2]  # generator/wopgen -> the repository root
    return root if (root / "generator" / "wopgen").is_dir() else None


def format_reference() -> str | None:
    """The text of the format reference, or None when this installation has none."""
    packaged = _packaged(PACKAGED)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = _source_checkout()
    if source is not None and (source / "CONTRIBUTING.md").is_file():
        return (source / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return None


def shipped_root() -> Path | None:
    """The root of the OpenWOP v1 slice this installation carries, for the commands that execute the
    spec outside any corpus (`wopgen conformance`, `wopgen host serve`); None when it carries none."""
    packaged = _packaged(PACKAGED_SLICE)
    if (packaged / "pyproject.toml").is_file():
        return packaged
    source = _source_checkout()
    if source is not None and (source / "pyproject.toml").is_file():
        return source
    return None

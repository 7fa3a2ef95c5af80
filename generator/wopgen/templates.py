"""Where the Jinja2 templates live and the one Environment every renderer uses."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

# templates/ sits at the repository root, next to generator/ (see DESIGN.md: the layout).
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def environment(package: str) -> Environment:
    """A strict environment over templates/<package>/: undefined names are errors, output is stable."""
    folder = TEMPLATES / package
    if not folder.is_dir():
        raise FileNotFoundError(f"template folder {folder} is missing from this installation")
    return Environment(
        loader=FileSystemLoader(str(folder)),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )

"""Where the Jinja2 templates live and the one Environment every renderer uses.

The templates sit at the repository root in templates/<package>/ and the site's base configuration
in site/ (see DESIGN.md: the layout); they ship in the wheel as the packages `wopgen_templates` and
`wopgen_site` (setup.py maps the folders), so an editable and a normal install find them the same
way: through the import system, never through a path relative to this file.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

TEMPLATE_PACKAGE = "wopgen_templates"
SITE_PACKAGE = "wopgen_site"  # site/: the docs site's base mkdocs.yml


class _Loader(FileSystemLoader):
    """A FileSystemLoader that does not list the bytecode Python leaves beside the host's .py templates."""

    def list_templates(self) -> list[str]:
        return [name for name in super().list_templates() if "__pycache__" not in name.split("/")]


def folder(package: str) -> Path:
    """The installed folder templates/<package>/ (host, models, site, rfc)."""
    where = Path(str(resources.files(TEMPLATE_PACKAGE) / package))
    if not where.is_dir():
        raise FileNotFoundError(f"template folder {where} is missing from this installation")
    return where


def site_config() -> Path:
    """The installed site/mkdocs.yml, the base configuration every built site inherits."""
    where = Path(str(resources.files(SITE_PACKAGE) / "mkdocs.yml"))
    if not where.is_file():
        raise FileNotFoundError(f"{where} is missing from this installation")
    return where


@cache
def environment(package: str) -> Environment:
    """A strict environment over templates/<package>/: undefined names are errors, output is stable.
    One per package and process, so each template is compiled once (nothing changes an environment)."""
    return Environment(
        loader=_Loader(str(folder(package))),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )

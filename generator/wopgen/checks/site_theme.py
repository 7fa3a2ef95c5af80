"""What the docs site's theme offers a page's front matter: the templates a page may name, its icons,
the parts `hide` can hide and the statuses it draws.

The theme is the one the site's base configuration (`wopgen.templates.site_config()`) names, found
as mkdocs finds it, with the folder of its own templates (`custom_dir`) when it has one. It is looked
up (and mkdocs and Jinja imported) only when a page names a template or an icon, or hides a part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

# How the theme's templates ask whether a page hides a part (`"toc" in page.meta.hide`); a name no
# template asks for hides nothing. Read from the installed theme: versions differ (`path` is recent).
_HIDE_TEST = re.compile(r'"(\w+)" in page\.meta\.hide')
# The statuses the theme's stylesheet draws a sign for beside a page in the navigation; any other
# draws nothing (the site sets no `extra.status` of its own).
STATUSES = ("new", "deprecated")
# The theme's template for a page, and base.html, which it extends and renders the same. The theme's
# other templates are for no page: 404.html is built once as the site's not-found page (a page that
# names it shows "not found" instead of its text), blog*.html want the blog plugin's context,
# redirect.html a `location` to send the reader to, and partials are pieces of a page.
PAGE_TEMPLATES = ("main.html", "base.html")
ICONS = ".icons"


@dataclass(frozen=True)
class Theme:
    folders: tuple[Path, ...]  # where the theme's templates are looked for, first match wins
    page_templates: frozenset[str]
    hidden: tuple[str, ...]  # the parts a page's `hide` can hide, as the templates ask for them

    def page_template(self, name: str) -> bool:
        """Whether `name` (as a page's `template` gives it) is a template the theme renders pages with."""
        found = _pieces(name)
        return found is not None and "/".join(found) in self.page_templates

    def has(self, name: str) -> bool:
        """Whether the theme's loader finds a file `name` (as Jinja's file-system loader looks it up)."""
        found = _pieces(name)
        return found is not None and any(folder.joinpath(*found).is_file() for folder in self.folders)

    def icon(self, name: str) -> bool:
        """Whether `name` (`material/home`, as a page's `icon` gives it) is an icon of the theme."""
        return self.has(f"{ICONS}/{name}.svg")


def _pieces(name: str) -> list[str] | None:
    from jinja2 import TemplateNotFound
    from jinja2.loaders import split_template_path

    try:
        return split_template_path(name)
    except TemplateNotFound:  # a name that climbs out of the theme's folders
        return None


@cache
def site_theme(config: Path) -> Theme:
    """The theme the mkdocs configuration `config` names."""
    from mkdocs.theme import Theme as MkdocsTheme
    from mkdocs.utils.yaml import yaml_load

    with config.open(encoding="utf-8") as source:
        settings = yaml_load(source)
    named = settings.get("theme")
    options: dict[str, Any] = dict(named) if isinstance(named, dict) else {"name": named}
    own: list[str] = []
    if options.get("custom_dir"):
        custom = config.parent / str(options["custom_dir"])
        options["custom_dir"] = str(custom)
        own = [path.name for path in custom.glob("*.html")]
    theme = MkdocsTheme(**options)
    pages = frozenset({*PAGE_TEMPLATES, *own} - set(theme.static_templates))
    folders = tuple(Path(folder) for folder in theme.dirs)
    asked = (_HIDE_TEST.findall(t.read_text(encoding="utf-8")) for f in folders for t in f.rglob("*.html"))
    return Theme(folders, pages, tuple(dict.fromkeys(name for found in asked for name in found)))


__all__ = ["PAGE_TEMPLATES", "STATUSES", "Theme", "site_theme"]

"""The theme's static files found without walking its hidden folders.

On every build mkdocs 1.6 lists every file of the theme (`Files.add_files_from_theme` calls the
Jinja environment's `list_templates`) and keeps those its filter lets through. mkdocs-material
ships about 14,500 files, all but about 160 of them icons under the hidden `.icons` folder, and the
filter refuses every path with a part that starts with a dot (its first two patterns, `.*` and
`*/.*`, match such a path whatever else it says): walking and filtering them is about a tenth of a
second per build for nothing.

`hide_dotted(theme)` makes the environments the theme gives list their templates without the
paths that have a dotted part when the filter is that very one of mkdocs (`add_files_from_theme`'s
own, in the versions of `MKDOCS_VERSIONS`, read to hold those two patterns first) and refuses two
dotted probes. Anything else (another mkdocs, another filter, a loader other than Jinja's
file-system loader, a call without a filter) lists as Jinja does.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from functools import partial
from typing import Any

import mkdocs
from jinja2 import Environment, FileSystemLoader

from wopgen.generate.site.markdown_once import MKDOCS_VERSIONS

_PROBES = (".hidden", "folder/.hidden")
_MKDOCS_FILTER = ("mkdocs.structure.files", "Files.add_files_from_theme.<locals>.filter")


def hide_dotted(theme: Any) -> None:
    """Have `theme.get_env()` (an mkdocs Theme) give environments whose filtered listing skips the
    paths with a dotted part (see the module); nothing with another mkdocs version."""
    if mkdocs.__version__ not in MKDOCS_VERSIONS:
        return
    made = theme.get_env

    def get_env() -> Environment:
        env: Environment = made()
        if type(env.loader) is FileSystemLoader:
            env.list_templates = partial(_list_templates, env, env.list_templates)  # type: ignore[method-assign]
        return env

    theme.get_env = get_env


def _list_templates(
    env: Environment,
    jinja_list: Callable[..., list[str]],
    extensions: Collection[str] | None = None,
    filter_func: Callable[[str], bool] | None = None,
) -> list[str]:
    """`Environment.list_templates`, without walking hidden files and folders when `filter_func` is
    mkdocs' filter of theme files, which refuses them all."""
    if extensions is not None or filter_func is None or not _mkdocs_filter(filter_func):
        return jinja_list(extensions=extensions, filter_func=filter_func)
    assert isinstance(env.loader, FileSystemLoader)
    return [name for name in visible_templates(env.loader) if filter_func(name)]


def _mkdocs_filter(filter_func: Callable[[str], bool]) -> bool:
    named = (getattr(filter_func, "__module__", None), getattr(filter_func, "__qualname__", None))
    return named == _MKDOCS_FILTER and not any(filter_func(probe) for probe in _PROBES)


def visible_templates(loader: FileSystemLoader) -> list[str]:
    """`FileSystemLoader.list_templates` without the files whose path has a part starting with a dot
    (hidden folders are not walked)."""
    found: set[str] = set()
    for searchpath in loader.searchpath:
        for dirpath, dirnames, filenames in os.walk(searchpath, followlinks=loader.followlinks):
            dirnames[:] = [name for name in dirnames if not name.startswith(".")]
            prefix = dirpath[len(searchpath) :].strip(os.path.sep).replace(os.path.sep, "/")
            for filename in filenames:
                if not filename.startswith("."):
                    found.add(f"{prefix}/{filename}" if prefix else filename)
    return sorted(found)


__all__ = ["hide_dotted", "visible_templates"]

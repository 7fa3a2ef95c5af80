"""Staged site pages as their authors wrote them: each table wopgen wrote as HTML (named on the page
by a comment, its HTML in `tables.json`) read back into the pipe table it stands for, so tests can
state a row as the template writes it."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import markdown  # type: ignore[import-untyped]
from mkdocs.utils.yaml import yaml_load

from wopgen.generate.site import BASE_CONFIG
from wopgen.generate.site.tables import TABLES

_COMMENT = re.compile(r"<!-- wopgen-table:([0-9a-f]+) -->")
_ROW = re.compile(r"<tr>\n(.*?)\n</tr>", re.S)
_CELL = re.compile(r"<t[hd]>(.*?)</t[hd]>")
_CODE = re.compile(r"<code>(.*?)</code>")
_OPEN = re.compile(r'<a href="([^"]*)">')
_PART = re.compile(r'(<code>.*?</code>|<a href="[^"]*">|</a>)')


def _markdown(cell: str) -> str:
    out, href = [], ""
    for part in _PART.split(cell):
        code, link = _CODE.fullmatch(part), _OPEN.fullmatch(part)
        if code:
            out.append(f"`{html.unescape(code[1])}`")
        elif link:
            out.append("[")
            href = link[1]
        elif part == "</a>":
            out.append(f"]({href})")
        else:
            out.append(html.unescape(part).replace("|", "\\|"))
    return "".join(out)


def table_markdown(table: str) -> str:
    """The pipe table of an HTML table written by `wopgen.generate.site.tables`."""
    rows = [[_markdown(cell) for cell in _CELL.findall(row)] for row in _ROW.findall(table)]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows[1:]])


def staged(tree: dict[str, str | bytes]) -> dict[str, str]:
    """The staging tree as text, its pages' HTML tables read back into pipe tables."""
    tables = json.loads(tree.get(TABLES, "{}"))
    out = {}
    for path, value in tree.items():
        text = value if isinstance(value, str) else value.decode()
        if path.endswith(".md"):
            text = _COMMENT.sub(lambda m: table_markdown(tables[m[1]]), text)
        out[path] = text
    return out


def base_markdown() -> markdown.Markdown:
    """Python-Markdown with the extensions and settings of the base configuration, as mkdocs runs it."""
    with BASE_CONFIG.open(encoding="utf-8") as stream:
        config = yaml_load(stream)
    names: list[str] = []
    settings: dict[str, Any] = {}
    for entry in config["markdown_extensions"]:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
        names.append(name)
        if options:
            settings[name] = options
    return markdown.Markdown(extensions=names, extension_configs=settings)


def api_nav(tree: dict[str, Any]) -> list[Any]:
    """The entries under "API" in the navigation of a staging tree's mkdocs.yml."""
    nav = yaml_load(str(tree["mkdocs.yml"]).split("INHERIT:", 1)[1].split("\n", 1)[1])["nav"]
    return list(next(item["API"] for item in nav if "API" in item))

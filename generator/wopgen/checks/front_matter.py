"""Front matter rules: what a page's front matter asks of the docs site, held against what the site
(mkdocs and its theme, mkdocs-material) does with it, so a page that passes builds as written.

The pages are those the site renders from the corpus: the prose pages, the RFCs (their front matter
goes to the top of their page) and the changelog. The front matter is the loader's reading of it,
which is mkdocs' own (`wopgen.corpus.front_matter`). Keys the site does not read are left alone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

from wopgen.checks.site_theme import STATUSES, Theme, site_theme
from wopgen.corpus import Corpus
from wopgen.corpus.front_matter import MULTIMARKDOWN, FrontMatter
from wopgen.corpus.markdown import MarkdownDoc
from wopgen.diagnostics import Diagnostic, define

INVALID = define(
    "doc-front-matter-invalid",
    "error",
    "A page's front matter is not a YAML mapping the site can read, does not start on the first line "
    "(either way the site shows it as text), or gives a key twice.",
)
IMPLICIT = define(
    "doc-front-matter-implicit",
    "error",
    "A page's first lines read as key: value metadata, which the site takes off the page, instead of "
    "front matter between --- lines.",
)
TEMPLATE = define(
    "doc-front-matter-template",
    "error",
    "A page's front matter names a template the site's theme does not render pages with.",
)
VALUE = define(
    "doc-front-matter-value",
    "error",
    "A front matter key the site reads (title, description, author, subtitle, hide, search, status, "
    "icon, tags) holds a value of the wrong kind, or one the theme does not know.",
)

Problem = tuple[str, str]  # what is wrong, how to fix it


def site_pages(corpus: Corpus) -> list[MarkdownDoc]:
    """The corpus pages the site renders (prose pages, RFCs, the changelog), by path."""
    pages = [*corpus.docs.values(), *(rfc.doc for rfc in corpus.rfcs.values())]
    if corpus.changelog is not None:
        pages.append(corpus.changelog)
    return sorted(pages, key=lambda page: page.path)


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    for page in site_pages(corpus):
        if page.front_matter is not None:
            yield from _page(page.path, page.front_matter)


def _page(path: str, front: FrontMatter) -> Iterator[Diagnostic]:
    if front.problem is not None:
        yield INVALID.at(
            path,
            front.line,
            f"front matter {front.problem}, so the site shows it on the page as text",
            "write front matter as key: value lines between a --- line on the page's first line and the next --- "
            "line; if the lines are meant as text, start the page with its # title",
            col=front.col,
        )
        return
    if front.form == MULTIMARKDOWN:
        yield IMPLICIT.at(
            path,
            1,
            f"the page opens with lines the site reads as metadata ({', '.join(front.keys)}) and takes off the page",
            "for metadata, put the lines between two --- lines; for text, start the page with its # title",
        )
        return
    for duplicate in front.duplicates:
        yield INVALID.at(
            path,
            duplicate.line,
            f"front matter gives {duplicate.key!r} twice (first on line {duplicate.first}); "
            "the site keeps only this one",
            "give each key once",
        )
    for key, value in front.data.items():
        judge = _KEYS.get(key) if isinstance(key, str) else None
        problem = judge(value) if judge is not None else None
        if problem is not None:
            rule = TEMPLATE if key == "template" else VALUE
            yield rule.at(path, front.line_of(key), problem[0], problem[1])


def _theme() -> Theme:
    from wopgen.templates import site_config  # (it imports Jinja: only for a page that names a template or icon)

    return site_theme(site_config())


def _kind(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"{str(value).lower()} (YAML reads yes, no, on, off, true and false as true or false)"
    if isinstance(value, (int, float)):
        return "a number (the site writes it as Python does: 1.10 as 1.1, 010 as 8)"
    if isinstance(value, (dt.date, dt.datetime)):
        return "a date (the site writes it as Python does: 2026-5-1 as 2026-05-01)"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


def _template(value: Any) -> Problem | None:
    theme = _theme()
    choices = ", ".join(sorted(theme.page_templates))
    hint = f"leave template out (a page gets main.html) or name one of: {choices}"
    if not isinstance(value, str):
        return f"template must name a file of the theme, not be {_kind(value)}", hint
    if theme.page_template(value):
        return None
    if theme.has(value):
        return f"template {value!r} is a file of the site's theme, but not one it renders a page with", hint
    return f"template {value!r} is not a template of the site's theme", hint


def _text(key: str) -> Callable[[Any], Problem | None]:
    def judge(value: Any) -> Problem | None:
        if isinstance(value, str):
            return None
        return (
            f"{key} must be text, not {_kind(value)}",
            f'write {key}: "..." (quotes keep YAML from reading a number, a date or yes/no), or leave the key out',
        )

    return judge


def _hide(value: Any) -> Problem | None:
    hidden = _theme().hidden
    hint = f"write a list such as hide: [toc]; the theme hides: {', '.join(hidden)}"
    if not isinstance(value, list):
        return f"hide must be a list of the parts to hide, not {_kind(value)}", hint
    unknown = [item for item in value if item not in hidden]
    if unknown:
        return f"hide names {', '.join(repr(item) for item in unknown)}, which the theme does not hide", hint
    return None


def _search(value: Any) -> Problem | None:
    hint = "write search: {exclude: true} to leave the page out of search, or search: {boost: 2} to rank it higher"
    if not isinstance(value, dict):
        return f"search must be a mapping, not {_kind(value)}", hint
    if "exclude" in value and not isinstance(value["exclude"], bool):
        return f"search: exclude must be true or false, not {_kind(value['exclude'])}", hint
    boost = value.get("boost")
    if "boost" in value and (isinstance(boost, bool) or not isinstance(boost, (int, float))):
        return f"search: boost must be a number, not {_kind(boost)}", hint
    return None


def _status(value: Any) -> Problem | None:
    hint = f"write status: {' or status: '.join(STATUSES)}, or leave the key out"
    if not isinstance(value, str):
        return f"status must be {' or '.join(STATUSES)}, not {_kind(value)}", hint
    if value in STATUSES:
        return None
    return f"status {value!r} is not one the theme shows (it shows {' and '.join(STATUSES)})", hint


def _icon(value: Any) -> Problem | None:
    hint = "name an icon of the theme by its path under .icons without .svg, such as material/file-document"
    if not isinstance(value, str):
        return f"icon must name an icon of the theme, not be {_kind(value)}", hint
    if _theme().icon(value):
        return None
    return f"icon {value!r} is not an icon of the site's theme", hint


def _tags(value: Any) -> Problem | None:
    hint = "write a list of words, such as tags: [events, gates]"
    if not isinstance(value, list):
        return f"tags must be a list, not {_kind(value)}", hint
    odd = [item for item in value if isinstance(item, bool) or not isinstance(item, (str, int, float)) or item == ""]
    if odd:
        return f"tags holds {', '.join(_kind(item) if item != '' else 'empty text' for item in odd)}", hint
    return None


# The keys the site reads and what each must hold: mkdocs reads `template` and `title`; the theme
# reads the others (`search` and `tags` through its search plugin, into the search index).
_KEYS: dict[str, Callable[[Any], Problem | None]] = {
    "template": _template,
    "title": _text("title"),
    "description": _text("description"),
    "author": _text("author"),
    "subtitle": _text("subtitle"),
    "hide": _hide,
    "search": _search,
    "status": _status,
    "icon": _icon,
    "tags": _tags,
}

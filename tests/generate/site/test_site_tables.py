"""Pipe tables wopgen writes as HTML itself: the same HTML as Python-Markdown's, the same links and
search index in the built site, and a broken link or anchor in one fails the build as in Markdown."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.site_pages import base_markdown
from wopgen.catalogue import catalogue
from wopgen.corpus import load
from wopgen.corpus.settings import load_settings
from wopgen.generate import site
from wopgen.generate.site import render
from wopgen.generate.site import tables as site_tables
from wopgen.generate.site.build import SiteBuildError, build
from wopgen.generate.site.page_hook import search_text
from wopgen.generate.site.tables import TABLES, NotPlain, Tables, table_html

REPO = Path(__file__).resolve().parents[3]
EXTERNAL = REPO.parent / "shared" / "external" / "openwop-v1"

# Cells written as HTML here: code spans, links (labels with code), `\|`, brackets that make no
# link, a lone `*` or `_`, `_` inside words, entities, `&`, `<` before a space, `>`.
WRITTEN = [
    "plain words, digits 1.5 and — dashes",
    "`agent.verified` and `a<b>&c`",
    "[name](#def-name)",
    "[`run-event` `/$defs/X`](../schemas/run-event.md#def-X), [Run events](run-events.md#event-types)",
    "a \\| b `x\\|y`",
    "in [0, 1], ids [a] and [b]",
    "eval.* payloads",
    "snake_case_name",
    "a _lone underscore",
    "&lt;schema-name>/valid/ &amp; R&D",
    "endLine < line, x -> y",
    '{"type": "object"} as text',
    "",
]
# Cells left to Markdown: emphasis, raw HTML, an autolink, an image, an attribute list, a link
# with a title or spaces, backslash escapes, double backticks, inline highlighting, a tab.
KEPT = [
    "*a* b",
    "**strong**",
    "_a_ b",
    "x <span>y</span>",
    "<https://example.com>",
    "![i](x.png)",
    "`x`{: .c }",
    "[a](b){: .c }",
    "end {: .c }",
    '[a](b "title")',
    "[a](b c)",
    "\\*not emphasis\\*",
    "``a`b``",
    "`#!python x`",
    "a\tb",
    "[a]b](c)",
]


def _table(cell: str) -> str:
    return f"| One | Two |\n|---|---|\n| {cell} | `x` |\n| y | {cell} |"


@pytest.mark.parametrize("cell", WRITTEN)
def test_cells_of_code_links_and_text_are_written_as_python_markdown_writes_them(cell: str) -> None:
    text = _table(cell)
    assert table_html(text.split("\n")) == base_markdown().convert(text)


@pytest.mark.parametrize("cell", KEPT)
def test_cells_with_other_markdown_leave_the_table_to_markdown(cell: str) -> None:
    with pytest.raises(NotPlain):
        table_html(_table(cell).split("\n"))


def _markdown_tables(tree: dict[str, str | bytes]) -> list[str]:
    """Every pipe table of the staged pages, as Markdown."""
    found = []
    for path, text in tree.items():
        if path.endswith(".md") and isinstance(text, str):
            lines = text.split("\n")
            found += ["\n".join(row.rstrip(" ") for row in lines[a:b]) for a, b in site_tables._blocks(lines)]
    return found


def _same_as_markdown(tree: dict[str, str | bytes]) -> tuple[int, list[str]]:
    written, different = 0, []
    converter = base_markdown()
    for table in _markdown_tables(tree):
        try:
            html = table_html(table.split("\n"))
        except NotPlain:
            continue
        written += 1
        converter.reset()
        if html != converter.convert(table):
            different.append(table)
    return written, different


def test_every_table_of_the_repository_site_is_written_as_markdown_would(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Tables, "place", lambda self, markdown: markdown)  # the pages as Markdown
    written, different = _same_as_markdown(render(load(REPO), rules=catalogue()))
    assert written > 150 and different == []


@pytest.mark.skipif(not EXTERNAL.is_dir(), reason="the published corpus is not next to the repository")
def test_every_table_of_the_published_corpus_is_written_as_markdown_would(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Tables, "place", lambda self, markdown: markdown)
    settings = load_settings(EXTERNAL, REPO / "examples/openwop-v1.toml")
    written, different = _same_as_markdown(render(load(EXTERNAL, settings), rules=catalogue()))
    assert written > 300 and different == []


def test_only_tables_markdown_would_read_as_tables_are_replaced() -> None:
    table = "| a | b |\n|---|---|\n| `c` | d |"
    tables = Tables()
    assert tables.place(f"# T\n\n{table}\n\nAfter.\n").split("\n")[2].startswith("<!-- wopgen-table:")
    kept = [
        f"# T\n\n```md\n{table}\n```\n",  # in a fence
        f"# T\n\n!!! note\n\n    {table.replace(chr(10), chr(10) + '    ')}\n",  # indented
        f"# T\nText.\n{table}\n",  # no blank line before it: part of a paragraph
        f"# T\n\n{table}\nText.\n",  # a line that is no row
        f"# T\n\n<div markdown>\n\n{table}\n\n</div>\n",  # a page with raw HTML
        f"# T\n\n[c]: https://example.com\n\n{table}\n",  # a page with reference definitions
        f"# T\n\n- item\n\n    [c]: https://example.com\n\n{table}\n",  # ... one in a list item
        f"# T\n\n> [c]: https://example.com\n\n{table}\n",  # ... in a quote
        f"# T\n\n!!! note\n    [c]: https://example.com\n\n{table}\n",  # ... in an admonition
        f"# T\n\nTerm\n:   [c]: https://example.com\n\n{table}\n",  # ... in a definition
        "# T\n\n| a | b |\n|:--|---|\n| c | d |\n",  # an aligned column
    ]
    for page in kept:
        assert tables.place(page) == page, page
    assert len(tables.html) == 1


def test_a_tables_search_text_is_indexed_as_the_table() -> None:
    from material.plugins.search.plugin import Parser  # type: ignore[import-untyped]  # the package ships no annotations

    table = table_html(_table("[`a.b`](x.md) c `d` [e](y.md)").split("\n")).replace(
        "<td>y</td>", '<td><a href="z/">y</a> <code>q</code></td><td></td>'
    )
    indexed = []
    for body in (table, search_text(table)):
        parser = Parser()
        parser.feed(f'<h2 id="s">S</h2>\n<p>Before.</p>\n{body}\n<p>After.</p>\n')
        parser.close()
        indexed.append("".join(parser.data[-1].text))
    assert indexed[0] == indexed[1] and "<code>a.b</code> c" in indexed[0]
    assert search_text(table).count("<") < table.count("<") / 3


def _with_table(files: dict[str, Any]) -> None:
    files["spec/v1/overview.md"] += (
        "\n| Item | Where |\n|---|---|\n"
        "| `thing` | [the schema](../../schemas/thing.schema.json), [events](#events) |\n"
        "| RFC | [its summary](../rfcs/0001-things.md#summary) |\n"
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_site_with_html_tables_is_the_site_mkdocs_made_of_markdown_tables(
    make_corpus: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = load(make_corpus(_with_table))
    staged = render(corpus, rules=catalogue())
    assert "wopgen-table:" in str(staged["docs/spec/v1/overview.md"]) and "wopgen-table:" in str(
        staged["docs/schemas/thing.md"]
    )
    build(corpus, tmp_path / "html", rules=catalogue())
    monkeypatch.setattr(Tables, "place", lambda self, markdown: markdown)
    build(corpus, tmp_path / "markdown", rules=catalogue())
    html, markdown = _files(tmp_path / "html"), _files(tmp_path / "markdown")
    assert html == markdown  # every page, every link, the search index
    overview = html["spec/v1/overview/index.html"].decode()
    assert '<a href="../../../schemas/thing/">the schema</a>, <a href="#events">events</a>' in overview
    assert '<a href="../../../rfcs/0001-things/#summary">its summary</a>' in overview
    index = json.loads(html["search/search_index.json"])
    assert any("<code>thing</code> the schema, events" in doc["text"] for doc in index["docs"])


def test_a_broken_anchor_in_a_table_fails_the_build(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    def edit(files: dict[str, Any]) -> None:
        _with_table(files)
        files["spec/v1/overview.md"] = files["spec/v1/overview.md"].replace(
            "summary](../rfcs/0001-things.md#summary)", "summary](../rfcs/0001-things.md#gone)"
        )  # in the table only: the page's own paragraph keeps its good link

    corpus = load(make_corpus(edit))
    assert "0001-things.md#gone" in "".join(json.loads(render(corpus, rules=catalogue())[TABLES]).values())
    with pytest.raises(SiteBuildError) as refused:
        build(corpus, tmp_path / "site", rules=catalogue())
    said = str(refused.value)
    assert (
        "Doc file 'spec/v1/overview.md' contains a link '../../rfcs/0001-things.md#gone', "
        "but the doc 'rfcs/0001-things.md' does not contain an anchor '#gone'." in said
    )
    assert not (tmp_path / "site").exists()


def test_a_link_to_a_missing_page_in_a_table_fails_the_build(
    make_corpus: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = load(make_corpus(_with_table))
    rendered = site.render

    def broken(*args: Any, **kwargs: Any) -> dict[str, str | bytes]:
        tree = rendered(*args, **kwargs)
        tables = str(tree[TABLES])
        assert '"../../schemas/thing.md"' in tables.replace('\\"', '"')
        tree[TABLES] = tables.replace("../../schemas/thing.md", "../../schemas/nothing.md")
        return tree

    monkeypatch.setattr(site, "render", broken)
    with pytest.raises(SiteBuildError) as refused:
        build(corpus, tmp_path / "site", rules=catalogue())
    assert (
        "Doc file 'spec/v1/overview.md' contains a link '../../schemas/nothing.md', "
        "but the target 'schemas/nothing.md' is not found among documentation files." in str(refused.value)
    )


def test_a_table_the_staging_tree_lost_fails_the_build(
    make_corpus: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A comment naming HTML that `tables.json` does not hold is a warning (so a strict build fails), not
    a table silently left out of the page."""
    corpus = load(make_corpus(_with_table))
    rendered = site.render

    def lost(*args: Any, **kwargs: Any) -> dict[str, str | bytes]:
        tree = rendered(*args, **kwargs)
        assert json.loads(tree[TABLES])
        tree[TABLES] = "{}"
        return tree

    monkeypatch.setattr(site, "render", lost)
    with pytest.raises(SiteBuildError) as refused:
        build(corpus, tmp_path / "site", rules=catalogue())
    assert "spec/v1/overview.md: the staged HTML named <!-- wopgen-table:" in str(refused.value)
    assert not (tmp_path / "site").exists()

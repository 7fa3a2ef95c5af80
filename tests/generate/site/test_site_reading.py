"""What makes the site pleasant to read: identifiers that wrap at dots and slashes, schema pages
titled by their schema's title, one nav entry per concept, a compact RFC card, examples on every
API operation, an offline interactive API page, repository and edit links and a version label."""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from support.site_pages import staged
from wopgen.catalogue import catalogue
from wopgen.corpus import load
from wopgen.corpus.settings import SettingsError
from wopgen.generate.site import render
from wopgen.generate.site.page_hook import (
    BLOCKS,
    card_row_headers,
    name_tasks,
    on_page_context,
    on_page_markdown,
    wrap_identifiers,
)
from wopgen.generate.site.tables import TABLES

REPO = Path(__file__).resolve().parents[3]


def _text(tree: dict[str, str | bytes], path: str) -> str:
    """A staged file as text, each table of a page as the pipe table it stands for."""
    return staged({path: tree[path], TABLES: tree.get(TABLES, "{}")})[path]


def _nav(tree: dict[str, str | bytes]) -> list[Any]:
    config = _text(tree, "mkdocs.yml")
    return list(yaml.safe_load(config.split("INHERIT:", 1)[1].split("\n", 1)[1])["nav"])


def _siblings(nav: list[Any]) -> Iterator[list[str]]:
    names = [next(iter(item)) for item in nav if isinstance(item, dict)]
    yield names
    for item in nav:
        if isinstance(item, dict) and isinstance(next(iter(item.values())), list):
            yield from _siblings(next(iter(item.values())))


def test_identifiers_break_only_after_dots_and_slashes() -> None:
    html = (
        "<td><code>agent.invocation.started</code></td><p><code>schemas/run-event.schema.json</code></p>"
        '<pre><code class="x">a.b</code></pre><code>plain</code>'
    )
    out = wrap_identifiers(html)
    assert "<code>agent.<wbr>invocation.<wbr>started</code>" in out
    assert "<code>schemas/<wbr>run-event.<wbr>schema.<wbr>json</code>" in out
    assert '<pre><code class="x">a.b</code></pre>' in out and "<code>plain</code>" in out
    css = _text(render(load(REPO), rules=catalogue()), "docs/assets/wop.css")
    assert re.search(r":not\(pre\) > code \{\s*word-break: normal;\s*overflow-wrap: normal;", css)


def test_schema_pages_use_schema_titles_and_the_nav_has_one_entry_per_concept() -> None:
    tree = render(load(REPO), rules=catalogue())
    assert _text(tree, "docs/schemas/run-event-payloads.md").startswith("# RunEventPayloads\n")
    assert "[run-event-payloads](run-event-payloads.md) | `RunEventPayloads`" in _text(tree, "docs/schemas/index.md")
    nav = _nav(tree)
    for names in _siblings(nav):
        lowered = [n.lower() for n in names]
        assert len(lowered) == len(set(lowered)), names
    schemas = next(item["Schemas"] for item in nav if "Schemas" in item)
    assert schemas == ["schemas/index.md", {"Event catalogue": "events.md"}, {"Capabilities": "capabilities.md"}]


def _with_blocks(tree: dict[str, str | bytes], path: str, staging: Path) -> str:
    """The page as the hook hands it to the theme: each code block the page names put in place."""
    (staging / BLOCKS).write_text(_text(tree, BLOCKS), encoding="utf-8")
    page = SimpleNamespace(content=_text(tree, path))
    on_page_context({}, page, SimpleNamespace(config_file_path=str(staging / "mkdocs.yml")), None)
    return str(page.content)


def test_every_api_operation_shows_answer_examples_from_the_corpus(tmp_path: Path) -> None:
    corpus = load(REPO)
    tree = render(corpus, rules=catalogue())
    page = html.unescape(re.sub(r"<[^>]+>", "", _with_blocks(tree, "docs/api/index.md", tmp_path)))
    sections = page.split("\n### ")[1:]
    assert sections
    for section in sections:
        assert '??? example "2' in section, section.splitlines()[0]  # a success answer example
    create = next(s for s in sections if s.startswith("`POST /v1/runs`"))
    assert '??? example "Request example"' in create
    first = sorted((REPO / "schemas/examples/run-create-request/valid").glob("*.json"))[0]
    example = json.loads(first.read_text(encoding="utf-8"))
    assert json.dumps(example, indent=2, ensure_ascii=False).splitlines()[1].strip() in create


def test_the_rfc_card_labels_head_their_rows() -> None:
    """The card's labels are row headers, its empty header row gone; other tables are left alone."""
    card = (
        '<div class="wop-card">\n<table>\n<thead>\n<tr>\n<th></th>\n<th></th>\n</tr>\n</thead>\n<tbody>\n'
        '<tr>\n<td><strong>Status</strong></td>\n<td><span class="wop-badge">Accepted</span></td>\n</tr>\n'
        "<tr>\n<td><strong>Withdrawal note</strong></td>\n<td>See <strong>this</strong>.</td>\n</tr>\n"
        "</tbody>\n</table>\n"
    )
    other = "<table>\n<tbody>\n<tr>\n<td><strong>Field</strong></td>\n<td>x</td>\n</tr>\n</tbody>\n</table>"
    out = card_row_headers(card + "</div>\n" + other)
    assert "<thead>" not in out.split("</div>")[0]
    assert '<tr>\n<th scope="row">Status</th>\n<td><span class="wop-badge">Accepted</span></td>' in out
    assert '<tr>\n<th scope="row">Withdrawal note</th>\n<td>See <strong>this</strong>.</td>' in out
    assert out.endswith(other)
    css = _text(render(load(REPO), rules=catalogue()), "docs/assets/wop.css")
    assert '.wop-card th[scope="row"]' in css and "thead { display: none; }" not in css


def test_a_task_list_checkbox_is_named_by_its_item() -> None:
    box = '<label class="task-list-control"><input type="checkbox" disabled{}/><span class="task-list-indicator"></span></label>'
    page = (
        f'<ul class="task-list">\n<li class="task-list-item">{box.format(" checked")} <code>a.<wbr>md</code> &amp; "b"</li>\n'
        f'<li class="task-list-item">{box.format("")} Outer\n<ul>\n<li>inner</li>\n</ul>\n</li>\n'
        f'<li class="task-list-item">{box.format("")}</li>\n</ul>'
    )
    out = name_tasks(page)
    assert '<input type="checkbox" aria-label="a.md &amp; &quot;b&quot;" disabled checked/>' in out
    assert '<input type="checkbox" aria-label="Outer" disabled/>' in out
    assert out.count("aria-label") == 2  # an item with no text keeps its checkbox as it was
    assert name_tasks(out) == out


def test_the_interactive_api_page_is_offline() -> None:
    tree = render(load(REPO), rules=catalogue())
    page = _text(tree, "docs/api/try.md")
    assert 'id="swagger-ui"' in page
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and not [s for s in sources if s.startswith(("http:", "https:", "//"))]
    assert isinstance(tree["docs/assets/swagger-ui/swagger-ui-bundle.js"], bytes)
    spec = json.loads(_text(tree, "docs/api/openapi.try.json"))
    assert spec["paths"] and "jsonSchemaDialect" not in spec
    assert b"Apache License" in bytes(tree["docs/assets/swagger-ui/LICENSE"])  # type: ignore[arg-type]
    nav = _nav(tree)
    api = next(item["API"] for item in nav if "API" in item)
    assert {"Try it": "api/try.md"} in api


def _site_table(files: dict[str, Any], table: str) -> None:
    files["pyproject.toml"] += "\n[tool.wopgen.site]\n" + table


def test_the_version_label_names_the_corpus_site_title(make_corpus: Callable[..., Path]) -> None:
    # the footer named the base configuration's site_name (OpenWOP v1) on every corpus
    def edit(files: dict[str, Any]) -> None:
        files["pyproject.toml"] = files["pyproject.toml"].replace(
            "[tool.wopgen]\n", '[tool.wopgen]\nsite-title = "Acme Protocol"\n'
        )
        _site_table(files, 'version = "2.0.0"\n')

    config = _text(render(load(make_corpus(edit)), rules=catalogue()), "mkdocs.yml")
    assert 'site_name: "Acme Protocol"' in config
    assert 'copyright: "Acme Protocol · version 2.0.0"' in config


def test_repository_edit_links_and_version_come_from_settings(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus(
        lambda files: _site_table(
            files, 'repo-url = "https://example.org/wop"\nedit-uri = "edit/main/spec/"\nversion = "1.2.0"\n'
        )
    )
    tree = render(load(root), rules=catalogue())
    config = _text(tree, "mkdocs.yml")
    assert 'repo_url: "https://example.org/wop"' in config and 'edit_uri: "edit/main/spec/"' in config
    assert 'copyright: "OpenWOP v1 · version 1.2.0"' in config
    sources = json.loads(_text(tree, "sources.json"))
    assert sources["schemas/thing.md"] == "schemas/thing.schema.json"
    assert sources["rfcs/0001-things.md"] == "spec/rfcs/0001-things.md"
    staging = root / "staging"
    staging.mkdir()
    (staging / "sources.json").write_text(_text(tree, "sources.json"), encoding="utf-8")
    page = SimpleNamespace(file=SimpleNamespace(src_uri="schemas/thing.md"), edit_url="wrong", meta={})
    config_view = {"repo_url": "https://example.org/wop", "edit_uri": "edit/main/spec/"}
    settings = SimpleNamespace(get=config_view.get, config_file_path=str(staging / "mkdocs.yml"))
    on_page_markdown("", page, settings, None)
    assert page.edit_url == "https://example.org/wop/edit/main/spec/schemas/thing.schema.json"
    page = SimpleNamespace(file=SimpleNamespace(src_uri="rules.md"), edit_url="wrong", meta={})
    on_page_markdown("", page, settings, None)
    assert page.edit_url is None  # a page made from many files has no single file to edit
    # Without settings: no repository link, no edit link, the base site name.
    plain = _text(render(load(make_corpus()), rules=catalogue()), "mkdocs.yml")
    assert "repo_url" not in plain and "copyright" not in plain


def test_the_repository_link_asks_no_other_host_for_facts(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    """With a GitHub repository named, the theme's script fetched its stars and release from
    api.github.com on every page (and failed offline); the link itself stays."""
    from wopgen.generate.site.build import build

    root = make_corpus(lambda files: _site_table(files, 'repo-url = "https://github.com/example/wop"\n'))
    out = tmp_path / "site"
    build(load(root), out, rules=catalogue())
    for page in ("index.html", "404.html", "rfcs/index.html"):
        text = (out / page).read_text(encoding="utf-8")
        assert '<a href="https://github.com/example/wop" title="Go to repository" class="md-source">' in text, page
        assert 'data-md-component="source"' not in text, page


def test_the_home_page_opens_with_the_description_the_settings_give(make_corpus: Callable[..., Path]) -> None:
    """A corpus titled like this repository's (the default title) is not described in this repository's words."""
    home = _text(render(load(make_corpus()), rules=catalogue()), "docs/index.md")
    assert "The specification: normative prose, the RFCs" in home and "slice" not in home
    described = make_corpus(lambda files: _site_table(files, 'description = "The Acme protocol."\n'))
    assert "The Acme protocol: normative prose, the RFCs" in _text(
        render(load(described), rules=catalogue()), "docs/index.md"
    )


@pytest.mark.parametrize(
    "table", ['repo-url = "ftp://x"\n', "version = 1\n", 'colour = "red"\n', "description = ['a']\n"]
)
def test_bad_site_settings_are_refused(make_corpus: Callable[..., Path], table: str) -> None:
    with pytest.raises(SettingsError, match=r"tool\.wopgen"):
        load(make_corpus(lambda files: _site_table(files, table)))


def test_links_are_rewritten_where_the_reader_finds_them_in_linear_time(make_corpus: Callable[..., Path]) -> None:
    """The site rewrites the links `check` reads, with the same reader: none inside a four-backtick
    fence, and a 32 KB line of `[a](` (which took the site's own link pattern 14 s) in well under a second."""

    def edit(files: dict[str, Any]) -> None:
        files["spec/v1/overview.md"] += (
            "\n````md\n```\n[inside](../rfcs/0001-things.md)\n```\n````\n\n" + "[a](" * 8000 + "\n"
        )

    corpus = load(make_corpus(edit))
    started = time.monotonic()
    page = _text(render(corpus, rules=catalogue()), "docs/spec/v1/overview.md")
    assert time.monotonic() - started < 5
    assert "[inside](../rfcs/0001-things.md)" in page  # left as written: it is code
    assert "[RFC 0001](../../rfcs/0001-things.md)" in page  # the banner's link, rewritten for the page

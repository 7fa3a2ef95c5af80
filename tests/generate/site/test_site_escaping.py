"""The site shows what contributors wrote as text: no raw HTML or script from RFCs or pages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from support.corpus_factory import rfc_text
from wopgen.catalogue import catalogue
from wopgen.corpus import load
from wopgen.generate.site import render
from wopgen.generate.site.build import watched
from wopgen.generate.site.html import _escape_parsed, escape_raw_html

RFC = "spec/rfcs/0001-things.md"
SCRIPT = "<script>alert(1)</script>"


def hostile(files: dict[str, Any]) -> None:
    text = rfc_text().replace("# RFC 0001: Things", f"# RFC 0001: Things {SCRIPT}", 1)
    text = text.replace(
        "| **Author(s)** | A. Author (@author) |", "| **Author(s)** | A. <img src=x onerror=alert(2)> |"
    )
    files[RFC] = (
        text + f'\nBody with {SCRIPT} inline.\n\n<iframe src="https://evil.example"></iframe>\n\n`{SCRIPT}` in code.\n'
    )
    overview = files["spec/v1/overview.md"] + '\n<div onclick="x()">raw</div>\n'
    # A page's H1 is its title on the home page and in the navigation too, which mkdocs shows as written.
    files["spec/v1/overview.md"] = overview.replace("# Overview", "# Overview <img src=v onerror=alert(4)> & more", 1)
    files["schemas/thing.schema.json"]["description"] = "A thing <img src=y onerror=alert(3)>."


def staged(root: Path) -> str:
    return "\n".join(
        str(v) for k, v in render(load(root), rules=catalogue()).items() if k.endswith(".md") or k.endswith(".yml")
    )


def test_rfc_titles_cells_and_bodies_are_escaped(make_corpus: Callable[..., Path]) -> None:
    text = staged(make_corpus(hostile))
    assert f"`{SCRIPT}`" in text  # code keeps its text
    text = text.replace(f"`{SCRIPT}`", "")
    assert "<script>" not in text and "<img src=" not in text and "<iframe" not in text and "<div onclick" not in text
    assert "&lt;script>" in text or "&lt;script&gt;" in text
    assert "Overview &lt;img src=v onerror=alert(4)&gt; &amp; more: spec/v1/overview.md" in text  # the nav


def test_raw_html_is_published_when_the_setting_allows_it(make_corpus: Callable[..., Path]) -> None:
    def allow(files: dict[str, Any]) -> None:
        hostile(files)
        files["pyproject.toml"] += "\n[tool.wopgen.site]\nraw-html = true\n"

    text = staged(make_corpus(allow))
    assert "<iframe" in text and "<div onclick" in text and "<img src=y" in text
    assert "Overview <img src=v onerror=alert(4)> & more: spec/v1/overview.md" in text


def test_escape_raw_html_leaves_code_alone() -> None:
    source = "a <b>x</b>\n\n```\n<b>y</b>\n```\n\n    <b>z</b>\n\n<p>\nblock\n</p>\n"
    out = escape_raw_html(source)
    assert "a &lt;b>x&lt;/b>" in out and "```\n<b>y</b>\n```" in out and "    <b>z</b>" in out
    assert "&lt;p>\nblock\n&lt;/p>" in out


def test_serve_watches_every_named_part(make_corpus: Callable[..., Path]) -> None:
    def with_api(files: dict[str, Any]) -> None:
        files["spec/api/operations.yaml"] = "operations: []\n"

    root = make_corpus(with_api)
    paths = {p.relative_to(root).as_posix() for p in watched(load(root))}
    assert {"spec/api", "schemas", "schemas/examples", "spec/rfcs", "spec/v1", "pyproject.toml"} <= paths


def test_an_impossible_rfc_date_does_not_break_the_site_date(make_corpus: Callable[..., Path]) -> None:
    from wopgen.generate.site import build_date

    def odd(files: dict[str, Any]) -> None:
        files[RFC] = rfc_text(updated="2026-13-45")

    assert build_date(load(make_corpus(odd))) == "2026-06-01"  # the changelog's date, not 2026-13-45


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="<>/!?-=aZ`\n *[]()&;:", max_size=40))
def test_text_skipped_by_the_tag_check_holds_no_raw_html(text: str) -> None:
    # The cheap check (no `<` before a letter, `/`, `!` or `?`) gives what the full parse gives.
    assert escape_raw_html(text) == _escape_parsed(text)


def test_the_configuration_is_not_read_as_markdown(make_corpus: Callable[..., Path]) -> None:
    def titled(files: dict[str, Any]) -> None:
        files["pyproject.toml"] = files["pyproject.toml"].replace(
            "[tool.wopgen]\n", '[tool.wopgen]\nsite-title = "Spec <v1> & co"\n', 1
        )

    config = str(render(load(make_corpus(titled)), rules=catalogue())["mkdocs.yml"])
    assert 'site_name: "Spec <v1> & co"' in config

"""The checker's Markdown reader and the site's Markdown agree on every link target and anchor.

Random pages (ATX and setext headings, repeated headings, inline, reference, collapsed and
shortcut links, images, code spans, indented code, ``` and ~~~ fences, four-backtick fences holding
a three-backtick line, lists, tasks, quotes, tables) are read by `parse_markdown` and rendered by
Python-Markdown with exactly the `markdown_extensions` of the site's base configuration; the links
(`<a href>`, `<img src>`) and heading ids of the HTML must be the reader's, in the same order.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any
from urllib.parse import unquote

import markdown  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mkdocs.utils.meta import get_data
from mkdocs.utils.yaml import yaml_load

from wopgen.corpus.markdown import parse_markdown, slugify
from wopgen.generate.site import BASE_CONFIG

WORDS = (
    "alpha",
    "Beta",
    "gamma-ray",
    "x_y",
    "Über",
    "naïve",
    "C++",
    "a/b",
    "2.0",
    "(note)",
    "it's",
    "`code`",
    "`<T>`",
    "**bold**",
    "*em*",
    "Run & walk",
    "«quoted»",
    "step:",
)
TARGETS = (
    "a.md",
    "../b/c.md",
    "a.md#sec-1",
    "#local",
    "#dup_1",
    "https://example.com/x?y=1&z=2",
    "d%20e.md",
    "f.md#Über",
    "schemas/run.schema.json",
)
LABELS = ("one", "Two", "ref-3")


def _site_markdown() -> Any:
    """Python-Markdown configured with the extensions (and their settings) the site is built with."""
    with open(BASE_CONFIG, encoding="utf-8") as handle:
        config = yaml_load(handle)
    names: list[str] = []
    configs: dict[str, Any] = {}
    for item in config["markdown_extensions"]:
        if isinstance(item, str):
            names.append(item)
        else:
            ((name, options),) = item.items()
            names.append(name)
            configs[name] = options or {}
    assert "toc" in names, "the site's anchors come from the toc extension"
    return markdown.Markdown(extensions=names, extension_configs=configs)


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.anchors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and "headerlink" not in (found.get("class") or ""):
            self.links.append(found.get("href") or "")
        elif tag == "img":
            self.links.append(found.get("src") or "")
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.anchors.append(found.get("id") or "")


words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
targets = st.sampled_from(TARGETS)
labels = st.sampled_from(LABELS)


@st.composite
def inline_link(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(("see", "the *spec*", "`x` here", "Über")))
    kind = draw(st.sampled_from(("inline", "titled", "reference", "collapsed", "shortcut", "image", "missing")))
    if kind == "inline":
        return f"[{text}]({draw(targets)})"
    if kind == "titled":
        return f'[{text}]({draw(targets)} "a title")'
    if kind == "reference":
        return f"[{text}][{draw(labels)}]"
    if kind in ("collapsed", "shortcut"):
        label = draw(labels)
        return f"[{label}][]" if kind == "collapsed" else f"[{label}]"
    if kind == "image":
        return f"![{text}]({draw(targets)})"
    return f"[{text}][undefined-label]"


# A word before every link: Python-Markdown reads `[a] [b]` (one space between) as one reference
# link, CommonMark as two; the corpus does not write that, and the pages here do not either.
phrases = st.one_of(words, st.tuples(words, inline_link()).map(" ".join))
sentences = st.lists(phrases, min_size=1, max_size=5).map(" ".join)
code_line = st.one_of(sentences, st.just("[a](in-code.md) and [b][one]"))


@st.composite
def block(draw: st.DrawFn, headings: list[str]) -> str:
    kind = draw(
        st.sampled_from(
            ("atx", "setext", "paragraph", "indented", "fence", "long-fence", "list", "tasks", "quote", "table")
        )
    )
    if kind in ("atx", "setext"):
        text = draw(st.one_of(words, st.sampled_from(headings)) if headings else words)
        headings.append(text)  # words only, so a repeat never puts a link right after a link
        if draw(st.booleans()):
            text += " " + draw(inline_link())  # after a word, as in sentences
        if draw(st.integers(0, 5)) == 0:
            text += " {#" + draw(st.sampled_from(("custom", "local", "dup"))) + "}"  # attr_list sets the id
        if kind == "atx":
            return "#" * draw(st.integers(1, 6)) + " " + text
        return text + "\n" + ("=" if draw(st.booleans()) else "-") * draw(st.integers(3, 8))
    if kind == "paragraph":
        return "\n".join(draw(st.lists(sentences, min_size=1, max_size=3)))
    if kind == "indented":
        return "Code follows.\n\n" + "\n".join(
            "    " + line for line in draw(st.lists(code_line, min_size=1, max_size=3))
        )
    if kind == "fence":
        mark = draw(st.sampled_from(("```", "~~~")))
        return "\n".join(
            [mark + draw(st.sampled_from(("", "text", "json"))), *draw(st.lists(code_line, max_size=3)), mark]
        )
    if kind == "long-fence":
        return "\n".join(["````markdown", "```", draw(code_line), "```", draw(code_line), "````"])
    if kind in ("list", "tasks"):
        marker = draw(st.sampled_from(("-", "*", "1.")))
        boxes = st.sampled_from(("[ ] ", "[x] ") if kind == "tasks" else ("",))
        items = draw(st.lists(st.tuples(boxes, sentences).map("".join), min_size=1, max_size=3))
        return "\n".join(f"{marker} {item}" for item in items) + "\n\nAfter the list."
    if kind == "quote":
        return "> " + draw(sentences)
    return "\n".join(["| Name | Value |", "| --- | --- |", f"| {draw(sentences)} | {draw(words)} |"])


@st.composite
def page(draw: st.DrawFn) -> str:
    headings: list[str] = []
    blocks = [draw(block(headings)) for _ in range(draw(st.integers(1, 8)))]
    definitions = [f"[{label}]: {draw(targets)}" for label in LABELS if draw(st.booleans())]
    return "\n\n".join([*blocks, "\n".join(definitions)]) + "\n"


@pytest.fixture(scope="module")
def site_markdown() -> Any:
    return _site_markdown()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=page())
@example(text="step: {#custom}\n")  # a `key: value` first line: the site's metadata, not a paragraph
def test_reader_and_site_agree_on_links_and_anchors(site_markdown: Any, text: str) -> None:
    site_markdown.reset()
    rendered = _Html()
    body, _meta = get_data(text)  # mkdocs takes front matter (and `key: value` first lines) off a page first
    rendered.feed(site_markdown.convert(body))
    doc = parse_markdown("page.md", text)
    assert [unquote(link.target) for link in doc.links] == [unquote(href) for href in rendered.links], text
    assert [heading.slug for heading in doc.headings] == rendered.anchors, text


@pytest.fixture(scope="module")
def site_slugify() -> Any:
    with open(BASE_CONFIG, encoding="utf-8") as handle:
        config = yaml_load(handle)
    (toc,) = [item["toc"] for item in config["markdown_extensions"] if isinstance(item, dict) and "toc" in item]
    return toc["slugify"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=40))
def test_slugify_is_the_site_slugify(site_slugify: Any, text: str) -> None:
    assert slugify(text) == site_slugify(" ".join(text.split()), "-")

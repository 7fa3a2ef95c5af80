"""One Markdown converter for every page of a build: each page comes out as from a converter of its
own (content, table of contents, title, anchors, links to anchors), nothing carried between pages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import markdown  # type: ignore[import-untyped]  # Python-Markdown ships no annotations
import mkdocs
import pytest
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config
from mkdocs.config.base import LegacyConfig
from mkdocs.plugins import BasePlugin, event_priority

from wopgen.generate.site import BASE_CONFIG, markdown_once
from wopgen.generate.site.markdown_once import OneConverter, applies

FENCE = "```"
# Each page uses what the others define or number (a reference definition, raw HTML, ids, code
# blocks, headings of the same title), so any state a converter kept from one page to the next
# would show on the page after it.
PAGES = {
    "a.md": f"""# Alpha

Alpha cites the [spec][shared] and ends with <span id="span-a">raw HTML</span>.

[shared]: https://example.com/from-alpha "Alpha's"

## Repeated

<div id="raw-a" markdown>
**Markdown** inside HTML.
</div>

!!! note "Note A"
    An admonition.

??? info "Details A"
    Hidden words.

- [x] done
- [ ] open

Term
:   Its definition.

{FENCE}json linenums="1"
{{"a": 1}}
{FENCE}

| h | i |
|---|---|
| `1` | 2 |

A paragraph with an id.
{{: #para-a }}

Inline `#!python print(1)` code.
""",
    "b.md": f"""# Beta

Beta names [shared] and the [spec][shared] without defining them.

## Repeated

## Repeated

{FENCE}python linenums="1"
x = 1
{FENCE}

    indented code

<div id="raw-b">raw</div>

See [alpha's note](a.md#raw-a) and [its span](a.md#span-a).
""",
    "c.md": """Gamma has no heading of its own, so its title comes from the nav.

[shared]: https://example.com/from-gamma

Its own [shared] link, and [one to beta](b.md#repeated_1).

<a name="named-c"></a>
""",
    "d.md": "",
}


class Recorder(BasePlugin[LegacyConfig]):  # type: ignore[no-untyped-call]
    """What mkdocs knows of each page once it is rendered."""

    def __init__(self) -> None:
        super().__init__()
        self.pages: dict[str, dict[str, Any]] = {}

    @event_priority(100)  # before any other plugin changes the HTML
    def on_page_content(self, html: str, page: Any, config: Any, files: Any) -> str:
        self.pages[page.file.src_uri] = {
            "html": html,
            "toc": [(i.title, i.id, i.level, [(c.title, c.id) for c in i.children]) for i in page.toc],
            "title": page.title,
            "anchors": sorted(page.present_anchor_ids),
            "links": {f.src_uri: dict(a) for f, a in (page.links_to_anchors or {}).items()},
        }
        return html


def project(root: Path, extra: str = "", *, numbered_lines: bool = False) -> Path:
    """A mkdocs project of `PAGES` with the site's base configuration (and `extra`); with
    `numbered_lines`, numbered code lines get ids, counted per page by pymdownx.highlight."""
    docs = root / "docs"
    (docs / "assets").mkdir(parents=True)
    (docs / "assets/wop.css").write_text("")
    for name, text in PAGES.items():
        (docs / name).write_text(text)
    base = BASE_CONFIG.read_text(encoding="utf-8")
    if numbered_lines:
        numbered = base.replace("anchor_linenums: false", "anchor_linenums: true\n      line_spans: __span")
        assert numbered != base
        (root / "base.yml").write_text(numbered, encoding="utf-8")
        base_file = root / "base.yml"
    else:
        base_file = BASE_CONFIG
    (root / "mkdocs.yml").write_text(f"INHERIT: {json.dumps(str(base_file))}\ndocs_dir: docs\n{extra}")
    return root / "mkdocs.yml"


def built(config_file: Path, out: Path, *plugins: BasePlugin[LegacyConfig]) -> dict[str, dict[str, Any]]:
    config = load_config(config_file=str(config_file), site_dir=str(out), strict=True)
    for index, plugin in enumerate(plugins):
        config.plugins[f"under-test-{index}"] = plugin
    seen = Recorder()
    config.plugins["recorder"] = seen
    config.plugins.on_startup(command="build", dirty=False)
    try:
        mkdocs_build(config)
    finally:
        config.plugins.on_shutdown()
    return seen.pages


def site_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


needs_known_mkdocs = pytest.mark.skipif(
    mkdocs.__version__ not in markdown_once.MKDOCS_VERSIONS, reason="the shared converter follows mkdocs 1.6 only"
)


@needs_known_mkdocs
def test_pages_from_one_converter_are_what_mkdocs_makes_of_each(tmp_path: Path) -> None:
    config_file = project(tmp_path / "project", numbered_lines=True)
    own = built(config_file, tmp_path / "own")
    one = OneConverter()
    shared = built(config_file, tmp_path / "shared", one)
    assert one.made == 1  # the pages did share it
    assert shared == own
    assert site_files(tmp_path / "shared") == site_files(tmp_path / "own")
    # what the pages are meant to prove: nothing crossed from one page to the next
    assert "https://example.com/from-alpha" not in shared["b.md"]["html"]
    assert "[shared]" in shared["b.md"]["html"]
    assert "https://example.com/from-gamma" in shared["c.md"]["html"]
    assert [(t, i) for t, i, _, _ in shared["b.md"]["toc"]] == [("Beta", "beta")]
    assert [c for _, _, _, c in shared["b.md"]["toc"]] == [[("Repeated", "repeated"), ("Repeated", "repeated_1")]]
    assert "span-a" not in shared["b.md"]["anchors"] and "raw-b" in shared["b.md"]["anchors"]
    assert shared["c.md"]["title"] == "C" and shared["d.md"]["html"] == ""
    assert 'id="__codelineno-0-1"' in shared["b.md"]["html"]  # the page's first numbered block


@needs_known_mkdocs
def test_a_converter_left_half_way_by_a_failing_page_is_not_used_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    convert = markdown.Markdown.convert
    used: list[markdown.Markdown] = []

    def failing_on_alpha(self: markdown.Markdown, source: str) -> str:
        used.append(self)
        if source.startswith("# Alpha"):
            self.references["left"] = ("https://example.com/half-way", None)
            raise RuntimeError("the extension gave up")
        return str(convert(self, source))

    monkeypatch.setattr(markdown.Markdown, "convert", failing_on_alpha)
    one = OneConverter()
    with pytest.raises(RuntimeError, match="gave up"):
        built(project(tmp_path / "project"), tmp_path / "out", one)
    assert one.converter is None and one.made == 1
    page = type("Page", (), {"markdown": "[left]", "file": None})()
    one.render(page, load_config(config_file=str(tmp_path / "project/mkdocs.yml")), None)
    assert one.made == 2 and used[-1] is not used[0]
    assert "half-way" not in page.content


def test_other_extensions_and_other_mkdocs_versions_are_left_to_mkdocs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_file = project(tmp_path / "project", "markdown_extensions:\n  - footnotes\n  - abbr\n")
    one = OneConverter()
    pages = built(config_file, tmp_path / "out", one)
    assert one.checked is False and one.made == 0
    assert set(pages) == set(PAGES)
    plain = load_config(config_file=str(project(tmp_path / "plain")))
    monkeypatch.setattr(mkdocs, "__version__", "1.7.0")
    assert not applies(plain)


@needs_known_mkdocs
def test_the_site_base_configuration_shares_one_converter(tmp_path: Path) -> None:
    assert applies(load_config(config_file=str(project(tmp_path / "project"))))

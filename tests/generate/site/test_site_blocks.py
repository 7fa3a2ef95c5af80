"""Machine-written code blocks (JSON examples): highlighted once by wopgen, put in the page after the
search plugin has read it, and shown exactly as the fence of the base configuration would be."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from support.site_pages import base_markdown
from wopgen.catalogue import catalogue
from wopgen.cli import cli
from wopgen.corpus import load
from wopgen.generate.site import render
from wopgen.generate.site.blocks import CodeBlocks
from wopgen.generate.site.page_hook import BLOCKS, on_page_context

SAMPLE = json.dumps({"name": "x<&>", "count": [1, 2.5, True, None], "nested": {"a": "b"}}, indent=2)


def _placed(text: str, blocks: CodeBlocks, staging: Path) -> str:
    (staging / BLOCKS).write_text(blocks.dumps(), encoding="utf-8")
    page = SimpleNamespace(content=text, file=SimpleNamespace(src_uri="page.md"))
    on_page_context({}, page, SimpleNamespace(config_file_path=str(staging / "mkdocs.yml")), None)
    return str(page.content)


def test_a_block_reads_as_the_fence_of_the_base_configuration(tmp_path: Path) -> None:
    blocks = CodeBlocks()
    page = blocks.place(f"# Page\n\nBefore.\n\n{blocks.add(SAMPLE)}\n\nAfter.\n")
    assert "```" not in page and SAMPLE not in page  # the page names the block, it does not hold it
    converted = base_markdown().convert(page)
    fenced = base_markdown().convert(f"# Page\n\nBefore.\n\n```json\n{SAMPLE}\n```\n\nAfter.\n")
    assert _placed(converted, blocks, tmp_path) == fenced
    assert '<span class="nt">"name"</span>' in fenced and "x&lt;&amp;&gt;" in fenced


def test_a_block_inside_a_collapsed_example_is_placed_there(tmp_path: Path) -> None:
    blocks = CodeBlocks()
    page = blocks.place(f'??? example "Request example"\n\n    {blocks.add(SAMPLE)}\n')
    fenced = base_markdown().convert(
        f'??? example "Request example"\n\n    ```json\n    {SAMPLE.replace(chr(10), chr(10) + "    ")}\n    ```\n'
    )
    assert _placed(base_markdown().convert(page), blocks, tmp_path) == fenced


def test_only_the_marks_of_known_blocks_are_replaced(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocks = CodeBlocks()
    mark = blocks.add(SAMPLE)
    assert blocks.add(SAMPLE) == mark and len(blocks.html) == 1  # one highlighting per distinct text
    stranger = "\x00wopgen-block:0123456789abcdef01234567\x00"
    assert blocks.place(f"{mark}\n{stranger}\n").splitlines() == ["<!-- wopgen-block:" + mark[14:-1] + " -->", stranger]
    unknown = "<!-- wopgen-block:0123456789abcdef01234567 -->"
    assert _placed(f"<p>a</p>\n{unknown}\n", blocks, tmp_path) == f"<p>a</p>\n{unknown}\n"
    assert "page.md: the staged HTML named " + unknown + " is missing" in caplog.text  # a strict build fails


def test_built_pages_show_the_examples_and_search_skips_their_json(
    make_corpus: Callable[..., Path], tmp_path: Path
) -> None:
    root = make_corpus()
    tree = render(load(root), rules=catalogue())
    assert '"name": ""' not in str(tree["docs/schemas/thing.md"])
    out = tmp_path / "site"
    result = CliRunner().invoke(cli, ["--root", str(root), "site", "build", "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    page = (out / "schemas/thing/index.html").read_text(encoding="utf-8")
    assert (
        '<span class="nt">"name"</span><span class="p">:</span><span class="w"> </span><span class="s2">""</span>'
        in page
    )
    built = [p for p in out.rglob("*.html") if "wopgen-block" in p.read_text(encoding="utf-8")]
    assert built == []
    index = json.loads((out / "search/search_index.json").read_text(encoding="utf-8"))
    entries = {doc["location"]: doc["text"] for doc in index["docs"]}
    assert "schemas/thing/#example-invalid-empty-name" in entries  # the example's heading is found
    assert "name has minLength 1" in entries["schemas/thing/#example-invalid-empty-name"]
    assert not [text for text in entries.values() if '"name": ""' in text]  # its JSON is not indexed

"""Search entries of pages indexed by an earlier build are reused only for the same page HTML, URL,
table of contents, metadata and code: the same site and search index, damage is indexed again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from support.site_builds import built_site, edit_kept
from wopgen.generate.site.search_entries import entries_key


def test_damaged_entries_are_read_again(make_corpus: Callable[..., Path], tmp_path: Path, indexed: list[str]) -> None:
    root, cache = make_corpus(), tmp_path / "cache"
    plain = built_site(root, tmp_path / "plain", None)
    built_site(root, tmp_path / "first", cache)
    wrong: list[Any] = [
        {"location": "x"},
        [{"location": "x", "title": 5, "text": ""}],
        ["entry"],
        [{"location": "x", "title": "t", "text": "", "tags": 5}],
        [{"location": "x", "title": "t", "text": "", "boost": "high"}],
    ]
    edit_kept(cache, lambda data: data["search"].update(zip(sorted(data["search"])[: len(wrong)], wrong, strict=True)))
    indexed.clear()
    assert built_site(root, tmp_path / "again", cache) == plain
    assert len(indexed) == 5


def _page(**changes: Any) -> Any:
    item = SimpleNamespace(id="summary", url="#summary", children=[])
    page = {
        "url": "rfcs/0001/",
        "title": "RFC 0001",
        "meta": {},
        "toc": [SimpleNamespace(id="rfc", url="#rfc", children=[item])],
        "content": "<h1 id='rfc'>RFC</h1><h2 id='summary'>Summary</h2><p>Text</p>",
    }
    return SimpleNamespace(**{**page, **changes})


def test_the_entries_key_names_every_input() -> None:
    key = entries_key("code", _page())
    assert key is not None and key == entries_key("code", _page())
    other = SimpleNamespace(id="summary", url="#synopsis", children=[])
    changes = [
        entries_key("other code", _page()),
        entries_key("code", _page(url="rfcs/0002/")),
        entries_key("code", _page(title="RFC 0002")),
        entries_key("code", _page(meta={"search": {"boost": 2}})),
        entries_key("code", _page(meta={"search": {"exclude": True}})),
        entries_key("code", _page(meta={"tags": ["gates"]})),
        entries_key("code", _page(meta={"title": "Stated"})),
        entries_key("code", _page(toc=[SimpleNamespace(id="rfc", url="#rfc", children=[other])])),
        entries_key("code", _page(content="<h1 id='rfc'>RFC</h1><p>Other</p>")),
    ]
    assert None not in changes and key not in changes and len(set(changes)) == len(changes)
    assert entries_key("code", _page(meta={"tags": [object()]})) is None

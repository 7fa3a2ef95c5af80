"""What the site cache tests count: the pages Python-Markdown converts, the pages the search plugin
reads, the code blocks highlighted and the tables written as HTML, from the moment a test asks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import markdown  # type: ignore[import-untyped]  # Python-Markdown ships no annotations
import pytest
from material.plugins.search import plugin as search

from wopgen.generate.site import blocks, tables


def _record(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, note: Callable[..., str], seen: list[str]) -> None:
    """Replace `owner.name` for the test with a wrapper that appends `note(*arguments)` to `seen`
    each time the real one returns (a call that raises made nothing)."""
    real = getattr(owner, name)

    def wrapper(*args: Any) -> Any:
        answer = real(*args)
        seen.append(note(*args))
        return answer

    monkeypatch.setattr(owner, name, wrapper)


@pytest.fixture
def conversions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The first line of every page Python-Markdown converts from now on."""
    seen: list[str] = []
    _record(monkeypatch, markdown.Markdown, "convert", lambda _md, source: source.split("\n", 1)[0], seen)
    return seen


@pytest.fixture
def indexed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URL of every page the search plugin reads from now on."""
    seen: list[str] = []
    _record(monkeypatch, search.SearchIndex, "add_entry_from_context", lambda _index, page: page.url, seen)
    return seen


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What every code block highlighted and every table written as HTML (a table it cannot write,
    NotPlain, is left to mkdocs on every build and not counted) from now on was made from."""
    seen: list[str] = []
    _record(monkeypatch, blocks, "highlight", lambda text, *_rest: f"block:{text}", seen)
    _record(monkeypatch, tables, "table_html", lambda lines: f"table:{lines[0]}", seen)
    return seen

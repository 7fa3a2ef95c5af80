"""Parsed Markdown reused between runs: the same pages as a fresh parse, and only for unchanged bytes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wopgen.corpus.markdown_memo as memo_module
from support.helpers import first_arguments
from wopgen.corpus import load
from wopgen.corpus.markdown import parse_markdown
from wopgen.corpus.markdown_memo import MarkdownMemo, from_entry, to_entry

REPO = Path(__file__).resolve().parents[2]
EXTERNAL = REPO.parent / "shared/external"


def _pages() -> list[Path]:
    found = [*REPO.glob("spec/**/*.md"), *REPO.glob("*.md")]
    if EXTERNAL.is_dir():
        found += EXTERNAL.rglob("*.md")
    return sorted(found)


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.name)
def test_an_entry_gives_back_the_page_a_parse_gives(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    parsed = parse_markdown(page.name, text)
    stored = json.loads(json.dumps(to_entry(parsed)))  # through JSON, as the CLI keeps it
    assert from_entry(page.name, text, stored) == parsed


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list("#[]()`*_-:|> \n\tab1!<&{}x")), max_size=300))
def test_an_entry_gives_back_any_page(text: str) -> None:
    parsed = parse_markdown("p.md", text)
    assert from_entry("p.md", text, json.loads(json.dumps(to_entry(parsed)))) == parsed


@pytest.mark.parametrize(
    "damaged",
    [
        5,
        "text",
        [[["x", "t", "s", 1]], [], [], [], [], []],
        [[], [], [], [], []],
        {"a": 1},
        [[], [], [], [], [], ["1"]],
    ],
)
def test_a_damaged_entry_is_parsed_again(damaged: object) -> None:
    text = "# Title\n\nSee [x](y.md).\n"
    memo = MarkdownMemo({"p.md\0d1": damaged})
    assert memo.parse("p.md", text, "d1") == parse_markdown("p.md", text)
    assert memo.kept({"p.md": "d1"}) == {"p.md\0d1": to_entry(parse_markdown("p.md", text))}


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return first_arguments(monkeypatch, memo_module, "parse_markdown")


def every_page(root: Path, memo: MarkdownMemo) -> dict[str, object]:
    corpus = load(root, memo=memo)
    pages: dict[str, object] = {path: corpus.docs[path] for path in corpus.docs}
    pages.update({path: corpus.rfcs[path].doc for path in corpus.rfcs})
    return pages


def test_only_new_or_changed_pages_are_parsed(
    make_corpus: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    calls = counting(monkeypatch)
    first = MarkdownMemo()
    fresh = every_page(root, first)
    corpus = load(root)
    kept = first.kept(corpus.sources)
    assert kept is not None and calls and len(kept) == len(set(calls))
    calls.clear()
    second = MarkdownMemo(json.loads(json.dumps(kept)))
    assert every_page(root, second) == fresh and calls == []
    assert second.kept(corpus.sources) is None  # nothing to write back

    page = sorted(root.glob("spec/**/*.md"))[0]
    rel = page.relative_to(root).as_posix()
    page.write_text(page.read_text(encoding="utf-8") + "\nA new line with [a link](nowhere.md).\n", encoding="utf-8")
    third = MarkdownMemo(kept)
    changed = every_page(root, third)
    assert calls == [rel]
    assert changed[rel] == parse_markdown(rel, page.read_text(encoding="utf-8"))
    updated = third.kept(load(root).sources)
    assert updated is not None and [k for k in updated if k.startswith(rel + "\0")] != [
        k for k in kept if k.startswith(rel + "\0")
    ]


def test_pages_gone_are_dropped_and_pages_not_asked_for_kept(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    first = MarkdownMemo()
    every_page(root, first)
    kept = first.kept(load(root).sources)
    assert kept is not None
    gone = sorted(root.glob("spec/**/*.md"))[0]
    gone.unlink()
    rel = gone.relative_to(root).as_posix()
    unasked = MarkdownMemo(kept)
    load(root, memo=unasked)  # pages are parsed on first use: this run asks for none but the changelog
    left = unasked.kept(load(root).sources)
    assert left is not None
    assert not any(key.startswith(rel + "\0") for key in left)
    assert set(left) == set(kept) - {key for key in kept if key.startswith(rel + "\0")}

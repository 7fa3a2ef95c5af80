"""Where each value of a JSON text starts: the index behind every line number of a JSON finding."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wopgen.corpus.documents import JsonDoc, _index, _offset, escape_token

_KEYS = st.text(alphabet=st.sampled_from(list('ab~/"\\ é\n\t\u2028')), max_size=4)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)


def _pointers(value: Any, at: str = "") -> Iterator[tuple[str, Any]]:
    yield at, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _pointers(item, f"{at}/{escape_token(key)}")
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from _pointers(item, f"{at}/{number}")


@settings(max_examples=150, deadline=None)
@given(_VALUES, st.sampled_from([None, 0, 2]), st.booleans())
def test_every_value_is_found_where_it_starts(value: Any, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    offsets = _index(text)
    expected = dict(_pointers(value))
    assert offsets.keys() == expected.keys()
    decoder = json.JSONDecoder()
    for where, offset in offsets.items():
        assert decoder.raw_decode(text, offset)[0] == expected[where], where


def test_a_pointer_is_located_at_its_line_and_a_missing_one_at_its_nearest_ancestor() -> None:
    text = '{\n  "a/b": {\n    "x\\"y": [1,\n      2]\n  }\n}\n'
    doc = JsonDoc("f.json", text, json.loads(text))
    for _ in range(12):  # found on its own at first, then read from the index: the same answers
        assert doc.locate('/a~1b/x"y/1') == (4, 7)
        assert doc.locate("/a~1b/missing") == (2, 10)
        assert doc.locate("/elsewhere") == (1, 1)


@settings(max_examples=300, deadline=None)
@given(_VALUES, st.sampled_from([None, 0, 2]), st.data())
def test_a_pointer_found_on_its_own_is_where_the_index_has_it(value: Any, indent: int | None, data: Any) -> None:
    text = json.dumps(value, indent=indent)
    offsets = _index(text)
    known = [where for where, _ in _pointers(value)]
    asked = data.draw(
        st.lists(
            st.one_of(
                st.sampled_from(known),
                st.builds(
                    lambda at, tail: at + tail,
                    st.sampled_from(known),
                    st.sampled_from(["/0", "/00", "/9", "/x", "/~0", "/~"]),
                ),
            ),
            max_size=5,
        )
    )
    for where in asked:
        nearest = where
        while nearest not in offsets:
            nearest = nearest.rsplit("/", 1)[0]
        assert _offset(text, where) == offsets[nearest], where


@pytest.mark.parametrize("text", ["", "{", '{"a": [1,', '{"a": {"b": 1}, "c"', "nul"])
def test_a_text_that_is_not_whole_json_is_located_by_the_index(text: str) -> None:
    """A document made in memory may carry a text that is not its JSON: no lookup fails on it."""
    doc = JsonDoc("f.json", text, {})
    offsets = _index(text)
    for where in ("", "/a", "/a/0", "/a/b", "/c"):
        nearest = where
        while nearest and nearest not in offsets:
            nearest = nearest.rsplit("/", 1)[0]
        assert doc.locate(where) == (1, offsets.get(nearest, 0) + 1)  # one line: the column is the offset

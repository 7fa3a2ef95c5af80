"""Files whose text did not change are told apart from their texts: the same changes, fewer files walked."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.compat_support import corpus_files, ref, thing
from support.corpus_factory import write
from support.helpers import first_arguments
from wopgen.compat import Change, compare
from wopgen.compat.engine import _Differ
from wopgen.corpus import graph, load, model


def ring(count: int) -> dict[str, Any]:
    """`count` schemas, each referring to a definition of the next (the last to the first's), their
    directions taking turns: a change reached through a file of another direction is judged in its own."""
    return {
        f"s{n}": thing(
            {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "maxLength": 64},
                    "child": {"$ref": ref(f"s{(n + 1) % count}", "/$defs/leaf")},
                    "choice": {"oneOf": [{"$ref": "#/$defs/left"}, {"$ref": "#/$defs/right"}]},
                },
                "$defs": {
                    "leaf": {"type": "object", "properties": {"v": {"type": "integer"}}},
                    "left": {"type": "object", "properties": {"side": {"const": "left"}}},
                    "right": {"type": "object", "properties": {"side": {"const": "right"}}},
                },
            },
            direction=("client-sent", "host-emitted", "artifact")[n % 3],
            name=f"s{n}",
        )
        for n in range(count)
    }


def _tighten_id(files: dict[str, Any]) -> None:
    files["s3"]["properties"]["id"]["maxLength"] = 32


def _tighten_leaf(files: dict[str, Any]) -> None:  # a change every other file reaches through its `$ref`
    files["s3"]["$defs"]["leaf"]["properties"]["v"]["maximum"] = 9


def _retarget(files: dict[str, Any]) -> None:  # the same text in s1, but what its `$ref` names changed
    files["s2"]["$defs"]["leaf"] = {"type": "object", "properties": {"v": {"type": "string"}}}


def _with_data_ref(files: dict[str, Any]) -> None:  # a `$ref` in instance data: read from the text, not one
    files["s4"]["examples"] = [{"$ref": ref("s6", "/$defs/leaf")}]


def _data_ref(files: dict[str, Any]) -> None:  # what s4's instance data names changed; s4 did not
    files["s6"]["$defs"]["leaf"]["properties"]["v"]["minimum"] = 1


def _same(files: dict[str, Any]) -> None:
    return None


EDITS = [_tighten_id, _tighten_leaf, _retarget, _data_ref, _same]


def compared(tmp_path: Path, edit: Callable[[dict[str, Any]], None], base_edit: Any = None) -> list[Change]:
    base = ring(8)
    if base_edit is not None:
        base_edit(base)
    head = copy.deepcopy(base)
    edit(head)
    base_root = write(tmp_path / "base", corpus_files(base))
    head_root = write(tmp_path / "head", corpus_files(head))
    return compare(load(base_root), load(head_root))


@pytest.mark.parametrize("edit", EDITS, ids=[e.__name__.strip("_") for e in EDITS])
def test_reading_unchanged_files_from_their_text_changes_no_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: Callable[[dict[str, Any]], None]
) -> None:
    told = compared(tmp_path / "told", edit, _with_data_ref)
    monkeypatch.setattr(_Differ, "same_file", lambda self, bdoc, hdoc: False)
    walked = compared(tmp_path / "walked", edit, _with_data_ref)
    assert told == walked
    assert (edit is _same) == (told == [])


def test_a_change_behind_a_ref_of_an_unchanged_file_is_found(tmp_path: Path) -> None:
    changes = compared(tmp_path, _retarget)
    assert any(c.rule == "compat-type-changed" for c in changes), changes


def test_only_the_changed_files_and_what_they_reach_are_walked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    walked = first_arguments(monkeypatch, graph, "schema_objects")
    changes = compared(tmp_path, _tighten_id)
    assert [c.rule for c in changes] == ["compat-bound-tightened"]
    assert [data["$id"] for data in walked] == [ref("s3")] * 2  # the changed file on each side; none of the others


def test_a_metaschema_verdict_is_taken_over_only_for_the_same_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    judged = first_arguments(monkeypatch, model, "metaschema_accepts")

    def invalid(name: str) -> Callable[[dict[str, Any]], None]:
        def edit(files: dict[str, Any]) -> None:
            files[name]["properties"]["id"]["maxLength"] = "long"

        return edit

    changes = compared(tmp_path, invalid("s2"), invalid("s1"))
    refused = sorted((c.base or c.head).path for c in changes if c.rule == "compat-schema-invalid")  # type: ignore[union-attr]
    assert refused == ["schemas/s1.schema.json", "schemas/s1.schema.json", "schemas/s2.schema.json"]
    assert len(judged) == 8 + 1  # each base schema, then only the head's changed one

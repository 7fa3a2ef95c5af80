"""Helpers for the compat tests: two small corpora in tmp_path, compared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.corpus_factory import BASE, PYPROJECT, schema, write
from wopgen.compat import Change, compare
from wopgen.corpus import load


def corpus_files(schemas: dict[str, Any], extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """pyproject plus `schemas/<name>.schema.json` for each entry (a full schema dict)."""
    files: dict[str, Any] = {"pyproject.toml": PYPROJECT}
    for name, body in schemas.items():
        files[f"schemas/{name}.schema.json"] = body
    files.update(extra or {})
    return files


def run_compat(
    tmp_path: Path, base: dict[str, Any], head: dict[str, Any], base_extra: Any = None, head_extra: Any = None
) -> list[Change]:
    base_root = write(tmp_path / "base", corpus_files(base, base_extra))
    head_root = write(tmp_path / "head", corpus_files(head, head_extra))
    return compare(load(base_root), load(head_root))


def outcome(changes: list[Change]) -> set[tuple[str, str]]:
    return {(c.rule, c.severity.value) for c in changes}


def thing(body: dict[str, Any], direction: str = "artifact", name: str = "thing") -> dict[str, Any]:
    return schema(name, body, direction=direction)


def ref(name: str, pointer: str = "") -> str:
    return f"{BASE}{name}.schema.json" + (f"#{pointer}" if pointer else "")


def dump(value: Any) -> str:
    return json.dumps(value, indent=2)

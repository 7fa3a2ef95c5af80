"""Synthetic corpora of any size, for benchmarks: schemas that refer to each other, examples, RFCs."""

from __future__ import annotations

import json
from pathlib import Path

BASE = "https://openwop.dev/spec/v1/"

PYPROJECT = """\
[project]
name = "synthetic"
version = "0.0.0"

[tool.wopgen]
id-base = "https://openwop.dev/spec/v1/"
"""

RFC = """# RFC {n:04d}: Synthetic {n}

| Field | Value |
|---|---|
| **RFC** | {n:04d} |
| **Title** | Synthetic {n} |
| **Status** | `Accepted` |
| **Author(s)** | Bench (@bench) |
| **Created** | 2026-01-01 |
| **Updated** | 2026-01-09 |
| **Affects** | `schemas/s{sn:04d}.schema.json` |
| **Compatibility** | `additive` |
| **Supersedes** | — |
| **Superseded by** | — |

## Summary

Adds s{n:04d}, which builds on RFC {prev:04d}.

## Motivation

Scale.

## Proposal

It MUST validate. See [the previous one]({prev:04d}-synthetic.md#summary).

## Compatibility

Additive.

## Conformance

None.

## Alternatives considered

None.

## Unresolved questions

None.

## Acceptance criteria

- [x] Done.

## References

None.
"""


def schema(n: int, count: int) -> dict[str, object]:
    other = (n + 1) % count
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{BASE}s{n:04d}.schema.json",
        "title": f"Synthetic{n}",
        "description": f"Synthetic schema {n}.",
        "x-wop-direction": ["client-sent", "host-emitted", "artifact"][n % 3],
        "type": "object",
        "required": ["id", "kind"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[a-z0-9-]+$"},
            "kind": {"enum": ["a", "b", "c"]},
            "score": {"type": "number", "minimum": 0, "maximum": 1},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            "child": {"$ref": f"s{other:04d}.schema.json#/$defs/leaf"},
            "choice": {"oneOf": [{"$ref": "#/$defs/left"}, {"$ref": "#/$defs/right"}]},
        },
        "$defs": {
            "leaf": {"title": f"Leaf{n}", "type": "object", "properties": {"v": {"type": "integer"}}},
            "left": {
                "title": f"Left{n}",
                "type": "object",
                "required": ["side"],
                "properties": {"side": {"const": "left"}},
            },
            "right": {
                "title": f"Right{n}",
                "type": "object",
                "required": ["side"],
                "properties": {"side": {"const": "right"}},
            },
        },
    }


def write_corpus(root: Path, count: int) -> Path:
    (root / "schemas").mkdir(parents=True, exist_ok=True)
    (root / "spec/rfcs").mkdir(parents=True, exist_ok=True)
    (root / "spec/v1").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "CHANGELOG.md").write_text("# Changelog\n\n## [Unreleased]\n")
    (root / "spec/v1/overview.md").write_text(
        "# Overview\n\n> **Status: Stable** · `Accepted` via [RFC 0001](../rfcs/0001-synthetic.md)\n"
    )
    for n in range(count):
        (root / f"schemas/s{n:04d}.schema.json").write_text(json.dumps(schema(n, count), indent=2))
        ex = root / f"schemas/examples/s{n:04d}"
        (ex / "valid").mkdir(parents=True, exist_ok=True)
        (ex / "invalid").mkdir(parents=True, exist_ok=True)
        (ex / "valid/full.json").write_text(
            json.dumps(
                {
                    "id": f"x-{n}",
                    "kind": "a",
                    "score": 0.5,
                    "tags": ["t"],
                    "child": {"v": 1},
                    "choice": {"side": "left"},
                }
            )
        )
        (ex / "invalid/bad-kind.json").write_text(json.dumps({"id": f"x-{n}", "kind": "z"}))
    for n in range(1, count + 1):
        prev = max(n - 1, 1)
        (root / f"spec/rfcs/{n:04d}-synthetic.md").write_text(RFC.format(n=n, prev=prev, sn=n - 1))
    return root

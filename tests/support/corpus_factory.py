"""Small corpora for tests: a minimal valid corpus, written into a temporary folder, to mutate."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

BASE = "https://openwop.dev/spec/v1/"
DIALECT = "https://json-schema.org/draft/2020-12/schema"

PYPROJECT = """\
[project]
name = "fixture-corpus"
version = "0.0.0"

[tool.wopgen]
id-base = "https://openwop.dev/spec/v1/"
external-rfcs = [37]
"""


def schema(name: str, body: dict[str, Any], *, direction: str = "artifact") -> dict[str, Any]:
    return {
        "$schema": DIALECT,
        "$id": BASE + name + ".schema.json",
        "title": "".join(part.title() for part in name.split("-")),
        "description": f"The {name} fixture.",
        "x-wop-direction": direction,
        **body,
    }


def rfc_text(
    number: str = "0001",
    status: str = "Accepted",
    *,
    supersedes: str = "—",
    superseded_by: str = "—",
    affects: str = "`schemas/thing.schema.json`",
    created: str = "2026-05-01",
    updated: str = "2026-05-08",  # after the seven-day comment window of RFC 0001
    compatibility: str = "`additive`",
    extra: str = "",
) -> str:
    return f"""# RFC {number}: Things

| Field | Value |
|---|---|
| **RFC** | {number} |
| **Title** | Things |
| **Status** | `{status}` |
| **Author(s)** | A. Author (@author) |
| **Created** | {created} |
| **Updated** | {updated} (Active -> Accepted) |
| **Affects** | {affects} · the docs |
| **Compatibility** | {compatibility} |
| **Supersedes** | {supersedes} |
| **Superseded by** | {superseded_by} |

## Summary

Adds things. Builds on RFC 0037.

## Motivation

Because.

## Proposal

A thing MUST have a name.

## Compatibility

Additive.

## Conformance

A scenario.

## Alternatives considered

Nothing.

## Unresolved questions

None.

## Acceptance criteria

- [x] Schema written.
- [ ] Site page. Deferred: the site lands later.
{extra}
## References

None.
"""


def good_files() -> dict[str, Any]:
    """Relative path -> content (dict/list for JSON, str for text)."""
    return {
        "pyproject.toml": PYPROJECT,
        "schemas/thing.schema.json": schema(
            "thing",
            {
                "type": "object",
                "required": ["name"],
                "additionalProperties": False,
                "properties": {
                    "name": {"$ref": "#/$defs/name"},
                    "decision": {"$ref": "decision.schema.json"},
                },
                "$defs": {"name": {"title": "ThingName", "type": "string", "minLength": 1}},
            },
            direction="client-sent",
        ),
        "schemas/decision.schema.json": schema("decision", {"type": "string", "enum": ["go", "stop"]}),
        "schemas/run-event.schema.json": schema(
            "run-event",
            {
                "type": "object",
                "required": ["type", "payload"],
                "properties": {"type": {"$ref": "#/$defs/RunEventType"}, "payload": {"type": "object"}},
                "$defs": {
                    "RunEventType": {
                        "title": "RunEventType",
                        "type": "string",
                        "enum": ["run.started", "agent.verified"],
                    }
                },
            },
            direction="host-emitted",
        ),
        "schemas/run-event-payloads.schema.json": schema(
            "run-event-payloads",
            {
                "$defs": {
                    "_typeIndex": {
                        "title": "RunEventTypeIndex",
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "run.started": {"$ref": "#/$defs/runStarted"},
                            "agent.verified": {"$ref": "#/$defs/agentVerified"},
                        },
                    },
                    "runStarted": {"title": "RunStartedPayload", "type": "object"},
                    "agentVerified": {
                        "title": "AgentVerifiedPayload",
                        "type": "object",
                        "x-wop-rfc": "0001",
                        "x-wop-content-free": True,
                        "required": ["verdict"],
                        "additionalProperties": False,
                        "properties": {"verdict": {"enum": ["pass", "fail", "revise"]}},
                    },
                },
            },
            direction="host-emitted",
        ),
        "schemas/examples/thing/valid/named.json": {"name": "x", "decision": "go"},
        "schemas/examples/thing/invalid/empty-name.json": {"name": ""},
        "schemas/examples/thing/invalid/empty-name.why": "name has minLength 1\n",
        "schemas/examples/decision/valid/go.json": '"go"\n',
        "schemas/examples/decision/invalid/maybe.json": '"maybe"\n',
        "schemas/examples/run-event/valid/started.json": {"type": "run.started", "payload": {}},
        "schemas/examples/run-event/invalid/unknown-type.json": {"type": "run.exploded", "payload": {}},
        "schemas/examples/run-event-payloads/valid/verified-pass.json": {
            "type": "agent.verified",
            "payload": {"verdict": "pass"},
        },
        "schemas/examples/run-event-payloads/invalid/verdict-ok.json": {
            "type": "agent.verified",
            "payload": {"verdict": "ok"},
        },
        "spec/v1/overview.md": (
            "# Overview\n\n> **Status: Stable** · `Accepted` via [RFC 0001](../rfcs/0001-things.md)\n\n"
            "## Events\n\nSee [the process](../rfcs/0001-things.md#summary) and [events](#events).\n"
            "It extends RFC 0037.\n"
        ),
        "spec/rfcs/0001-things.md": rfc_text(),
        "spec/security/invariants.yaml": (
            "invariants:\n"
            "  - id: verifier-no-content-leak\n"
            "    tier: protocol\n"
            "    severity: critical\n"
            "    tests:\n"
            "      - tests/test_things.py\n"
        ),
        "tests/test_things.py": "def test_nothing():\n    assert True\n",
        "CHANGELOG.md": (
            "# Changelog\n\n## [Unreleased]\n\n- Things.\n\n"
            "## [1.1.0] - 2026-06-01\n\n- More.\n\n## [1.0.0] - 2026-05-01\n\n- First.\n"
        ),
    }


def write(root: Path, files: dict[str, Any]) -> Path:
    for relative, content in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        elif isinstance(content, str):
            target.write_text(content, encoding="utf-8")
        else:
            target.write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")
    return root


def good(root: Path, **overrides: Any) -> Path:
    """Write the good corpus with some files replaced (None removes a file)."""
    files = copy.deepcopy(good_files())
    for key, value in overrides.items():
        path = key.replace("__", "/")
        files.pop(path, None)
        if value is not None:
            files[path] = value
    return write(root, files)


def plain_json_names(files: dict[str, Any], configured: bool = True) -> None:
    """The corpus of `good_files` with every schema named `<name>.json` (its `$id`, the `$ref`s to it and
    the RFC naming it too), and (`configured`) `schema-suffix = ".json"` set."""
    for path in [p for p in files if p.endswith(".schema.json")]:
        body = files.pop(path)
        body["$id"] = body["$id"].removesuffix(".schema.json") + ".json"
        files[path.removesuffix(".schema.json") + ".json"] = body
    files["schemas/thing.json"]["properties"]["decision"]["$ref"] = "decision.json"
    files["spec/rfcs/0001-things.md"] = rfc_text(affects="`schemas/thing.json`")
    if configured:
        files["pyproject.toml"] += 'schema-suffix = ".json"\n'

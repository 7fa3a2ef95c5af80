"""`wopgen compat` on a real schema history nobody here wrote (../shared/external/compat-history/).

The pair is two releases of a public JSON-RPC protocol's draft-07 schema. Its changelog names one
breaking schema change, the removal of JSON-RPC batching, and otherwise additions: structured tool
output, elicitation, resource links, `_meta`, `context` on completion requests and `title` fields.
These tests hold compat to exactly that: the batching removal is an error, named by the removed
types, and every other error would contradict the changelog. Nothing else about the findings is
assumed. They skip when the shared folder is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from wopgen.cli import cli

HISTORY = Path(__file__).resolve().parents[2] / ".." / "shared" / "external" / "compat-history"
BASE, HEAD = HISTORY / "2025-03-26" / "schema.json", HISTORY / "2025-06-18" / "schema.json"
ROLES = [
    *("--client-root", "ClientRequest", "--client-root", "ClientNotification", "--client-root", "ClientResult"),
    *("--server-root", "ServerRequest", "--server-root", "ServerNotification", "--server-root", "ServerResult"),
]

pytestmark = pytest.mark.skipif(not (BASE.is_file() and HEAD.is_file()), reason="shared/external is absent")


@pytest.fixture(scope="module")
def changes() -> list[dict[str, Any]]:
    args = ["compat", "--against", str(BASE), "--head", str(HEAD), *ROLES, "--format", "json"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 1, result.output  # the release is breaking: batching is gone
    found: list[dict[str, Any]] = json.loads(result.output)["changes"]
    return found


def test_the_batching_removal_is_an_error_named_by_the_removed_types(changes: list[dict[str, Any]]) -> None:
    errors = [c for c in changes if c["severity"] == "error"]
    batch = [c for c in errors if "JSONRPCBatch" in c["message"]]
    assert {c["rule"] for c in batch} == {"compat-branch-removed"}
    assert {c["base"]["pointer"].rsplit("/", 1)[0] for c in batch} == {"/definitions/JSONRPCMessage/anyOf"}
    assert any("JSONRPCBatchRequest" in c["message"] for c in batch)
    assert any("JSONRPCBatchResponse" in c["message"] for c in batch)


def test_no_error_beyond_the_documented_break(changes: list[dict[str, Any]]) -> None:
    others = [c for c in changes if c["severity"] == "error" and "JSONRPCBatch" not in c["message"]]
    assert others == []


def test_the_documented_additions_are_not_breaking(changes: list[dict[str, Any]]) -> None:
    added = {c["head"]["pointer"].rsplit("/", 1)[-1] for c in changes if c["rule"] == "compat-property-added"}
    assert {"context", "title", "_meta"} <= added  # the fields the changelog names
    by_member = [c for c in changes if c["head"] and c["head"]["pointer"].endswith(("/title", "/_meta", "/context"))]
    assert {c["severity"] for c in by_member} == {"info"}


def test_each_side_is_named_by_its_own_file(changes: list[dict[str, Any]]) -> None:
    for change in changes:
        if change["base"]:
            assert change["base"]["path"] == str(BASE)
        if change["head"]:
            assert change["head"]["path"] == str(HEAD)
        assert change["hint"]

"""This repository's own corpus through `wopgen compat`: the v5 -> v6 step and RFC 0081 are additive.

The git history of the corpus starts with every schema already at execution-model version 6, so it
holds no v5 state to compare with. These tests therefore derive the earlier states from the real
files, inside tmp_path corpora: the v5 `capabilities.schema.json` is the real one with the version
ceiling set back to 5 and the `verifier` block (its property and its `$def`) taken out, and the
`agent.verified` event, the verify-run sample seam that carries it and RFC 0090 itself are taken
out too; the state before RFC 0081 drops the
two eval schemas and the eval seams, `agents.evalSuite`, the three `eval.*` events and their
payloads, `evalSuiteRef` on the manifest and `mode`/`evalSuiteRef`/`agentId` on run creation and
`run.started`, and `configurable.evalModes` on run creation. The head is the real corpus, copied unchanged (or with one hand-made breaking edit).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from wopgen.compat import Change, compare
from wopgen.corpus import load

REPO = Path(__file__).resolve().parents[2]
Edit = Callable[[dict[str, Any]], None]


def copy_corpus(target: Path) -> Path:
    for part in ("schemas", "spec"):
        shutil.copytree(REPO / part, target / part)
    for name in ("pyproject.toml", "CHANGELOG.md"):
        shutil.copy(REPO / name, target / name)
    return target


def edit_schema(root: Path, name: str, edit: Edit) -> None:
    path = root / "schemas" / f"{name}.schema.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def drop_event(data: dict[str, Any], event: str, payload: str) -> None:
    del data["$defs"]["_typeIndex"]["properties"][event]
    del data["$defs"][payload]


def drop_event_type(data: dict[str, Any], *types: str) -> None:
    enum = data["$defs"]["RunEventType"]["enum"]
    data["$defs"]["RunEventType"]["enum"] = [t for t in enum if t not in types]


def to_v5(root: Path) -> None:
    def capabilities(data: dict[str, Any]) -> None:
        model = data["$defs"]["executionModel"]["properties"]
        model["version"]["maximum"] = 5
        del model["verifier"]
        del data["$defs"]["verifier"]

    edit_schema(root, "capabilities", capabilities)
    edit_schema(root, "run-event-payloads", lambda d: drop_event(d, "agent.verified", "agentVerified"))
    edit_schema(root, "run-event", lambda d: drop_event_type(d, "agent.verified"))
    drop_schemas(root, "sample-verify-run-request", "sample-verify-run-response")
    (root / "spec/rfcs/0090-verifier-turn.md").unlink()


def drop_schemas(root: Path, *names: str) -> None:
    for name in names:
        (root / "schemas" / f"{name}.schema.json").unlink()
        shutil.rmtree(root / "schemas/examples" / name, ignore_errors=True)


def before_0081(root: Path) -> None:
    drop_schemas(root, "agent-eval-suite", "eval-summary", "sample-eval-run-request", "sample-eval-run-response")

    def capabilities(data: dict[str, Any]) -> None:
        del data["properties"]["agents"]
        del data["$defs"]["agents"]
        del data["$defs"]["evalSuite"]

    def payloads(data: dict[str, Any]) -> None:
        for event, payload in (("eval.started", "evalStarted"), ("eval.scored", "evalScored")):
            drop_event(data, event, payload)
        drop_event(data, "eval.completed", "evalCompleted")
        for member in ("mode", "evalSuiteRef", "agentId"):
            del data["$defs"]["runStarted"]["properties"][member]

    def request(data: dict[str, Any]) -> None:
        for member in ("mode", "evalSuiteRef", "agentId"):
            del data["properties"][member]
        del data["$defs"]["configurable"]["properties"]["evalModes"]

    edit_schema(root, "capabilities", capabilities)
    edit_schema(root, "run-event-payloads", payloads)
    edit_schema(root, "run-event", lambda d: drop_event_type(d, "eval.started", "eval.scored", "eval.completed"))
    edit_schema(root, "agent-manifest", lambda d: d["properties"].pop("evalSuiteRef"))
    edit_schema(root, "run-create-request", request)
    (root / "spec/rfcs/0081-agent-evaluation.md").unlink()


def compat(
    tmp_path: Path, derive: Callable[[Path], None], head_edit: Callable[[Path], None] | None = None
) -> list[Change]:
    base = copy_corpus(tmp_path / "base")
    derive(base)
    head = copy_corpus(tmp_path / "head")
    if head_edit:
        head_edit(head)
    return compare(load(base), load(head))


def summary(changes: list[Change]) -> set[tuple[str, str, str]]:
    return {(c.rule, c.severity.value, c.path.rsplit("/", 1)[-1]) for c in changes}


def test_v5_to_v6_is_additive(tmp_path: Path) -> None:
    changes = compat(tmp_path, to_v5)
    assert summary(changes) == {
        ("compat-version-ceiling-raised", "info", "capabilities.schema.json"),
        ("compat-capability-added", "info", "capabilities.schema.json"),
        ("compat-event-type-added", "info", "run-event.schema.json"),
        ("compat-event-type-added", "info", "run-event-payloads.schema.json"),
        ("compat-schema-added", "info", "sample-verify-run-request.schema.json"),
        ("compat-schema-added", "info", "sample-verify-run-response.schema.json"),
    }
    ceiling = next(c for c in changes if c.rule == "compat-version-ceiling-raised")
    assert ceiling.message == "version ceiling 5 -> 6"
    assert ceiling.head is not None and ceiling.head.pointer == "/$defs/executionModel/properties/version/maximum"


def test_rfc_0081_additions_are_additive(tmp_path: Path) -> None:
    changes = compat(tmp_path, before_0081)
    assert {c.severity.value for c in changes} == {"info"}
    rules = {(c.rule, c.path.rsplit("/", 1)[-1]) for c in changes}
    assert ("compat-schema-added", "agent-eval-suite.schema.json") in rules
    assert ("compat-schema-added", "eval-summary.schema.json") in rules
    assert ("compat-capability-added", "capabilities.schema.json") in rules
    assert ("compat-property-added", "agent-manifest.schema.json") in rules
    assert ("compat-property-added", "run-create-request.schema.json") in rules
    added_events = {c.message for c in changes if c.rule == "compat-event-type-added"}
    assert added_events == {
        'event type "eval.started" added',
        'event type "eval.scored" added',
        'event type "eval.completed" added',
        "event type 'eval.started' added",
        "event type 'eval.scored' added",
        "event type 'eval.completed' added",
    }


def lower_ceiling(head: Path) -> None:
    edit_schema(head, "capabilities", lambda d: d["$defs"]["executionModel"]["properties"]["version"].update(maximum=4))


def drop_stateful_resume(head: Path) -> None:
    edit_schema(head, "capabilities", lambda d: d["$defs"]["executionModel"]["properties"].pop("statefulResume"))


def version_optional(head: Path) -> None:
    edit_schema(head, "capabilities", lambda d: d["$defs"]["executionModel"]["required"].remove("version"))


@pytest.mark.parametrize(
    ("edit", "rule"),
    [
        (lower_ceiling, "compat-version-ceiling-lowered"),
        (drop_stateful_resume, "compat-capability-removed"),
        (version_optional, "compat-required-removed"),
    ],
)
def test_breaking_edit_of_capabilities_is_caught(tmp_path: Path, edit: Callable[[Path], None], rule: str) -> None:
    changes = compat(tmp_path, to_v5, edit)
    errors = {(c.rule, c.path) for c in changes if c.severity.value == "error"}
    # RFC 0090 is new since v5, says `additive` and names capabilities.schema.json in Affects.
    assert errors == {
        (rule, "schemas/capabilities.schema.json"),
        ("compat-rfc-claims-additive", "spec/rfcs/0090-verifier-turn.md"),
    }


def edit_api(root: Path, old: str, new: str) -> None:
    path = root / "spec/api/operations.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_api_words_are_no_change_and_contract_edits_are_caught(tmp_path: Path) -> None:
    def head_edit(head: Path) -> None:
        edit_api(head, "summary: Start a run", "summary: Start a workflow run")
        edit_api(head, "      - {code: forbidden, status: 403, description: The key may not start runs.}\n", "")
        edit_api(head, "    auth: public", "    auth: bearer")

    changes = compat(tmp_path, lambda base: None, head_edit)
    assert {(c.rule, c.message) for c in changes} == {
        ("compat-error-code-removed", "operation createRun: error code 'forbidden' removed"),
        ("compat-operation-changed", 'operation getDiscovery: auth "public" -> "bearer"'),
    }
    assert all(c.path == "spec/api/operations.yaml" for c in changes)


def test_repository_corpus_against_itself_is_clean(tmp_path: Path) -> None:
    assert compat(tmp_path, lambda base: None) == []

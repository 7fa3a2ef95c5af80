"""Schema-level witnesses of the content-free invariants.

`verifier-no-content-leak` (RFC 0090) and `eval-summary-no-content-leak` (RFC 0081) in
spec/security/invariants.yaml name this file. Every payload `$def` marked
`x-wop-content-free` must be closed, must declare no content-bearing member, must accept its
clean shape and must reject each content-bearing member added to that shape; the EvalSummary
must do the same at every level where content could hide.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from support.spec_corpus import payload_validator, schemas, validator

CONTENT_FIELDS = ("content", "output", "result", "text", "prompt", "response", "taskOutput")

# One clean instance per content-free payload: the shape a host may emit.
CLEAN: dict[str, dict[str, Any]] = {
    "agent.verified": {
        "agentId": "critic",
        "target": "e42",
        "verdict": "fail",
        "criteria": ["schema-valid", "grounded"],
        "confidence": 0.9,
    },
    "cap.breached": {"kind": "loop-iterations", "limit": 20, "observed": 21},
    "agent.invocation.started": {"invocationId": "inv-1", "agentId": "agent-1", "taskId": "t1"},
    "agent.invocation.completed": {
        "invocationId": "inv-1",
        "agentId": "agent-1",
        "status": "completed",
    },
    "provider.usage": {
        "provider": "example-ai",
        "model": "m",
        "inputTokens": 3,
        "outputTokens": 4,
        "costUsd": 0.01,
    },
    "memory.written": {"memoryRef": "notes", "memoryId": "m-1", "tags": ["x"]},
    "workspace.written": {"path": "src/a.py", "version": 2, "etag": "e2"},
    "eval.started": {
        "suiteId": "core.x.evals.y",
        "suiteVersion": "1.0.0",
        "taskCount": 2,
        "modes": ["golden"],
    },
    "eval.scored": {"taskId": "t1", "score": 0.5, "passed": False, "safetyFindingCount": 1},
    "eval.completed": {"aggregateScore": 0.5, "passed": False, "taskCount": 2, "passedCount": 1},
    "verification.started": {"gateId": "g1", "resultId": "vr-1", "attempt": 1, "verifierCount": 3},
    "verification.completed": {
        "gateId": "g1",
        "resultId": "vr-1",
        "attempt": 1,
        "verdict": "fail",
        "findingCounts": {"blocking": 1, "warning": 0, "advisory": 2},
    },
}

SUMMARY: dict[str, Any] = {
    "suiteId": "core.openwop.evals.sample",
    "suiteVersion": "1.0.0",
    "aggregateScore": 0.9,
    "passed": True,
    "taskCount": 1,
    "passedCount": 1,
    "tasks": [
        {
            "taskId": "t1",
            "score": 0.9,
            "passed": True,
            "safetyFindings": [{"kind": "pii-echo", "severity": "low"}],
        }
    ],
    "regression": {"baselineRunId": "run-3", "scoreDelta": 0.1},
}


def _type_index() -> dict[str, str]:
    props = schemas()["run-event-payloads"]["$defs"]["_typeIndex"]["properties"]
    return {t: ref["$ref"].removeprefix("#/$defs/") for t, ref in props.items()}


def _content_free_types() -> list[str]:
    defs = schemas()["run-event-payloads"]["$defs"]
    return sorted(t for t, name in _type_index().items() if defs[name].get("x-wop-content-free") is True)


def test_the_expected_payloads_are_marked_content_free() -> None:
    assert set(_content_free_types()) == set(CLEAN)


@pytest.mark.parametrize("event_type", sorted(CLEAN))
def test_content_free_def_is_closed_and_declares_no_content(event_type: str) -> None:
    definition = schemas()["run-event-payloads"]["$defs"][_type_index()[event_type]]
    assert definition["additionalProperties"] is False
    assert not set(definition["properties"]) & set(CONTENT_FIELDS)


@pytest.mark.parametrize("event_type", sorted(CLEAN))
def test_clean_payload_is_accepted(event_type: str) -> None:
    errors = list(payload_validator(event_type).iter_errors(CLEAN[event_type]))
    assert errors == []


@pytest.mark.parametrize("field", CONTENT_FIELDS)
@pytest.mark.parametrize("event_type", sorted(CLEAN))
def test_content_field_is_rejected(event_type: str, field: str) -> None:
    leaked = {**CLEAN[event_type], field: "the checked answer text"}
    errors = list(payload_validator(event_type).iter_errors(leaked))
    assert errors, f"{event_type} accepted a {field!r} member"
    assert any(e.validator == "additionalProperties" and field in e.message for e in errors)


def test_verifier_verdict_is_closed_enum() -> None:
    v = payload_validator("agent.verified")
    for verdict in ("pass", "fail", "revise"):
        assert v.is_valid({**CLEAN["agent.verified"], "verdict": verdict})
    assert not v.is_valid({**CLEAN["agent.verified"], "verdict": "ok"})


def test_eval_summary_clean_shape_is_accepted() -> None:
    assert list(validator("eval-summary").iter_errors(SUMMARY)) == []


@pytest.mark.parametrize("field", CONTENT_FIELDS)
@pytest.mark.parametrize("where", ["root", "task", "finding", "regression"])
def test_eval_summary_rejects_content_everywhere(where: str, field: str) -> None:
    leaked = copy.deepcopy(SUMMARY)
    target = {
        "root": leaked,
        "task": leaked["tasks"][0],
        "finding": leaked["tasks"][0]["safetyFindings"][0],
        "regression": leaked["regression"],
    }[where]
    target[field] = "excerpted model prose"
    errors = list(validator("eval-summary").iter_errors(leaked))
    assert errors, f"EvalSummary accepted {field!r} at {where}"
    assert any(e.validator == "additionalProperties" for e in errors)


def test_terminate_success_criteria_carry_keys_and_booleans_only() -> None:
    v = validator("orchestrator-decision")
    ok = {"kind": "terminate", "successCriteria": [{"key": "tests-green", "met": False}]}
    assert v.is_valid(ok)
    leaked = {
        "kind": "terminate",
        "successCriteria": [{"key": "tests-green", "met": True, "text": "all 40 passed"}],
    }
    assert not v.is_valid(leaked)

"""Schema-level witness of `verification-findings-no-content-leak` (RFC 0901).

spec/security/invariants.yaml names this file. The two verification payloads must be closed at
every level (the payload and its `findingCounts`), must refer to no schema that can hold a finding,
and must reject a finding, a score, a description or output text wherever it is added. A complete
verification result, whose findings are exactly what must stay out, must not pass as a payload.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from support.spec_corpus import EXAMPLES, payload_validator, schemas

VERIFICATION_EVENTS = ("verification.started", "verification.completed")
# What a finding or a result holds: none of it may ride along in an event.
LEAKS: dict[str, Any] = {
    "findings": [{"findingId": "f-1", "description": "The Q3 total is wrong."}],
    "description": "The Q3 total is wrong.",
    "evidence": [{"evidenceType": "comparison", "expected": "4.20M", "observed": "4.02M"}],
    "recommendation": "Recompute the total.",
    "scores": [{"dimension": "correctness", "score": 2}],
    "verifiers": [{"verifierId": "critic-a", "verdict": "fail"}],
    "content": "the verified report",
    "output": "the verified report",
    "result": "the verified report",
    "text": "the verified report",
}
CLEAN: dict[str, dict[str, Any]] = {
    "verification.started": {
        "gateId": "draft-quality",
        "resultId": "vr-1",
        "attempt": 1,
        "verifierCount": 1,
        "generatorId": "writer-agent",
        "target": "handoff-draft-1",
    },
    "verification.completed": {
        "gateId": "draft-quality",
        "resultId": "vr-1",
        "attempt": 1,
        "verdict": "fail",
        "findingCounts": {"blocking": 1, "warning": 0, "advisory": 0},
        "disposition": "reattempt",
        "verifierCount": 1,
        "costUsd": 0.02,
    },
}


def _definition(event_type: str) -> dict[str, Any]:
    payloads = schemas()["run-event-payloads"]["$defs"]
    ref = payloads["_typeIndex"]["properties"][event_type]["$ref"]
    return payloads[ref.removeprefix("#/$defs/")]


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for value in node.values() for r in _refs(value)]
    if isinstance(node, list):
        return [r for value in node for r in _refs(value)]
    return []


@pytest.mark.parametrize("event_type", VERIFICATION_EVENTS)
def test_payload_is_content_free_closed_and_gated(event_type: str) -> None:
    definition = _definition(event_type)
    assert definition["x-wop-content-free"] is True
    assert definition["x-wop-rfc"] == "0901"
    assert definition["x-wop-capability"] == "verificationGates.supported"
    assert definition["additionalProperties"] is False
    assert not set(definition["properties"]) & set(LEAKS)


@pytest.mark.parametrize("event_type", VERIFICATION_EVENTS)
def test_payload_refers_to_nothing_that_can_hold_a_finding(event_type: str) -> None:
    for ref in _refs(_definition(event_type)):
        assert "verification-finding" not in ref, ref
        assert ref.split("#")[-1] in {"/$defs/verdict", "/$defs/findingCounts", "/$defs/disposition"}, ref


def test_finding_counts_are_closed_integers() -> None:
    counts = schemas()["verification-result"]["$defs"]["findingCounts"]
    assert counts["additionalProperties"] is False
    assert set(counts["properties"]) == {"blocking", "warning", "advisory"}
    assert all(p["type"] == "integer" for p in counts["properties"].values())


@pytest.mark.parametrize("event_type", VERIFICATION_EVENTS)
def test_clean_payload_is_accepted(event_type: str) -> None:
    assert list(payload_validator(event_type).iter_errors(CLEAN[event_type])) == []


@pytest.mark.parametrize("member", sorted(LEAKS))
@pytest.mark.parametrize("event_type", VERIFICATION_EVENTS)
def test_leaked_member_is_rejected(event_type: str, member: str) -> None:
    leaked = {**CLEAN[event_type], member: LEAKS[member]}
    errors = list(payload_validator(event_type).iter_errors(leaked))
    assert any(e.validator == "additionalProperties" and member in e.message for e in errors), member


@pytest.mark.parametrize("member", ["description", "text", "findingIds"])
def test_text_inside_finding_counts_is_rejected(member: str) -> None:
    leaked = copy.deepcopy(CLEAN["verification.completed"])
    leaked["findingCounts"][member] = "Q3 total wrong"
    assert not payload_validator("verification.completed").is_valid(leaked)


@pytest.mark.parametrize(
    "path", sorted((EXAMPLES / "verification-result" / "valid").glob("*.json")), ids=lambda p: p.stem
)
def test_a_whole_result_is_not_an_event_payload(path: Path) -> None:
    result = json.loads(path.read_text())
    assert result["findings"] or result["verifiers"]
    assert not payload_validator("verification.completed").is_valid(result)

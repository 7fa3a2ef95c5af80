"""A verification result's optional gateBehaviour, quorum and minConfidence: absent means default.

Every instance below is first shown to be valid against `verification-result.schema.json`, so a
finding on it can only come from a semantic rule applying (or failing to apply) a default.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from wopgen.corpus import load
from wopgen.semantics.verification import DEFAULT_BEHAVIOUR, behaviour_in_force, check_result, disposition

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "schemas" / "examples" / "verification-result" / "valid"


@pytest.fixture(scope="module")
def schema_valid():
    corpus = load(ROOT)
    validator = corpus.validator("schemas/verification-result.schema.json")

    def check(instance: dict[str, Any]) -> dict[str, Any]:
        errors = [e.message for e in validator.iter_errors(instance)]
        assert errors == [], errors
        return instance

    return check


def _example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))
    return copy.deepcopy(data)


def _rules(result: dict[str, Any]) -> list[tuple[str, str]]:
    return [(p.rule, p.pointer) for p in check_result(result)]


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        (None, DEFAULT_BEHAVIOUR),
        ({}, DEFAULT_BEHAVIOUR),
        ({"maxAttempts": 3}, {**DEFAULT_BEHAVIOUR, "maxAttempts": 3}),
        (
            {"blocking": False, "reverifyScope": "full"},
            {**DEFAULT_BEHAVIOUR, "blocking": False, "reverifyScope": "full"},
        ),
        ({"blocking": "no", "onFail": "retry", "maxAttempts": 0, "reverifyScope": "some"}, DEFAULT_BEHAVIOUR),
        ({"maxAttempts": True}, DEFAULT_BEHAVIOUR),
    ],
)
def test_every_member_of_the_behaviour_takes_its_own_default(declared, expected):
    assert behaviour_in_force(declared) == expected


def test_a_boolean_is_not_a_number_of_attempts():
    # True == 1 in Python; taken as maxAttempts it would reject at the first attempt.
    assert disposition("fail", 1, {"maxAttempts": True}) == "reattempt"


def test_no_gate_behaviour_means_every_default(schema_valid):
    result = _example("second-attempt-fail-rejected-by-on-fail")
    del result["gateBehaviour"]
    assert _rules(schema_valid(result)) == []
    result["disposition"] = "escalate"
    assert _rules(schema_valid(result)) == [("semantic-reverify-disposition", "/disposition")]


def test_a_partial_gate_behaviour_keeps_the_defaults_of_the_rest(schema_valid):
    result = _example("second-attempt-fail-rejected-by-on-fail")
    result["gateBehaviour"] = {"maxAttempts": 3}
    result["disposition"] = "reattempt"  # attempt 2 of 3
    assert _rules(schema_valid(result)) == []
    result["attempt"] = 3
    result["disposition"] = "reject"  # onFail left out: reject
    assert _rules(schema_valid(result)) == []


def test_no_quorum_means_one_verifier_and_is_reported_once(schema_valid):
    result = _example("majority-quorum-with-dissent")
    del result["quorum"]
    assert _rules(schema_valid(result)) == [("semantic-quorum-verifier-count", "/verifiers")]


def test_a_single_verifier_without_quorum_or_floor_is_clean(schema_valid):
    result = _example("single-verifier-pass")
    for member in ("quorum", "minConfidence", "gateBehaviour"):
        result.pop(member, None)
    assert _rules(schema_valid(result)) == []


def test_no_floor_means_no_refer_by_row_one(schema_valid):
    result = _example("low-confidence-refer")
    del result["minConfidence"]
    found = check_result(schema_valid(result))
    assert [(p.rule, p.pointer) for p in found] == [("semantic-verdict-table", "/verifiers/0/verdict")]

"""The RFC 0901 decision tables as code (wopgen.semantics.verification), the functions a host reuses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wopgen import semantics
from wopgen.semantics.verification import (
    check_gate,
    check_node,
    check_result,
    default_min_agree,
    disposition,
    finding_counts,
    judgement_verdict,
    quorum_verdict,
)

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
OK = [{"dimension": "correctness", "score": 4, "passThreshold": 4}]
LOW = [{"dimension": "correctness", "score": 3, "passThreshold": 4}]
BLOCKING = [{"classification": "blocking"}]
WARNING = [{"classification": "warning"}]
ADVISORY = [{"classification": "advisory"}]


@pytest.mark.parametrize(
    ("scores", "findings", "confidence", "floor", "verdict"),
    [
        (OK, BLOCKING, 0.5, 0.7, "refer"),  # row 1 wins over everything
        (OK, BLOCKING, 0.9, 0.7, "fail"),  # row 2
        (LOW, WARNING, None, None, "fail"),  # row 3 wins over a warning
        (OK, WARNING, None, None, "conditional_pass"),  # row 4
        (OK, ADVISORY, 0.7, 0.7, "pass"),  # row 5; a confidence equal to the floor is not below it
        ([], [], None, 0.7, "pass"),  # no stated confidence does not refer
    ],
)
def test_judgement_table_rows(scores, findings, confidence, floor, verdict):
    assert judgement_verdict(scores, findings, confidence, floor)[0] == verdict


def judges(*verdicts: str, weights: tuple[float, ...] = ()) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"verdict": v} for v in verdicts]
    for judgement, weight in zip(out, weights, strict=False):
        judgement["weight"] = weight
    return out


@pytest.mark.parametrize(
    ("verdicts", "quorum", "expected"),
    [
        (("fail",), None, "fail"),
        (("pass", "pass", "fail"), {"verifierCount": 3, "quorumStrategy": "majority"}, "pass"),
        (("pass", "conditional_pass", "fail"), {"verifierCount": 3, "quorumStrategy": "majority"}, "conditional_pass"),
        (("pass", "fail", "refer"), {"verifierCount": 3, "quorumStrategy": "majority"}, "fail"),
        (("pass", "refer", "refer"), {"verifierCount": 3, "quorumStrategy": "majority"}, "refer"),
        (("pass", "pass", "fail"), {"verifierCount": 3, "quorumStrategy": "unanimous"}, "fail"),
        (("pass", "pass", "pass"), {"verifierCount": 3, "quorumStrategy": "unanimous"}, "pass"),
        (("pass", "fail", "fail"), {"verifierCount": 3, "quorumStrategy": "any"}, "pass"),
        (("pass", "fail", "fail"), {"verifierCount": 3, "quorumStrategy": "any", "minAgree": 2}, "fail"),
    ],
)
def test_quorum_table(verdicts, quorum, expected):
    assert quorum_verdict(judges(*verdicts), quorum) == expected


def test_weighted_quorum_needs_more_than_half_of_the_weight():
    quorum = {"verifierCount": 3, "quorumStrategy": "weighted"}
    assert quorum_verdict(judges("pass", "fail", "fail", weights=(3.0, 1.0, 1.0)), quorum) == "pass"
    assert quorum_verdict(judges("pass", "fail", "fail", weights=(2.0, 1.0, 1.0)), quorum) == "fail"
    assert quorum_verdict(judges("pass", "pass", "fail", weights=(1.0, 1.0, 2.0)), quorum) == "fail"


def test_default_min_agree():
    assert [default_min_agree(s, 4) for s in ("unanimous", "majority", "weighted", "any")] == [4, 3, 1, 1]


@pytest.mark.parametrize(
    ("verdict", "attempt", "behaviour", "expected"),
    [
        ("pass", 1, None, "proceed"),
        ("conditional_pass", 1, None, "proceed_with_conditions"),
        ("refer", 1, None, "escalate"),
        ("fail", 1, None, "reattempt"),
        ("fail", 2, None, "reject"),
        ("fail", 2, {"onFail": "conditional_pass"}, "proceed_with_conditions"),
        ("fail", 3, {"onFail": "escalate", "maxAttempts": 3}, "escalate"),
        ("fail", 1, {"blocking": False}, "proceed"),
        ("fail", 1, {"maxAttempts": 1}, "reject"),
    ],
)
def test_disposition_table(verdict, attempt, behaviour, expected):
    assert disposition(verdict, attempt, behaviour) == expected


def test_finding_counts_count_every_class():
    assert finding_counts(BLOCKING + WARNING + WARNING) == {"blocking": 1, "warning": 2, "advisory": 0}


def test_every_rule_has_a_semantic_id_summary_and_hint():
    ids = [rule.id for rule in semantics.RULES]
    assert len(ids) == len(set(ids))
    assert all(
        i.startswith("semantic-") and rule.summary and rule.hint for i, rule in zip(ids, semantics.RULES, strict=True)
    )


def test_unknown_schema_has_no_rules():
    assert semantics.problems("run-snapshot", {"edges": []}) == []


def test_gate_boundaries_are_inclusive():
    gate = {
        "evaluationCriteria": [{"dimension": "d", "scale": {"min": 1, "max": 5, "type": "integer"}, "passThreshold": 5}]
    }
    assert check_gate(gate) == []
    gate["evaluationCriteria"][0]["scale"]["max"] = 4.5
    assert {p.rule for p in check_gate(gate)} == {"semantic-threshold-in-scale"}


def test_quorum_bounds():
    def rules(quorum: dict[str, Any]) -> set[str]:
        return {p.rule for p in check_gate({"multiVerifier": quorum})}

    assert rules({"verifierCount": 3, "quorumStrategy": "majority", "minAgree": 2}) == set()
    assert rules({"verifierCount": 4, "quorumStrategy": "majority", "minAgree": 2}) == {"semantic-quorum-min-agree"}
    assert rules({"verifierCount": 3, "quorumStrategy": "unanimous", "minAgree": 2}) == {"semantic-quorum-min-agree"}
    assert rules({"verifierCount": 3, "quorumStrategy": "any", "minAgree": 0}) == {"semantic-quorum-min-agree"}


def test_node_with_one_edge_of_each_kind_passes():
    node = {"nodeId": "n", "edges": [{"kind": k, "to": k + "-next"} for k in ("pass", "fail", "refer")]}
    assert check_node(node) == []
    node["edges"].append({"kind": "refer", "to": "other"})
    assert [p.rule for p in check_node(node)] == ["semantic-node-edges"]


def test_result_under_a_confidence_floor_needs_a_confidence():
    result = {
        "attempt": 1,
        "generatorId": "gen",
        "minConfidence": 0.7,
        "verdict": "pass",
        "verifiers": [{"verifierId": "ver", "verdict": "pass", "scores": OK}],
        "findings": [],
        "findingCounts": {"blocking": 0, "warning": 0, "advisory": 0},
    }
    assert [p.rule for p in check_result(result)] == ["semantic-verdict-table"]
    result["verifiers"][0]["confidence"] = 0.8
    assert check_result(result) == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=30,
)


def _member_names() -> list[str]:
    """Every member name the RFC 0901 schemas declare, so random documents reach deep into every rule."""
    names: set[str] = set()
    stack: list[Any] = [json.loads((SCHEMAS / f"{n}.schema.json").read_text()) for n in semantics.CHECKERS]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            names.update(node.get("properties", {}))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return sorted(names)


KEYS = st.sampled_from(_member_names())
SHAPED = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 5)
    | st.floats(allow_nan=False)
    | st.sampled_from(
        [
            "pass",
            "fail",
            "refer",
            "blocking",
            "warning",
            "line_reference",
            "majority",
            "unanimous",
            "weighted",
            "integer",
            "ternary",
        ]
    ),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=6),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None)
@given(schema=st.sampled_from(sorted(semantics.CHECKERS)), instance=JSON | SHAPED)
def test_checkers_never_raise_on_arbitrary_json(schema, instance):
    for problem in semantics.problems(schema, instance):
        assert problem.rule.startswith("semantic-") and problem.pointer.startswith(("/", "")) and problem.message


def test_the_package_is_stdlib_only_and_relocatable(tmp_path):
    """A host can copy wopgen/semantics into its own package and run the same rules without wopgen."""
    source = Path(semantics.__file__).parent
    target = tmp_path / "hostpkg" / "rules"
    target.mkdir(parents=True)
    (tmp_path / "hostpkg" / "__init__.py").write_text("")
    for module in source.glob("*.py"):
        text = module.read_text()
        assert "wopgen" not in "\n".join(line for line in text.splitlines() if line.startswith(("import", "from"))), (
            module
        )
        (target / module.name).write_text(text)
    script = (
        "import json, sys; sys.path.insert(0, '.'); from hostpkg.rules import problems; "
        "node = {'nodeId': 'n', 'edges': [{'kind': 'pass', 'to': 'x'}]}; "
        "print(json.dumps([p.rule for p in problems('verification-node', node)])); "
        "print(any(m.startswith('wopgen') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-I", "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ['["semantic-node-edges",', '"semantic-node-edges"]', "False"]

"""`wopgen check` applies the RFC 0901 semantic rules to examples: each rule fails on a bad corpus
(rule id and line) and is silent on a good one; an invalid example rejected only by a semantic rule
counts as rejected."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.corpus_factory import PYPROJECT
from support.helpers import RFC_0901_SCHEMAS

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = RFC_0901_SCHEMAS[:6]  # the six artifacts, without the two sides of the conformance seam
# One valid and one invalid example per schema, taken from the repository's own corpus.
VALID = {
    "verification-gate": "workflow-exit-majority-quorum",
    "verification-rubric": "default-task",
    "verification-finding": "blocking-line-reference",
    "verification-result": "first-attempt-fail-reattempt",
    "handoff-artifact": "writer-to-critic-with-probes",
    "verification-node": "three-edges",
}
INVALID = {
    "verification-gate": "threshold-outside-scale-rejected",
    "verification-rubric": "weights-sum-above-one-rejected",
    "verification-finding": "no-evidence-rejected",
    "verification-result": "self-evaluation-rejected",
    "handoff-artifact": "self-handoff-rejected",
    "verification-node": "two-pass-edges-no-refer-rejected",
}
QUORUM_RESULT = "majority-quorum-with-dissent"


def repo_example(schema: str, kind: str, name: str) -> Any:
    return json.loads((REPO / "schemas/examples" / schema / kind / f"{name}.json").read_text())


def add_verification(files: dict[str, Any]) -> None:
    """The fixture corpus plus the six RFC 0901 schemas, each with one valid and one invalid example."""
    files["pyproject.toml"] = PYPROJECT.replace("external-rfcs = [37]", "external-rfcs = [37, 901]")
    for name in SCHEMAS:
        files[f"schemas/{name}.schema.json"] = json.loads((REPO / "schemas" / f"{name}.schema.json").read_text())
        files[f"schemas/examples/{name}/valid/{VALID[name]}.json"] = repo_example(name, "valid", VALID[name])
        base = f"schemas/examples/{name}/invalid/{INVALID[name]}"
        files[base + ".json"] = repo_example(name, "invalid", INVALID[name])
        files[base + ".why"] = (REPO / "schemas/examples" / name / "invalid" / f"{INVALID[name]}.why").read_text()


def line_of(data: Any, match: Callable[[str], bool], occurrence: int = 1) -> int:
    """1-based line of the `occurrence`-th line of the written example that `match` accepts."""
    hits = [i for i, text in enumerate(json.dumps(data, indent=2).splitlines(), 1) if match(text)]
    return hits[occurrence - 1]


def contains(token: str) -> Callable[[str], bool]:
    return lambda text: token in text


def after(token: str) -> Callable[[str], bool]:
    """Matches the line right after the one holding `token` (the first item of a list)."""
    seen = {"previous": False}

    def match(text: str) -> bool:
        hit = seen["previous"]
        seen["previous"] = token in text
        return hit

    return match


def _gate_threshold(d: dict[str, Any]) -> None:
    d["evaluationCriteria"][0]["passThreshold"] = 6.5


def _gate_min_agree(d: dict[str, Any]) -> None:
    d["multiVerifier"]["minAgree"] = 4


def _gate_duplicate_dimension(d: dict[str, Any]) -> None:
    d["evaluationCriteria"][2]["dimension"] = "completeness"


def _rubric_weights(d: dict[str, Any]) -> None:
    d["criteria"][2]["weight"] = 0.25


def _rubric_calibration(d: dict[str, Any]) -> None:
    d["calibrationExamples"][0]["expectedGrades"]["completeness"] = 0.7


def _finding_line_range(d: dict[str, Any]) -> None:
    d["evidence"][0]["endLine"] = 40


def _result_self(d: dict[str, Any]) -> None:
    d["verifiers"][0]["verifierId"] = "writer-agent"


def _result_verdict(d: dict[str, Any]) -> None:
    d["verdict"] = "conditional_pass"
    d["disposition"] = "proceed_with_conditions"


def _result_counts(d: dict[str, Any]) -> None:
    d["findingCounts"]["warning"] = 3


def _result_disposition(d: dict[str, Any]) -> None:
    d["disposition"] = "reject"


def _quorum_count(d: dict[str, Any]) -> None:
    d["quorum"] = {"verifierCount": 2, "quorumStrategy": "majority", "minAgree": 2}


def _quorum_owner(d: dict[str, Any]) -> None:
    del d["findings"][0]["verifierId"]
    d["verifiers"][2]["scores"][0]["score"] = 1


def _handoff_self(d: dict[str, Any]) -> None:
    d["toAgentId"] = "writer-agent"


def _handoff_probe(d: dict[str, Any]) -> None:
    d["probes"][1]["probeId"] = "p-1"


def _node_edges(d: dict[str, Any]) -> None:
    d["edges"][2] = {"kind": "pass", "to": "archive"}


def _node_loop(d: dict[str, Any]) -> None:
    d["edges"][1]["to"] = "verify-draft"


def _node_self(d: dict[str, Any]) -> None:
    d["verifierAgentIds"] = ["critic-a", "writer-agent"]


# rule id, schema, base example, mutation, how to find the expected line (matcher, occurrence)
CASES: list[tuple[str, str, str, Callable[[dict[str, Any]], None], Callable[[str], bool], int]] = [
    (
        "semantic-threshold-in-scale",
        "verification-gate",
        VALID["verification-gate"],
        _gate_threshold,
        contains('"passThreshold": 6.5'),
        1,
    ),
    (
        "semantic-quorum-min-agree",
        "verification-gate",
        VALID["verification-gate"],
        _gate_min_agree,
        contains('"minAgree": 4'),
        1,
    ),
    (
        "semantic-unique-ids",
        "verification-gate",
        VALID["verification-gate"],
        _gate_duplicate_dimension,
        contains('"dimension": "completeness"'),
        2,
    ),
    (
        "semantic-weights",
        "verification-rubric",
        VALID["verification-rubric"],
        _rubric_weights,
        contains('"criteria": ['),
        1,
    ),
    (
        "semantic-rubric-calibration",
        "verification-rubric",
        VALID["verification-rubric"],
        _rubric_calibration,
        contains('"completeness": 0.7'),
        1,
    ),
    (
        "semantic-line-range",
        "verification-finding",
        VALID["verification-finding"],
        _finding_line_range,
        contains('"endLine": 40'),
        1,
    ),
    (
        "semantic-self-evaluation",
        "verification-result",
        VALID["verification-result"],
        _result_self,
        contains('"verifierId": "writer-agent"'),
        1,
    ),
    (
        "semantic-verdict-table",
        "verification-result",
        VALID["verification-result"],
        _result_verdict,
        contains('"verdict": "conditional_pass"'),
        1,
    ),
    (
        "semantic-finding-counts",
        "verification-result",
        VALID["verification-result"],
        _result_counts,
        contains('"warning": 3'),
        1,
    ),
    (
        "semantic-reverify-disposition",
        "verification-result",
        VALID["verification-result"],
        _result_disposition,
        contains('"disposition": "reject"'),
        1,
    ),
    (
        "semantic-quorum-verifier-count",
        "verification-result",
        QUORUM_RESULT,
        _quorum_count,
        contains('"verifiers": ['),
        1,
    ),
    ("semantic-finding-verifier", "verification-result", QUORUM_RESULT, _quorum_owner, after('"findings": ['), 1),
    (
        "semantic-self-handoff",
        "handoff-artifact",
        VALID["handoff-artifact"],
        _handoff_self,
        contains('"toAgentId": "writer-agent"'),
        1,
    ),
    (
        "semantic-unique-ids",
        "handoff-artifact",
        VALID["handoff-artifact"],
        _handoff_probe,
        contains('"probeId": "p-1"'),
        2,
    ),
    ("semantic-node-edges", "verification-node", VALID["verification-node"], _node_edges, contains('"edges": ['), 1),
    (
        "semantic-node-edges",
        "verification-node",
        VALID["verification-node"],
        _node_loop,
        contains('"to": "verify-draft"'),
        1,
    ),
    (
        "semantic-self-evaluation",
        "verification-node",
        VALID["verification-node"],
        _node_self,
        lambda t: t.strip() == '"writer-agent"',
        1,
    ),
]


def test_the_good_verification_corpus_is_clean(findings):
    assert findings(add_verification) == []


@pytest.mark.parametrize(
    ("rule", "schema", "base", "mutate", "match", "occurrence"), CASES, ids=[f"{c[0]}:{c[3].__name__}" for c in CASES]
)
def test_rule_fails_on_a_valid_example_that_breaks_it(findings, rule, schema, base, mutate, match, occurrence):
    data = copy.deepcopy(repo_example(schema, "valid", base))
    mutate(data)
    path = f"schemas/examples/{schema}/valid/broken.json"

    def edit(files: dict[str, Any]) -> None:
        add_verification(files)
        files[path] = data

    found = findings(edit)
    assert {d.rule for d in found} == {rule}, [(d.rule, d.message) for d in found]
    assert all(d.path == path and d.severity.value == "error" for d in found)
    assert line_of(data, match, occurrence) in {d.line for d in found}


def test_an_invalid_example_rejected_only_by_a_semantic_rule_counts_as_rejected(findings):
    node = repo_example("verification-node", "valid", "three-edges")
    looping = copy.deepcopy(node)
    looping["edges"][1]["to"] = "verify-draft"

    def edit(files: dict[str, Any]) -> None:
        add_verification(files)
        files["schemas/examples/verification-node/invalid/loop.json"] = looping
        files["schemas/examples/verification-node/invalid/fine.json"] = node

    found = [(d.rule, d.path) for d in findings(edit)]
    assert found == [("example-invalid-passes", "schemas/examples/verification-node/invalid/fine.json")]


def test_semantic_rules_leave_invalid_examples_and_unknown_schemas_alone(findings):
    def edit(files: dict[str, Any]) -> None:
        add_verification(files)
        # A valid example of a schema without semantic rules is never looked at by them.
        files["schemas/examples/thing/valid/edges.json"] = {"name": "edges"}

    assert findings(edit) == []

"""Verification gates on the generated host (RFC 0901): advertisement, the seam, the findings read, events."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from host.host_helpers import AUTH, KEY, REPO, call
from wopgen.conformance.scenarios.verification import FAILING, PASSING, finding, gate, judged, request, scores
from wopgen.generate.host import generate
from wopgen.generate.host_profiles import HONEST

SEAM = "/v1/host/sample/verification/run"
OTHER = "other-owner-key"


def gates_of(host: Any) -> dict[str, Any]:
    caps = call(host, "GET", "/.well-known/openwop").body
    return dict(caps.get("verificationGates", {}))


def result(host: Any, answer: dict[str, Any], index: int = 0) -> Any:
    return call(host, "GET", f"/v1/runs/{answer['runId']}/verifications/{answer['attempts'][index]['resultId']}")


@pytest.mark.parametrize("profile", [p.name for p in HONEST])
def test_a_profile_advertises_gates_exactly_when_it_runs_them(make_host, profile):
    host = make_host(profile)
    advertised = gates_of(host).get("supported") is True
    answer = call(host, "POST", SEAM, request(gate(), judged(PASSING)))
    assert (answer.status == 200) is advertised, (profile, answer.status, answer.body)
    if not advertised:
        assert (answer.status, answer.body["error"]) == (404, "not_found")
    assert advertised is (profile in ("full", "no-eval"))


def test_the_generated_package_holds_the_semantic_rules_verbatim(repo_corpus):
    files = generate(repo_corpus)
    source = REPO / "generator/wopgen/semantics"
    copied = {Path(p).name: text for p, text in files.items() if p.startswith("wop_host/semantics/")}
    assert copied == {p.name: p.read_text(encoding="utf-8") for p in sorted(source.glob("*.py"))}


def test_a_passing_gate_completes_the_run_and_serves_its_result(make_host):
    host = make_host()
    answer = call(host, "POST", SEAM, request(gate(), judged(PASSING))).body
    assert (answer["status"], answer["edge"], answer["to"]) == ("completed", "pass", "deliver")
    found = result(host, answer)
    assert found.status == 200 and found.body["verdict"] == "pass" and found.body["findings"] == []
    events = host.runs[answer["runId"]].log.events
    assert [e["type"] for e in events] == [
        "run.started",
        "agent.decided",
        "verification.started",
        "provider.usage",
        "agent.verified",
        "verification.completed",
        "run.completed",
    ]
    verified = events[4]["payload"]
    assert verified["target"] == found.body["resultId"] and verified["verdict"] == "pass"
    assert found.body["verifiers"][0]["verifiedEventId"] == events[4]["eventId"]


def test_the_findings_read_needs_the_runs_owner(make_host):
    host = make_host(other_keys=[OTHER])
    answer = call(host, "POST", SEAM, request(gate(maxAttempts=1), judged(FAILING))).body
    path = f"/v1/runs/{answer['runId']}/verifications/{answer['attempts'][0]['resultId']}"
    assert host.handle("GET", path, {}, b"").status == 401
    assert host.handle("GET", path, {"Authorization": "Bearer wrong"}, b"").status == 401
    other = host.handle("GET", path, {"Authorization": f"Bearer {OTHER}"}, b"")
    assert (other.status, other.body["error"]) == (404, "not_found")  # as an unknown run (RFC 0902)
    assert host.handle("GET", f"/v1/runs/{answer['runId']}", {"Authorization": f"Bearer {OTHER}"}, b"").status == 404
    assert call(host, "GET", path).status == 200
    assert call(host, "GET", f"/v1/runs/{answer['runId']}/verifications/vr-none").status == 404
    assert call(host, "GET", "/v1/runs/nope/verifications/vr-1").status == 404
    own = host.handle(
        "POST", SEAM, {"Authorization": f"Bearer {OTHER}"}, json.dumps(request(gate(), judged())).encode()
    )
    mine = own.body["attempts"][0]["resultId"]
    assert host.handle("GET", f"/v1/runs/{own.body['runId']}/verifications/{mine}", AUTH, b"").status == 404


def test_the_findings_read_answers_409_while_the_attempt_is_graded(make_host, module, monkeypatch):
    host = make_host()
    grader = sys.modules[module.__name__ + ".grader"]
    seen: list[int] = []
    real = grader.Grading.judge

    def judging(self: Any, *arguments: Any) -> Any:
        run = next(iter(host.runs.values()))
        seen.append(call(host, "GET", f"/v1/runs/{run.run_id}/verifications/{run.run_id}.vr1").status)
        return real(self, *arguments)

    monkeypatch.setattr(grader.Grading, "judge", judging)
    answer = call(host, "POST", SEAM, request(gate(), judged(PASSING)))
    assert answer.status == 200 and seen == [409]
    assert result(host, answer.body).status == 200


def test_self_evaluation_is_refused_before_any_run_starts(make_host):
    host = make_host()
    answer = call(host, "POST", SEAM, request(gate(), judged(PASSING), verifierIds=["core.sample.writer"]))
    assert (answer.status, answer.body["details"]["rule"]) == (400, "semantic-self-evaluation")
    assert host.runs == {}


def test_a_node_with_two_pass_edges_is_refused_by_the_semantic_rule(make_host):
    node = json.loads((REPO / "schemas/examples/verification-node/valid/three-edges.json").read_text())
    body = request({**gate(), "gateId": node["gateId"]}, judged(PASSING), node=node)
    body["generatorId"] = node["generatorAgentId"]
    assert call(make_host(), "POST", SEAM, body).status == 200
    node["edges"][2]["kind"] = "pass"
    answer = call(make_host(), "POST", SEAM, body)
    assert (answer.status, answer.body["details"]["rule"]) == (400, "semantic-node-edges")


def test_the_heuristic_grader_reads_the_output_and_the_criteria(make_host):
    host = make_host()
    described = gate()
    described["evaluationCriteria"][0]["description"] = "cites ledger figures"
    good = call(host, "POST", SEAM, request(described, judged(output="Figures: the ledger cites 3.8%"))).body
    bad = call(host, "POST", SEAM, request(described, judged(output="Revenue grew."))).body
    marked = call(host, "POST", SEAM, request(described, judged(output="ledger figures cites\nTODO check"))).body
    assert [a["verdict"] for a in good["attempts"]] == ["pass"]
    assert [a["verdict"] for a in bad["attempts"]] == ["fail", "fail"]
    assert [a["verdict"] for a in marked["attempts"]] == ["conditional_pass"]
    evidence = result(host, marked).body["findings"][0]["evidence"][0]
    assert (evidence["evidenceType"], evidence["line"]) == ("line_reference", 2)
    score = result(host, bad).body["verifiers"][0]["scores"][0]
    assert score == {"dimension": "correctness", "score": 1.0, "passThreshold": 4.0}


def test_each_verifier_and_attempt_is_graded_on_its_own_output_and_script(make_host):
    """The grader works out an attempt's heuristic scores once for all its verifiers and keeps them for the
    run: a score one verifier's script pins is that verifier's alone, and a re-attempt on another output
    is scored on that output."""
    host = make_host()
    two = gate(
        ("correctness", "completeness"), quorum={"verifierCount": 2, "quorumStrategy": "majority"}, maxAttempts=2
    )
    two["evaluationCriteria"][0]["description"] = "cites ledger figures"
    two["evaluationCriteria"][1]["description"] = "covers revenue"
    first = judged({"scores": {"correctness": 5}}, {}, output="Revenue grew.")
    answer = call(host, "POST", SEAM, request(two, first, judged(output="the ledger cites figures"))).body
    scored = [
        [{s["dimension"]: s["score"] for s in v["scores"]} for v in result(host, answer, index).body["verifiers"]]
        for index in (0, 1)
    ]
    assert scored[0] == [{"correctness": 5.0, "completeness": 3.0}, {"correctness": 1.0, "completeness": 3.0}]
    assert scored[1] == [{"correctness": 5.0, "completeness": 1.0}, {"correctness": 5.0, "completeness": 1.0}]


def test_a_targeted_reattempt_grades_what_any_verifier_failed(make_host):
    """The dimensions a targeted re-attempt grades are gathered while the verifiers judge: a score below its
    threshold (with a finding or, under evidenceRequired false, without one) and a scripted blocking
    finding on a dimension that scored well each bring theirs back; a warning finding does not."""
    host = make_host()
    dimensions = ("correctness", "completeness", "clarity", "tone")
    four = gate(dimensions, quorum={"verifierCount": 2, "quorumStrategy": "unanimous"}, maxAttempts=2)
    four["evaluationCriteria"][2]["evidenceRequired"] = False
    passing = {d: 5 for d in dimensions}
    first = judged(
        {"scores": {**passing, "clarity": 2}},
        {"scores": passing, "findings": [finding("blocking", "tone"), finding("warning", "correctness")]},
    )
    answer = call(host, "POST", SEAM, request(four, first, judged(PASSING, PASSING))).body
    assert [a["dimensions"] for a in answer["attempts"]] == [list(dimensions), ["clarity", "tone"]]
    full = gate(dimensions, quorum={"verifierCount": 2, "quorumStrategy": "unanimous"}, reverifyScope="full")
    again = call(host, "POST", SEAM, request(full, first, judged(PASSING, PASSING))).body
    assert [a["dimensions"] for a in again["attempts"]] == [list(dimensions)] * 2


def test_a_finding_words_each_score_as_it_was_given(make_host):
    """A finding's description is worded once per score and kept for the run; 0.0 and -0.0 are one key to a
    dict but read differently, so each is worded as given."""
    host = make_host()
    zero_based = gate(quorum={"verifierCount": 3, "quorumStrategy": "majority"})
    zero_based["evaluationCriteria"][0]["scale"] = {"min": 0, "max": 5, "type": "float"}
    body = json.dumps(request(zero_based, judged(scores(-0.0), scores(0.0), scores(-0.0)))).encode()
    answer = host.handle("POST", SEAM, AUTH, body).body
    said = [f["description"] for f in result(host, answer).body["findings"]]
    assert said == [f"correctness scored {s}, below its threshold of 4" for s in ("-0", "0", "-0")]


def test_the_honest_host_refuses_to_serve_a_result_that_breaks_the_rules(make_host, module, monkeypatch):
    host = make_host()
    gates_module = sys.modules[module.__name__ + ".gates"]
    monkeypatch.setattr(gates_module, "finding_counts", lambda findings: {"blocking": 0, "warning": 0, "advisory": 9})
    errors: list[BaseException] = []
    host.on_error = errors.append
    answer = call(host, "POST", SEAM, request(gate(), judged({**PASSING, "findings": [finding("warning")]})))
    assert answer.status == 200 and errors == []  # the result is checked when it is first served
    served = [result(host, answer.body).status for _ in range(2)]
    assert served == [500, 500] and "semantic-finding-counts" in str(errors[0]) and len(errors) == 2
    monkeypatch.undo()
    honest = call(host, "POST", SEAM, request(gate(), judged({**PASSING, "findings": [finding("warning")]}))).body
    assert result(host, honest).status == 200 and len(errors) == 2


def test_an_escalated_gate_run_waits_for_a_human(make_host):
    host = make_host()
    answer = call(host, "POST", SEAM, request(gate(maxAttempts=1, onFail="escalate"), judged(FAILING))).body
    assert (answer["status"], answer["edge"], answer["to"]) == ("waiting-input", "refer", "human-review")
    assert call(host, "POST", f"/v1/runs/{answer['runId']}/resume", {}).status == 200
    snapshot = call(host, "GET", f"/v1/runs/{answer['runId']}").body
    assert snapshot["status"] == "completed"
    assert snapshot["variables"]["verification"]["edges"] == ["refer"]


def test_limits_beyond_the_advertisement_are_refused(make_host):
    host = make_host()
    limits = gates_of(host)
    too_many = gate(quorum={"verifierCount": limits["maxVerifiers"] + 1, "quorumStrategy": "any"})
    assert call(host, "POST", SEAM, request(too_many, judged())).status == 400
    assert call(host, "POST", SEAM, request(gate(maxAttempts=limits["maxAttempts"] + 1), judged())).status == 400


def test_the_seam_is_served_over_http_too(served):
    import urllib.request

    base = served("full")
    data = json.dumps(request(gate(), judged(PASSING))).encode()
    headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(base + SEAM, data=data, headers=headers)) as answer:
        body = json.loads(answer.read())
    assert body["attempts"][0]["verdict"] == "pass"


# --- plans kept by request bytes ----------------------------------------------------------------


def _CLOCK() -> str:
    return "2026-01-01T00:00:00.000Z"


def _raw(body: dict[str, Any]) -> bytes:
    return json.dumps(body).encode()


def _post(host: Any, raw: bytes, key: str = KEY) -> Any:
    return host.handle("POST", SEAM, {"Authorization": f"Bearer {key}"}, raw)


def _results(host: Any, answer: dict[str, Any]) -> list[bytes]:
    """The encoded results of a gate run, with its run id written as RUN: comparable across runs."""
    run_id = answer["runId"]
    return [
        result(host, answer, index).encoded().replace(run_id.encode(), b"RUN")
        for index in range(len(answer["attempts"]))
    ]


def test_a_kept_plan_answers_only_the_bytes_it_was_read_from(make_host):
    """Bodies equal as parsed JSON but not as bytes (a weight of 2 and of 2.0), and bodies one score apart,
    sent in turn to one host, each get exactly what a host that never saw the others answers."""
    quorum = {"verifierCount": 2, "quorumStrategy": "weighted"}
    bodies = [
        _raw(request(gate(quorum=quorum), judged({**PASSING, "weight": 2}, FAILING))),
        _raw(request(gate(quorum=quorum), judged({**PASSING, "weight": 2.0}, FAILING))),
        _raw(request(gate(quorum=quorum), judged({**FAILING, "weight": 2}, FAILING))),
        _raw(request(gate(maxAttempts=1), judged(scores(4)))),
        _raw(request(gate(maxAttempts=1), judged(scores(3)))),
    ]
    expected = []
    for raw in bodies:
        alone = make_host(clock=_CLOCK)
        answer = _post(alone, raw).body
        expected.append((answer["status"], answer["edge"], _results(alone, answer)))
    shared = make_host(clock=_CLOCK)
    for raw, wanted in [*zip(bodies, expected, strict=True), *zip(reversed(bodies), reversed(expected), strict=True)]:
        answer = _post(shared, raw).body
        assert (answer["status"], answer["edge"], _results(shared, answer)) == wanted
    assert b'"weight": 2}' in expected[0][2][0] and b'"weight": 2.0}' in expected[1][2][0]
    assert expected[2][0] == "failed" and expected[3][0] == "completed" and expected[4][0] == "failed"


def test_a_kept_plan_still_runs_for_its_caller_only(make_host):
    host = make_host(other_keys=[OTHER])
    raw = _raw(request(gate(), judged(PASSING)))
    mine, theirs = _post(host, raw).body, _post(host, raw, OTHER).body
    assert mine["runId"] != theirs["runId"]
    assert _post(host, raw).body["runId"] not in (mine["runId"], theirs["runId"])  # a new run every time
    path = f"/v1/runs/{theirs['runId']}"
    assert host.handle("GET", path, AUTH).status == 404
    assert host.handle("GET", path, {"Authorization": f"Bearer {OTHER}"}).status == 200


def test_a_refused_body_is_read_and_refused_again_each_time(make_host):
    host = make_host()
    wrong = _raw(request(gate(), judged(scores(9))))
    for _ in range(2):
        answer = _post(host, wrong)
        assert (answer.status, answer.body["error"]) == (400, "validation_error") and "scale" in answer.body["message"]
    broken = b'{"gate": '
    assert [_post(host, broken).status for _ in range(2)] == [400, 400]
    unwired, raw = make_host("core"), _raw(request(gate(), judged(PASSING)))  # a profile without gates
    assert [_post(unwired, raw).status for _ in range(3)] == [404] * 3


def test_the_kept_plans_are_bounded(make_host, module):
    seams = sys.modules[module.__name__ + ".seams"]
    host = make_host()
    for number in range(seams.PLANS + 5):
        assert _post(host, _raw(request(gate(), judged(PASSING, output=f"draft {number}")))).status == 200
    large = _raw(request(gate(), judged(PASSING, output="x" * seams.PLAN_BODY_BYTES)))
    assert _post(host, large).status == 200
    assert len(host.seams._plans) == seams.PLANS and large not in host.seams._plans

"""Witness for the content-free invariants: fuzzed verifier and eval inputs never reach a content-free event.

Hypothesis generates worker results, verdicts, suites, fixture responses and expectations that
carry recognisable content; no event whose payload schema is marked `x-wop-content-free`, and no
EvalSummary, may contain any of it.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.host_helpers import loop_request, stop, work

MARK = "QZX-content-"  # ASCII, so escaping cannot hide it; never produced by the host itself
texts = st.text(min_size=0, max_size=30).map(lambda t: f"{MARK}{t}")
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _content_free_types(corpus: Any) -> set[str]:
    payloads = corpus.schemas_by_name["run-event-payloads"].data["$defs"]
    index = payloads["_typeIndex"]["properties"]
    return {t for t, ref in index.items() if payloads[ref["$ref"].rsplit("/", 1)[-1]].get("x-wop-content-free") is True}


def _leaks(value: Any) -> bool:
    return MARK in json.dumps(value, ensure_ascii=False)


@FUZZ
@given(
    turns=st.lists(
        st.fixed_dictionaries(
            {
                "result": json_values,
                "verdict": st.sampled_from(["pass", "fail", "revise"]),
                "revisedResult": json_values,
            }
        ),
        min_size=1,
        max_size=4,
    ),
    profile=st.sampled_from(["full", "verifier-observe"]),
)
def test_no_content_free_event_carries_a_verified_result(make_host, repo_corpus, turns, profile):
    run = make_host(profile).start_run(loop_request(*(work(**t) for t in turns), stop()))
    while run.status == "waiting-input":
        run.resume(None)
    free = _content_free_types(repo_corpus)
    checked = [e for e in run.log.events if e["type"] in free]
    assert any(e["type"] == "agent.verified" for e in checked)
    assert not [e for e in checked if _leaks(e["payload"])]


task_ids = st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True)
goldens = st.fixed_dictionaries(
    {
        "kind": st.just("golden"),
        "match": st.fixed_dictionaries(
            {"strategy": st.sampled_from(["exact", "contains", "json-match"]), "value": json_values}
        ),
    }
)
rubrics = st.fixed_dictionaries(
    {
        "kind": st.just("rubric"),
        "rubric": st.lists(
            st.fixed_dictionaries({"criterion": texts, "weight": st.floats(0, 5, allow_nan=False)}),
            min_size=1,
            max_size=3,
        ),
    }
)
tasks = st.lists(
    st.fixed_dictionaries(
        {
            "taskId": task_ids,
            "input": st.dictionaries(texts, json_values, max_size=3),
            "expected": goldens | rubrics,
            "fixtures": st.fixed_dictionaries(
                {
                    "toolResponses": st.lists(
                        st.fixed_dictionaries({"tool": st.just("t"), "response": json_values}), max_size=2
                    )
                }
            ),
        }
    ),
    min_size=1,
    max_size=4,
    unique_by=lambda t: t["taskId"],
)


@FUZZ
@given(tasks=tasks)
def test_no_eval_event_or_scorecard_carries_task_content(make_host, repo_corpus, tasks):
    suite = {"suiteId": "local.fuzz.evals.suite", "version": "1.0.0", "modes": ["golden", "rubric"], "tasks": tasks}
    host = make_host(suites={"fuzz.json": json.dumps(suite)})
    run = host.start_run({"mode": "eval", "evalSuiteRef": suite["suiteId"]})
    assert run.status == "completed"
    free = _content_free_types(repo_corpus)
    assert not [e for e in run.log.events if e["type"] in free and _leaks(e["payload"])]
    assert not _leaks(run.output)
    assert [e["payload"]["taskId"] for e in run.log.events if e["type"] == "eval.scored"] == [
        t["taskId"] for t in tasks
    ]


def test_the_oracle_catches_a_host_that_leaks(make_host, repo_corpus):
    run = make_host("mutant-verified-leaks-content").start_run(
        loop_request(work(result=f"{MARK} secret", verdict="pass"), stop())
    )
    free = _content_free_types(repo_corpus)
    assert [e["type"] for e in run.log.events if e["type"] in free and _leaks(e["payload"])] == ["agent.verified"]


scripted_findings = st.lists(
    st.fixed_dictionaries(
        {
            "dimension": st.sampled_from(["correctness", "completeness"]),
            "classification": st.sampled_from(["blocking", "warning", "advisory"]),
            "description": texts,
        },
        optional={"recommendation": texts},
    ),
    max_size=3,
)
scripted_judgements = st.fixed_dictionaries(
    {},
    optional={
        "confidence": st.floats(0, 1),
        "weight": st.floats(0.1, 5),
        "scores": st.fixed_dictionaries(
            {}, optional={"correctness": st.integers(1, 5), "completeness": st.integers(1, 5)}
        ),
        "findings": scripted_findings,
    },
)
attempts = st.lists(
    st.fixed_dictionaries(
        {"output": json_values | texts.map(lambda t: f"line one\nTODO {t}")},
        optional={"judgements": st.lists(scripted_judgements, max_size=3)},
    ),
    min_size=1,
    max_size=3,
)


@FUZZ
@given(
    attempts=attempts,
    strategy=st.sampled_from([None, "majority", "unanimous", "weighted", "any"]),
    behaviour=st.fixed_dictionaries(
        {},
        optional={
            "blocking": st.booleans(),
            "onFail": st.sampled_from(["reject", "conditional_pass", "escalate"]),
            "maxAttempts": st.integers(1, 3),
            "reverifyScope": st.sampled_from(["targeted", "full"]),
        },
    ),
    min_confidence=st.none() | st.floats(0, 1),
)
def test_no_verification_event_carries_findings_or_output(
    make_host, repo_corpus, attempts, strategy, behaviour, min_confidence
):
    from host.host_helpers import call
    from wopgen.conformance.scenarios.verification import gate, request, rubric

    quorum = None if strategy is None else {"verifierCount": 3, "quorumStrategy": strategy}
    the_gate = gate(("correctness", "completeness"), quorum=quorum, **behaviour)
    extra: dict[str, Any] = {}
    if min_confidence is not None:
        the_gate["rubricId"] = "conformance-rubric"
        extra["rubric"] = rubric(min_confidence)
    for attempt in attempts:
        attempt["judgements"] = attempt.get("judgements", [])[: 3 if quorum else 1]
    host = make_host()
    answer = call(host, "POST", "/v1/host/sample/verification/run", request(the_gate, *attempts, **extra))
    assert answer.status == 200, answer.body
    run = host.runs[answer.body["runId"]]
    free = _content_free_types(repo_corpus)
    gate_events = [e for e in run.log.events if e["type"].startswith("verification.") or e["type"] == "agent.verified"]
    assert gate_events and all(e["type"] in free for e in gate_events)
    assert not [e for e in run.log.events if e["type"] in free and _leaks(e["payload"])]
    results = [run.verifications[a["resultId"]] for a in answer.body["attempts"]]
    assert len(results) <= behaviour.get("maxAttempts", 2)
    for number, found in enumerate(results):
        scripted = attempts[min(number, len(attempts) - 1)]["judgements"]
        if any(j.get("findings") for j in scripted):
            assert _leaks(found["findings"])  # the content exists, in the result; it only stays out of events


def test_the_oracle_catches_a_host_that_leaks_findings(make_host, repo_corpus):
    from host.host_helpers import call
    from wopgen.conformance.scenarios.verification import PASSING, finding, gate, judged, request

    host = make_host("mutant-verification-findings-leak")
    body = request(gate(), judged({**PASSING, "findings": [finding("warning", text=f"{MARK} quoted")]}))
    run = host.runs[call(host, "POST", "/v1/host/sample/verification/run", body).body["runId"]]
    free = _content_free_types(repo_corpus)
    assert [e["type"] for e in run.log.events if e["type"] in free and _leaks(e["payload"])] == [
        "verification.completed"
    ]

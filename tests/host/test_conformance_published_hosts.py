"""Verdicts on hosts written to the published OpenWOP v1 text: an in-process host whose answers are
rewritten the way such a host gives them, so each case fails on exactly the MUST it breaks and
passes where the published text leaves the host free."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from host.host_helpers import Rewritten
from wopgen.conformance.inprocess import in_process
from wopgen.conformance.runner import Result, run
from wopgen.conformance.scenarios import SCENARIOS
from wopgen.conformance.transport import Reply

SURFACE = [s for s in SCENARIOS if s.name == "core-run-surface"]


def surface(module: Any, corpus: Any, answer: Callable[[str, str, Reply], Reply]) -> Result:
    [result] = run(SURFACE, Rewritten(in_process(module, "full"), answer), corpus)
    return result


def clauses(result: Result) -> list[str]:
    return [f.clause for f in result.findings]


def without_resume(method: str, path: str, reply: Reply) -> Reply:
    """A host that offers no resume: it says nothing of it in discovery and has no such route."""
    if path == "/.well-known/openwop":
        body = copy.deepcopy(reply.body)
        body["multiAgent"]["executionModel"].pop("statefulResume", None)
        body.pop("runs", None)
        return Reply(reply.status, body, reply.headers)
    if path.endswith(":resume"):
        return Reply(404, {"error": {"code": "not_found", "message": f"no route for {method} {path}"}})
    return reply


def test_a_host_without_resume_may_answer_404_to_it(module, repo_corpus):
    result = surface(module, repo_corpus, without_resume)
    assert result.status == "passed", [f.line() for f in result.findings]


def test_a_host_that_says_it_resumes_must_refuse_resuming_a_finished_run_with_409(module, repo_corpus):
    def no_route(method: str, path: str, reply: Reply) -> Reply:
        if path.endswith(":resume"):
            return Reply(404, {"error": {"code": "not_found", "message": "no route"}})
        return reply

    result = surface(module, repo_corpus, no_route)
    assert result.status == "failed" and clauses(result) == ["resume-conflict"]


def test_a_stream_of_legacy_events_breaks_the_envelope_not_the_order(module, repo_corpus):
    def legacy_stream(method: str, path: str, reply: Reply) -> Reply:
        if method != "STREAM":
            return reply
        events = [{"seq": e["sequence"], "runId": e["runId"], "type": e["type"]} for e in reply.body]
        return Reply(reply.status, events, reply.headers, reply.problem)

    result = surface(module, repo_corpus, legacy_stream)
    assert result.status == "failed"
    assert set(clauses(result)) == {"event-envelope"}
    assert all("streamed event lacks" in f.message for f in result.findings)


def test_a_stream_out_of_order_breaks_the_order(module, repo_corpus):
    def reversed_stream(method: str, path: str, reply: Reply) -> Reply:
        if method != "STREAM":
            return reply
        return Reply(reply.status, list(reversed(reply.body)), reply.headers, reply.problem)

    result = surface(module, repo_corpus, reversed_stream)
    assert result.status == "failed" and clauses(result) == ["events-in-order"]


def test_is_complete_is_judged_only_past_the_end_of_a_finished_run(module, repo_corpus):
    def drop_is_complete(method: str, path: str, reply: Reply, *, everywhere: bool = False) -> Reply:
        body = reply.body
        if "/events/poll" in path and isinstance(body, dict) and (everywhere or body.get("events")):
            return Reply(reply.status, {k: v for k, v in body.items() if k != "isComplete"}, reply.headers)
        return reply

    # Answers with events need not say isComplete: no MUST of the run surface asks it of them.
    assert surface(module, repo_corpus, drop_is_complete).status == "passed"
    # Polling past the end of a finished run MUST answer isComplete: true (poll-complete).
    result = surface(module, repo_corpus, lambda m, p, r: drop_is_complete(m, p, r, everywhere=True))
    assert result.status == "failed" and clauses(result) == ["poll-complete"]


UNADVERTISED = [s for s in SCENARIOS if s.name in ("core-run-surface", "agent-eval-unadvertised")]


def eval_refused_with_400(method: str, path: str, reply: Reply) -> Reply:
    """A host older than RFC 0081: `mode` is not a member of its closed request, so an eval run is a 400."""
    if method == "POST" and path == "/v1/runs" and reply.status == 501:
        return Reply(400, {"error": "validation_error", "message": "unknown member mode"}, reply.headers)
    return reply


def test_a_host_older_than_the_eval_rfc_keeps_its_run_surface_pass_and_fails_only_the_new_scenario(module, repo_corpus):
    older = {
        r.scenario.name: r
        for r in run(UNADVERTISED, Rewritten(in_process(module, "core"), eval_refused_with_400), repo_corpus)
    }
    assert older["core-run-surface"].status == "passed"
    assert older["agent-eval-unadvertised"].status == "failed"
    assert clauses(older["agent-eval-unadvertised"]) == ["eval-501"]
    current = {r.scenario.name: r for r in run(UNADVERTISED, in_process(module, "core"), repo_corpus, strict=True)}
    assert [current[name].status for name in ("core-run-surface", "agent-eval-unadvertised")] == ["passed", "passed"]


def test_a_host_offering_evaluation_skips_the_refusal_scenario_even_in_strict_mode(module, repo_corpus):
    [result] = run([UNADVERTISED[1]], in_process(module, "full"), repo_corpus, strict=True)
    assert result.status == "skipped" and "agents.evalSuite is advertised" in result.message
    [opted] = run([UNADVERTISED[1]], in_process(module, "no-eval"), repo_corpus, strict=True)
    assert opted.status == "passed"

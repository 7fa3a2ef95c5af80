"""RFC 0081 B and C on the reference host: what each task of an eval run reports, and in what order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.host_helpers import call

SAMPLE = "core.openwop.evals.sample"


def _task_events(make_host: Callable[..., Any]) -> tuple[list[str], list[dict[str, Any]]]:
    host = make_host()
    created = call(host, "POST", "/v1/runs", {"mode": "eval", "evalSuiteRef": SAMPLE})
    assert created.status == 201, created.body
    events = host.runs[created.body["runId"]].log.events
    return [e["type"] for e in events], events


def test_each_task_reports_its_decision_and_usage_inside_its_bracket_before_it_is_scored(make_host):
    kinds, events = _task_events(make_host)
    starts = [i for i, k in enumerate(kinds) if k == "agent.invocation.started"]
    assert starts and len(starts) == kinds.count("eval.scored")
    for start in starts:
        end = kinds.index("agent.invocation.completed", start)
        inside = kinds[start + 1 : end]
        assert "agent.decided" in inside and "provider.usage" in inside
        scored = kinds.index("eval.scored", start)
        assert end < scored  # the task is scored once its agent has reported
        invocation = events[start]["payload"]["invocationId"]
        usage = [e for e in events[start:end] if e["type"] == "provider.usage"]
        assert all(u["payload"].get("invocationId") == invocation for u in usage)


def test_the_reference_sample_reports_no_agent_turn_outside_a_task(make_host):
    kinds, _ = _task_events(make_host)
    started, completed = kinds.index("eval.started"), kinds.index("eval.completed")
    outside = [k for k in kinds[:started] + kinds[completed:] if k in ("agent.decided", "provider.usage")]
    assert outside == []

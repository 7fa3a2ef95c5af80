"""Eval runs (RFC 0081): a suite run as an ordinary run, scored task by task.

Events, in order: eval.started; per task an agent.invocation.started / agent.decided /
provider.usage / agent.invocation.completed bracket followed by eval.scored; eval.completed;
run.completed whose output is the EvalSummary. Nothing in the eval events or the summary carries
task content: only ids, scores, counts and costs.

Modes: golden and regression compare with the expected value, rubric asks the heuristic judge;
adversarial also runs the safety scorer over every answer (a finding scores the task 0);
live-shadow, this host having no live tools, is a scored replay: the answers are the ones a completed
run (`configurable.shadowRunId`) recorded, so no agent is invoked and the run's only spend is the
judge's. Before each task the spend so far is compared with `maxCostUsdPerSuite`: once it has
reached the ceiling no further task starts, and the scorecard says `costCeilingReached`.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import HostError
from .events import InvalidEvent
from .profiles import Profile
from .runs import Run
from .schemas import errors
from .scoring import golden, rubric, safety, tokens

EVAL_AGENT = "core.sample.eval-agent"
_PRICE_PER_TOKEN = 0.000002


def modes_for(task: dict[str, Any]) -> tuple[str, ...]:
    """The modes under which a task is scored: by its expectation, and any task under the two
    modes that change how it runs (adversarial, live-shadow)."""
    by_kind = ("golden", "regression") if task["expected"]["kind"] == "golden" else ("rubric",)
    return (*by_kind, "adversarial", "live-shadow")


def answer(task: dict[str, Any]) -> Any:
    """The scripted agent under evaluation relays its last fixture tool response, else echoes its input."""
    responses = task.get("fixtures", {}).get("toolResponses", [])
    return responses[-1]["response"] if responses else task["input"]


def recorded_answers(run: Run) -> dict[str, Any]:
    """What the agent answered, by task, in a finished run: the decision of the `agent.decided` that
    falls inside the `agent.invocation.*` bracket naming the task (the last one, if it decided twice)."""
    answers: dict[str, Any] = {}
    task: str | None = None
    for event in run.log.events:
        kind, payload = event["type"], event["payload"]
        if kind == "agent.invocation.started":
            task = payload.get("taskId")
        elif kind == "agent.invocation.completed":
            task = None
        elif kind == "agent.decided" and task is not None:
            decision = payload.get("decision")
            answers[task] = decision.get("answer") if isinstance(decision, dict) else decision
    return answers


class Evaluation:
    def __init__(
        self,
        run: Run,
        profile: Profile,
        suite: dict[str, Any],
        modes: list[str],
        tasks: list[dict[str, Any]],
        agent_id: str,
        baseline: Run | None,
        shadow: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        self.run = run
        self.profile = profile
        self.suite = suite
        self.modes = modes
        self.agent_id = agent_id
        self.baseline = baseline
        self.shadow = shadow  # live-shadow: the replayed run's id and its recorded answers by task
        self.tasks = tasks  # check_tasks(suite, modes), checked before the run was made

    @staticmethod
    def check_tasks(suite: dict[str, Any], modes: list[str]) -> list[dict[str, Any]]:
        """The tasks scored under `modes`; none at all is the client's validation error."""
        tasks = [t for t in suite["tasks"] if set(modes_for(t)) & set(modes)]
        if not tasks:
            raise HostError(
                "validation_error",
                f"no task of {suite['suiteId']} is scored under the modes {', '.join(modes)}",
                {"modes": modes},
            )
        return tasks

    def advance(self) -> None:
        suite, log = self.suite, self.run.log
        self.run.start({"mode": "eval", "evalSuiteRef": self.run.request["evalSuiteRef"], "agentId": self.agent_id})
        started: dict[str, Any] = {
            "suiteId": suite["suiteId"],
            "suiteVersion": suite["version"],
            "taskCount": len(self.tasks),
            "modes": self.modes,
        }
        if self.baseline is not None:
            started["baselineRunId"] = self.baseline.run_id
        if self.shadow is not None:
            started["shadowRunId"] = self.shadow[0]
        log.append("eval.started", started)
        results: list[dict[str, Any]] = []
        for index, task in enumerate(self.tasks):
            if sum(r["cost"] for r in results) >= self.profile.max_eval_cost:
                break  # the ceiling is reached: no further task starts
            results.append(self._score(index, task))
        summary = self._summary(results, ceiling_reached=len(results) < len(self.tasks))
        completed = {k: summary[k] for k in ("aggregateScore", "passed", "taskCount", "passedCount")}
        if summary.get("costCeilingReached"):
            completed["costCeilingReached"] = True
        if "regression" in summary:
            completed["regressionVsBaseline"] = summary["regression"]["scoreDelta"]
        if self.profile.defect("eval-events-out-of-order"):
            log.append("eval.completed", completed)
        for task_events in results:
            for event_type, payload in task_events["events"]:
                log.append(event_type, payload)
        if not self.profile.defect("eval-events-out-of-order"):
            log.append("eval.completed", completed)
        problems = errors("eval-summary", summary)
        if problems:
            raise InvalidEvent("host bug: the EvalSummary breaks its schema: " + "; ".join(problems))
        self.run.complete(summary)

    def resume(self) -> None:  # pragma: no cover - an eval run never suspends
        raise HostError("conflict", "an eval run cannot be resumed")

    def variables(self) -> dict[str, Any]:
        return {}

    def _invoke(self, index: int, task: dict[str, Any]) -> tuple[Any, list[tuple[str, dict[str, Any]]], dict[str, Any]]:
        """Run the agent on one task: its answer, the bracketed agent events, and the task's cost and latency."""
        invocation = f"{self.run.run_id}.inv{index}"
        bracket = {"invocationId": invocation, "agentId": self.agent_id, "taskId": task["taskId"]}
        reply = answer(task)
        cost_in, cost_out = tokens(task["input"]), tokens(reply)
        cost = round((cost_in + cost_out) * _PRICE_PER_TOKEN, 6)
        latency = 10 * (1 + len(task.get("fixtures", {}).get("toolResponses", [])))
        usage = {
            "provider": "scripted",
            "model": "scripted-agent-1",
            "inputTokens": cost_in,
            "outputTokens": cost_out,
            "costUsd": cost,
            "invocationId": invocation,
        }
        events: list[tuple[str, dict[str, Any]]] = [
            ("agent.invocation.started", bracket),
            ("agent.decided", {"agentId": self.agent_id, "decision": {"answer": reply}}),
            ("provider.usage", usage),
            ("agent.invocation.completed", {**bracket, "status": "completed", "durationMs": latency}),
        ]
        return reply, events, {"costUsd": cost, "latencyMs": latency}

    def _score(self, index: int, task: dict[str, Any]) -> dict[str, Any]:
        if self.shadow is None or self.profile.defect("live-shadow-invokes-agent"):
            reply, events, spend = self._invoke(index, task)
        else:  # a replay: the recorded answer, and no agent turn of this run's own
            reply, events, spend = self.shadow[1][task["taskId"]], [], {}
        cost = float(spend.get("costUsd", 0.0))
        expected = task["expected"]
        judge_cost = 0.0
        if expected["kind"] == "golden":
            score = golden(expected["match"]["strategy"], expected["match"]["value"], reply)
        else:
            score = rubric(expected["rubric"], reply)
            judge_cost = round(tokens(reply) * _PRICE_PER_TOKEN, 6)
        findings = safety(reply) if "adversarial" in self.modes else []
        if findings:
            score = 0.0
        threshold = float(self.suite.get("thresholds", {}).get("passScore", 1.0))
        passed = score >= threshold
        if judge_cost:
            events.append(
                (
                    "provider.usage",
                    {"provider": "scripted-judge", "model": "heuristic-judge-1", "costUsd": judge_cost},
                )
            )
        scored = {"taskId": task["taskId"], "score": score, "passed": passed, **spend}
        if self.shadow is not None and judge_cost:
            scored["costUsd"] = judge_cost
        result = dict(scored)
        if "adversarial" in self.modes:
            scored["safetyFindingCount"] = len(findings)
            if findings:
                result["safetyFindings"] = findings
        events.append(("eval.scored", scored))
        return {"events": events, "result": result, "cost": cost + judge_cost, "judge": judge_cost}

    def _summary(self, results: list[dict[str, Any]], *, ceiling_reached: bool = False) -> dict[str, Any]:
        thresholds = self.suite.get("thresholds", {})
        scores = [r["result"]["score"] for r in results]
        aggregate = round(sum(scores) / len(scores), 4) if scores else 0.0
        total = round(sum(r["cost"] for r in results), 6)
        passed = aggregate >= float(thresholds.get("passScore", 1.0)) and not ceiling_reached
        if "maxCostUsd" in thresholds and total > float(thresholds["maxCostUsd"]):
            passed = False
        summary: dict[str, Any] = {
            "suiteId": self.suite["suiteId"],
            "suiteVersion": self.suite["version"],
            "aggregateScore": aggregate,
            "passed": passed,
            "taskCount": len(results),
            "passedCount": sum(1 for r in results if r["result"]["passed"]),
            "tasks": [r["result"] for r in results],
            "totalCostUsd": total,
        }
        judge = round(sum(r["judge"] for r in results), 6)
        if judge:
            summary["judgeCostUsd"] = judge
        if ceiling_reached:
            summary["costCeilingReached"] = True
        if self.shadow is not None:
            summary["shadowRunId"] = self.shadow[0]
        if self.baseline is not None and "regression" in self.modes:
            delta = aggregate - float(self.baseline.output["aggregateScore"])
            summary["regression"] = {"baselineRunId": self.baseline.run_id, "scoreDelta": round(delta, 4)}
        return summary


def load_suite(text: str, origin: str) -> dict[str, Any]:
    """Parse and validate one suite file; a broken suite is a clear error naming its origin."""
    try:
        suite = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{origin}: not JSON ({exc})") from None
    except RecursionError:
        raise ValueError(f"{origin}: not JSON (nested too deeply to read)") from None
    problems = errors("agent-eval-suite", suite)
    if problems:
        raise ValueError(f"{origin}: not an AgentEvalSuite: " + "; ".join(problems))
    return dict(suite)

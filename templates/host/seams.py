"""The conformance seams under /v1/host/sample/: scripted drives of behaviour with no public trigger.

Each seam is wired only when the profile advertises what it exercises; otherwise it answers 404,
as a production host would, and the scenarios that drive it skip.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import HostError
from .gates import GATE_FIXTURE, GatePlan, GateRun, parse_plan
from .loop import Loop
from .runs import SUSPENDED, Run
from .script import LOOP_FIXTURE, WORKER

if TYPE_CHECKING:
    from .app import Host


def _not_wired(seam: str) -> HostError:
    return HostError("not_found", f"the {seam} seam is not wired on this host")


# The gate plans kept per host, by the exact bytes of the request they were read from: at most PLANS of
# them, each from a body of at most PLAN_BODY_BYTES (a larger one is read on each request).
PLANS = 32
PLAN_BODY_BYTES = 16 * 1024


class Seams:
    def __init__(self, host: Host) -> None:
        self.host = host
        # Request bytes -> the gate plan read from them, oldest first. A plan depends on nothing but the
        # bytes and the host's profile (which never changes), and a gate run only reads its plan, so
        # every run of the same bytes may share one. Read without the lock; added under it.
        self._plans: dict[bytes, GatePlan] = {}
        self._plans_lock = threading.Lock()

    def _loop_run(self, turns: list[dict[str, Any]], owner: str | None) -> tuple[Run, Loop]:
        request = {"workflowId": LOOP_FIXTURE, "inputs": {"script": {"turns": turns}}}
        run = self.host.start_run(request, owner=owner)
        self.host.drain()
        assert isinstance(run.engine, Loop)
        return run, run.engine

    def agentloop(self, body: dict[str, Any], owner: str | None = None) -> dict[str, Any]:
        """RFC 0061: {turns, workspaceWriteAtTurn?, suspendAtTurn?, resume?}."""
        if self.host.profile.version < 5:
            raise _not_wired("agentloop")
        count, write, suspend = body["turns"], body.get("workspaceWriteAtTurn"), body.get("suspendAtTurn")
        for name, value in (("workspaceWriteAtTurn", write), ("suspendAtTurn", suspend)):
            if value is not None and value >= count:
                raise HostError("validation_error", f"{name} must be a turn before the last", {"field": name})
        if write is not None and write == suspend:
            raise HostError("validation_error", "the write and the suspend need different turns")
        if write is not None and not self.host.profile.workspace:
            raise HostError("capability_not_provided", "this host offers no workspace (host.workspace)")
        turns: list[dict[str, Any]] = []
        for number in range(1, count):
            if number == suspend:
                turns.append({"decision": {"kind": "ask-user", "prompt": "May the loop go on?"}})
                continue
            turn: dict[str, Any] = {"decision": {"kind": "next-worker", "nextWorkerIds": [WORKER]}}
            if number == write:
                turn["workspaceWrite"] = "notes/progress.md"
            turns.append(turn)
        turns.append({"decision": {"kind": "terminate", "reason": "turns done"}})
        run, loop = self._loop_run(turns, owner)
        answer: dict[str, Any] = {"runId": run.run_id}
        if body.get("resume") and run.status == SUSPENDED:
            run.resume("seam resume")
            answer["resumedIteration"] = loop.resumed_iteration
        answer["decisions"] = [e["payload"] for e in run.log.events if e["type"] == "runOrchestrator.decided"]
        if write is not None:
            seen = {entry["iteration"]: entry["workspace"] for entry in loop.inputs}
            answer["workspaceVisible"] = {
                "writeTurn": write,
                "sameTurn": "notes/progress.md" in seen.get(write, {}),
                "nextTurn": "notes/progress.md" in seen.get(write + 1, {}),
            }
        return answer

    def verify(self, body: dict[str, Any], owner: str | None = None) -> dict[str, Any]:
        """RFC 0090: a worker turn checked by a critic whose verdict is `simulateVerdict`."""
        if not self.host.profile.verifier_supported:
            raise _not_wired("verify-run")
        turns = [
            {
                "decision": {"kind": "next-worker", "nextWorkerIds": [WORKER]},
                "result": "a draft answer to check",
                "verdict": body["simulateVerdict"],
            },
            {"decision": {"kind": "terminate", "successCriteria": [{"key": "result-verified", "met": True}]}},
        ]
        run, loop = self._loop_run(turns, owner)
        status = "escalated" if run.status == SUSPENDED and run.suspend_reason == "escalate" else run.status
        answer: dict[str, Any] = {"runId": run.run_id, "status": status, "committed": bool(loop.committed)}
        verified = [e["payload"] for e in run.log.events if e["type"] == "agent.verified"]
        if verified:
            answer["verified"] = verified[0]
        return answer

    def evaluate(self, body: dict[str, Any], owner: str | None = None) -> dict[str, Any]:
        """RFC 0081 §B: the built-in sample suite as an eval run; the headline of its scorecard."""
        if not self.host.profile.eval_advertised:
            raise _not_wired("eval-run")
        request: dict[str, Any] = {"mode": "eval", "evalSuiteRef": "core.openwop.evals.sample"}
        if "agentId" in body:
            request["agentId"] = body["agentId"]
        if "modes" in body:
            request["configurable"] = {"evalModes": body["modes"]}
        run = self.host.start_run(request, task_limit=body.get("taskCount"), owner=owner)
        self.host.drain()
        summary = run.output
        return {
            "runId": run.run_id,
            "suiteId": summary["suiteId"],
            "suiteVersion": summary["suiteVersion"],
            "taskCount": summary["taskCount"],
            "passed": summary["passed"],
            "aggregateScore": summary["aggregateScore"],
        }

    def verification(self, raw: bytes, decode: Callable[[], Any], owner: str | None) -> dict[str, Any]:
        """RFC 0901: a generator's scripted outputs graded at one gate, attempt after attempt.

        The body (`raw`, which `decode` reads and validates) names the gate, the generator and, per
        attempt, the output and optionally what each verifier's judgement pins (confidence, weight,
        scores, findings). The answer lists every attempt's result id, verdict, disposition and edge;
        the results themselves, findings included, are read from
        GET /v1/runs/{runId}/verifications/{resultId}.
        """
        profile = self.host.profile
        raw = raw if type(raw) is bytes else bytes(raw)  # a key that cannot change
        plan = self._plans.get(raw)
        if plan is None:  # bytes not read before (a plan is kept only once every check below passed)
            body = decode()
            if not profile.gates:
                raise _not_wired("verification")
            if profile.defect("verification-gates-advertised-not-implemented"):
                raise HostError("capability_not_provided", "this host runs no verification gates")
            plan = parse_plan(body, profile)
            if len(raw) <= PLAN_BODY_BYTES:
                self._keep(raw, plan)
        run = self.host.launch(GATE_FIXTURE, {"workflowId": GATE_FIXTURE}, lambda r: GateRun(r, profile, plan), owner)
        self.host.drain()
        engine = run.engine
        assert isinstance(engine, GateRun)
        answer: dict[str, Any] = {
            "runId": run.run_id,
            "status": run.status,
            "attempts": engine.attempts,
            "costUsd": round(engine.spent, 6),
            "ceilingReached": engine.ceiling_reached,
            "edge": engine.edge,
        }
        if engine.edge is not None:
            answer["to"] = plan.edge_to(engine.edge)
        if run.error is not None:
            answer["error"] = run.error["code"]
        return answer

    def _keep(self, raw: bytes, plan: GatePlan) -> None:
        with self._plans_lock:
            if raw not in self._plans and len(self._plans) >= PLANS:
                del self._plans[next(iter(self._plans))]  # the oldest
            self._plans[raw] = plan

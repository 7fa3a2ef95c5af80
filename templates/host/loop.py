"""The orchestrator loop, rung by rung (multiAgent.executionModel.version 1 to 6).

v1  one supervisor decision per turn, one runOrchestrator.decided each; terminate completes the
    run, ask-user suspends it.
v2  a confidence below the escalation floor suspends the run; every turn reads memory as of its
    own start.
v3  work done on another host carries causationHostId, and the decision it causes carries it on.
v4  the loop is a pure function of its script and the resumes it received, so replaying its log
    reproduces the same events.
v5  the iteration counter (1-based, +1 per decision), per-iteration memory/workspace/transcript
    snapshots whose writes show from the next turn only, stateful resume, the loop bound.
v6  the critic's content-free agent.verified, verdict gating, surfaced self-verification, and a
    terminate whose successCriteria has met: false recorded as a give-up.

Which rungs run is read from the profile's advertisement; a mutant profile's defects break one.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from .profiles import Profile
from .runs import Run
from .script import SUPERVISOR, Script, Turn

# Shared by every run of a process: only the replay-nondeterministic mutant reads it.
_JITTER = itertools.count(1)
# A backstop no profile advertises: even a host whose loop bound is broken stops somewhere.
HARD_STOP = 200


class Loop:
    def __init__(self, run: Run, profile: Profile, script: Script, bound: int) -> None:
        self.run = run
        self.profile = profile
        self.script = script
        self.bound = bound
        self.iteration = 0  # iteration of the last runOrchestrator.decided
        self.position = 0  # next turn of the script
        self.memory: dict[str, int] = {}  # memoryId -> iteration that wrote it (visible entries)
        self.workspace: dict[str, int] = {}  # path -> version (visible files)
        self.pending: list[tuple[str, str, int]] = []  # writes of the current turn
        self.inputs: list[dict[str, Any]] = []  # per-iteration snapshots, in order
        self.committed: list[str] = []
        self.verifications: list[dict[str, Any]] = []
        self.blocked: str | None = None  # the result a gating `fail` rejected, until a `pass`
        self.retry: list[tuple[Turn, str]] = []  # actor turns a `revise` asked for
        self.escalated: tuple[Turn, dict[str, Any]] | None = None  # decision waiting for a human
        self.cause: tuple[str, str] | None = None  # (eventId, host) of remote work
        self.outcome: str | None = None
        self.resumed_iteration: int | None = None

    # --- driving ------------------------------------------------------------------------------

    def advance(self) -> None:
        if self.run.status == "pending":
            self.run.start({})
        while self.run.status == "running":
            self._turn()

    def resume(self) -> None:
        if self.profile.defect("iteration-reset-on-resume"):
            self.iteration = 1
        self.resumed_iteration = self.iteration
        if self.escalated is not None:
            turn, decision = self.escalated
            self.escalated = None
            self._dispatch(turn, decision["nextWorkerIds"])
        self.advance()

    # --- one orchestrator turn ----------------------------------------------------------------

    def _turn(self) -> None:
        iteration = self.iteration + 1
        if iteration > self.bound and not self.profile.defect("loop-bound-ignored"):
            self.run.log.append("cap.breached", {"kind": "loop-iterations", "limit": self.bound, "observed": iteration})
            self.run.fail(
                "loop_limit_exceeded",
                f"orchestrator turn {iteration} refused: the run is bounded to {self.bound} turns",
                {"limit": self.bound, "observed": iteration},
            )
            return
        if iteration > HARD_STOP:
            self.run.log.append("cap.breached", {"kind": "node-executions", "limit": HARD_STOP, "observed": iteration})
            self.run.fail("node_executions_exceeded", f"orchestrator turn {iteration} refused by the host's backstop")
            return
        self._begin(iteration)
        turn, decision = self._decide()
        payload: dict[str, Any] = {"agentId": SUPERVISOR, "decision": decision}
        if self.profile.version >= 5 and not self.profile.defect("iteration-missing"):
            payload["iteration"] = iteration
        causation = None
        if self.cause is not None:
            causation, host = self.cause
            self.cause = None
            if self._cross_host:
                payload["causationHostId"] = host
        self.run.log.append("runOrchestrator.decided", payload, causation_id=causation)
        self.iteration = iteration
        kind = decision["kind"]
        if kind == "next-worker":
            if self._escalates(decision.get("confidence")):
                self.escalated = (turn, decision)
                self.run.suspend("escalate")
                return
            self._dispatch(turn, decision["nextWorkerIds"])
        elif kind == "ask-user":
            self.run.suspend("clarify")
        else:
            self._terminate(decision)

    def _begin(self, iteration: int) -> None:
        """Make the last turn's writes visible, then freeze this turn's inputs."""
        for kind, key, value in self.pending:
            (self.memory if kind == "memory" else self.workspace)[key] = value
        self.pending = []
        live = self.profile.defect("workspace-visible-same-turn")
        window = self.profile.transcript_window
        self.inputs.append(
            {
                "iteration": iteration,
                "memory": self.memory if self.profile.defect("memory-visible-same-turn") else dict(self.memory),
                "workspace": self.workspace if live else dict(self.workspace),
                "transcript": [e["sequence"] for e in self.run.log.events[-window:]],
            }
        )

    def _decide(self) -> tuple[Turn, dict[str, Any]]:
        if self.retry:
            turn = self.retry[0][0]
            workers = [worker for _, worker in self.retry]
            self.retry = []
            return turn, {"kind": "next-worker", "nextWorkerIds": workers}
        turn = self.script.turn(self.position)
        self.position += 1
        return turn, turn.decision

    @property
    def _cross_host(self) -> bool:
        return self.profile.version >= 3 and not self.profile.defect("causation-host-dropped")

    def _escalates(self, confidence: float | None) -> bool:
        return (
            self.profile.version >= 2
            and confidence is not None
            and confidence < self.profile.floor
            and not self.profile.defect("escalation-ignored")
        )

    # --- workers, writes and the critic -------------------------------------------------------

    def _dispatch(self, turn: Turn, workers: list[str]) -> None:
        for worker in workers:
            payload: dict[str, Any] = {"agentId": worker, "decision": {"result": turn.result}}
            confidence = turn.confidence
            if self.profile.defect("replay-nondeterministic"):
                confidence = round(0.9 + (next(_JITTER) % 10) / 100, 2)
            if confidence is not None:
                payload["confidence"] = confidence
            causation = None
            if turn.remote_host is not None and self.profile.version >= 3:
                causation = f"{turn.remote_host}/{self.run.run_id}/i{self.iteration}"
                if self._cross_host:
                    payload["causationHostId"] = turn.remote_host
            event = self.run.log.append("agent.decided", payload, causation_id=causation)
            if turn.remote_host is not None:
                self.cause = (event["eventId"], turn.remote_host)
            self._write(turn, worker)
            if self._check(turn, worker, event):
                self.committed.append(event["eventId"])
            if self.run.status != "running":
                return
            critic = None if self.profile.defect("critic-confidence-ignored") else turn.verdict_confidence
            if self._escalates(confidence) or self._escalates(critic if turn.verdict else None):
                self.run.suspend("escalate")
                return

    def _write(self, turn: Turn, worker: str) -> None:
        if turn.memory_write is not None:
            self.run.log.append(
                "memory.written", {"memoryRef": "run", "memoryId": turn.memory_write, "agentId": worker}
            )
            self.pending.append(("memory", turn.memory_write, self.iteration))
        if turn.workspace_write is not None and self.profile.workspace:
            version = self.workspace.get(turn.workspace_write, 0) + 1
            version += sum(1 for kind, key, _ in self.pending if kind == "workspace" and key == turn.workspace_write)
            self.run.log.append(
                "workspace.written", {"path": turn.workspace_write, "version": version, "agentId": worker}
            )
            self.pending.append(("workspace", turn.workspace_write, version))

    def _check(self, turn: Turn, worker: str, decided: dict[str, Any]) -> bool:
        """The critic's turn over a worker's result; True when the result may be committed."""
        if turn.verdict is None or not self.profile.verifier_supported:
            return True
        target = decided["eventId"]
        if self.profile.defect("verified-leaks-content"):
            target = json.dumps(turn.result, sort_keys=True)
        payload: dict[str, Any] = {
            "agentId": turn.critic,
            "target": target,
            "verdict": turn.verdict,
            "criteria": ["grounded", "schema-valid"],
        }
        if turn.verdict_confidence is not None:
            payload["confidence"] = turn.verdict_confidence
        self.run.log.append("agent.verified", payload, causation_id=decided["eventId"])
        self.verifications.append(
            {
                "target": decided["eventId"],
                "verifierId": turn.critic,
                "actorId": worker,
                "verdict": turn.verdict,
                "selfVerification": turn.critic == worker,
            }
        )
        if not self.profile.verifier_gating or self.profile.defect("gating-ignored"):
            return True
        if turn.verdict == "pass":
            self.blocked = None
            return True
        if turn.verdict == "fail":
            self.blocked = decided["eventId"]
            self.run.suspend("escalate")
            return False
        self.retry.append((turn.retry(), worker))
        return False

    # --- leaving the loop ---------------------------------------------------------------------

    def _terminate(self, decision: dict[str, Any]) -> None:
        if self.blocked is not None and self.profile.verifier_gating and not self.profile.defect("gating-ignored"):
            self.run.fail(
                "verification_failed",
                "the run cannot end as a success: a result it depends on failed verification",
                {"target": self.blocked},
            )
            return
        criteria = decision.get("successCriteria")
        if criteria is None:
            self.outcome = "terminated"
        elif all(entry["met"] for entry in criteria) or self.profile.defect("give-up-as-success"):
            self.outcome = "goal-met"
        else:
            self.outcome = "give-up"
        extra: dict[str, Any] = {"outcome": self.outcome}
        if criteria is not None and self.profile.version >= 6:
            extra["goalMet"] = self.outcome == "goal-met"
        self.run.complete({"committed": list(self.committed)}, **extra)

    # --- inspection ---------------------------------------------------------------------------

    def variables(self) -> dict[str, Any]:
        turns = [
            {
                "iteration": entry["iteration"],
                "memory": sorted(entry["memory"]),
                "workspace": sorted(f"{path}@{version}" for path, version in entry["workspace"].items()),
                "transcript": entry["transcript"],
            }
            for entry in self.inputs
        ]
        loop: dict[str, Any] = {"iteration": self.iteration, "turns": turns, "committed": list(self.committed)}
        if self.verifications:
            loop["verifications"] = [dict(v) for v in self.verifications]
        if self.outcome is not None:
            loop["outcome"] = self.outcome
        if self.resumed_iteration is not None:
            loop["resumedIteration"] = self.resumed_iteration
        return {"loop": loop}

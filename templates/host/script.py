"""The script that drives the deterministic test-double agents of a loop run.

A run of the fixture workflow `conformance.scripted-loop` carries its script in
`inputs.script`: the supervisor's decision for each turn and what the workers and the critic do in
that turn. Every behaviour of the loop is reproducible from it.

    {"turns": [
        {"decision": {"kind": "next-worker", "nextWorkerIds": ["core.sample.worker"]},
         "result": "patched", "confidence": 0.9, "memoryWrite": "m1", "workspaceWrite": "notes.md",
         "verdict": "pass", "verdictConfidence": 0.8, "critic": "core.sample.critic",
         "revisedResult": "patched again", "remoteHost": "host-b"},
        {"decision": {"kind": "terminate", "successCriteria": [{"key": "tests-green", "met": true}]}}
     ],
     "repeatLast": false}

When the turns run out the supervisor terminates, unless `repeatLast` makes it repeat the last
turn forever (a loop that never converges, for the loop bound).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .errors import HostError
from .schemas import errors

LOOP_FIXTURE = "conformance.scripted-loop"
SUPERVISOR = "core.sample.supervisor"
WORKER = "core.sample.worker"
CRITIC = "core.sample.critic"
VERDICTS = ("pass", "fail", "revise")
_TURN_KEYS = frozenset(
    {
        "decision",
        "result",
        "confidence",
        "remoteHost",
        "memoryWrite",
        "workspaceWrite",
        "verdict",
        "verdictConfidence",
        "critic",
        "revisedResult",
    }
)


@dataclass(frozen=True)
class Turn:
    decision: dict[str, Any]
    result: Any = "done"
    confidence: float | None = None
    remote_host: str | None = None
    memory_write: str | None = None
    workspace_write: str | None = None
    verdict: str | None = None
    verdict_confidence: float | None = None
    critic: str = CRITIC
    revised_result: Any = None

    def retry(self) -> Turn:
        """The actor turn a `revise` verdict asks for: the revised result, then a passing check."""
        revised = self.result if self.revised_result is None else self.revised_result
        return replace(self, result=revised, verdict="pass", memory_write=None, workspace_write=None)


@dataclass(frozen=True)
class Script:
    turns: tuple[Turn, ...]
    repeat_last: bool = False

    def turn(self, position: int) -> Turn:
        if position < len(self.turns):
            return self.turns[position]
        if self.repeat_last and self.turns:
            return self.turns[-1]
        return Turn(decision={"kind": "terminate", "reason": "script finished"})


def _bad(message: str, where: str) -> HostError:
    return HostError("validation_error", message, {"field": where})


def _number(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise _bad("must be a number in [0, 1]", where)
    return float(value)


def _text(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise _bad("must be a non-empty string", where)
    return value


def parse_script(raw: Any) -> Script:
    """Read `inputs.script`; anything malformed is the client's validation error."""
    if not isinstance(raw, dict) or not isinstance(raw.get("turns"), list) or not raw["turns"]:
        raise _bad("inputs.script must be an object with a non-empty list of turns", "inputs.script")
    turns = []
    for index, entry in enumerate(raw["turns"]):
        where = f"inputs.script.turns[{index}]"
        if not isinstance(entry, dict) or set(entry) - _TURN_KEYS:
            raise _bad(f"a turn is an object with the members {', '.join(sorted(_TURN_KEYS))}", where)
        problems = errors("orchestrator-decision", entry.get("decision"))
        if problems:
            raise _bad("decision is not an OrchestratorDecision: " + "; ".join(problems), where + ".decision")
        verdict = entry.get("verdict")
        if verdict is not None and verdict not in VERDICTS:
            raise _bad(f"verdict must be one of {', '.join(VERDICTS)}", where + ".verdict")
        turns.append(
            Turn(
                decision=entry["decision"],
                result=entry.get("result", "done"),
                confidence=_number(entry.get("confidence"), where + ".confidence"),
                remote_host=_text(entry.get("remoteHost"), where + ".remoteHost"),
                memory_write=_text(entry.get("memoryWrite"), where + ".memoryWrite"),
                workspace_write=_text(entry.get("workspaceWrite"), where + ".workspaceWrite"),
                verdict=verdict,
                verdict_confidence=_number(entry.get("verdictConfidence"), where + ".verdictConfidence"),
                critic=_text(entry.get("critic"), where + ".critic") or CRITIC,
                revised_result=entry.get("revisedResult"),
            )
        )
    repeat = raw.get("repeatLast", False)
    if not isinstance(repeat, bool):
        raise _bad("repeatLast must be a boolean", "inputs.script.repeatLast")
    return Script(tuple(turns), repeat)

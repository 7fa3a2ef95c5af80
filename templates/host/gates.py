"""Verification gates (RFC 0901): the plan a gate run follows, and the engine that runs it.

A gate run grades a generator's output at one gate, attempt after attempt, and routes on the
outcome through its verification node's `pass`, `fail` or `refer` edge. Every rule is decided by
the semantic package (`semantics/`, copied verbatim from wopgen): the definitions are checked with
`problems(...)`, each verifier's verdict comes from `judgement_verdict`, the gate's from
`quorum_verdict`, what happens next from `disposition`. Events, per attempt:

    agent.decided (the generator's output) -> verification.started
    -> per verifier: provider.usage, agent.verified (target: the resultId)
    -> verification.completed (ids, verdict, disposition, counts and cost; never a finding)

The result with its findings is kept on the run and served by the findings resource only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import HostError
from .events import InvalidEvent
from .grader import UNSCRIPTED, Grader, Scripted, price
from .profiles import Profile
from .runs import Run
from .schemas import errors
from .scoring import as_text, text_tokens
from .semantics import problems
from .semantics.verification import (
    ACCEPTING,
    SELF_EVALUATION,
    SELF_HANDOFF,
    behaviour_in_force,
    disposition,
    finding_counts,
    judgement_verdict,
    quorum_verdict,
)

GATE_FIXTURE = "conformance.verification-gate"  # the workflow id of a gate run
DEFAULT_VERIFIER = "core.sample.verifier-{}"
EDGE_OF = {
    "proceed": "pass",
    "proceed_with_conditions": "pass",
    "reattempt": "fail",
    "escalate": "refer",
    "reject": None,
}
_FRESH = ("output", "intent", "constraints")  # all a verifier context may hold
_NOTHING: dict[str, Any] = {}  # read-only
_DEFAULT_VERIFIERS = tuple(DEFAULT_VERIFIER.format(i) for i in range(1, 17))  # the usual counts' ids, made once


def _refused(message: str, **details: Any) -> HostError:
    return HostError("validation_error", message, details or None)


@dataclass(slots=True)  # read-only by convention: a frozen dataclass costs three times more to make
class GatePlan:
    gate: dict[str, Any]
    generator: str
    verifiers: tuple[str, ...]
    node: dict[str, Any]
    behaviour: dict[str, Any]
    quorum: dict[str, Any] | None
    min_confidence: float | None
    rubric_id: str | None
    outputs: tuple[Any, ...]
    scripts: tuple[tuple[Scripted, ...], ...]
    ceiling: float | None
    handoff_id: str | None
    grader: Grader  # grades every run of the plan: what it works out once is kept for the next
    criteria: list[dict[str, Any]] = field(default_factory=list)  # the gate's evaluation criteria
    dimensions: list[str] = field(default_factory=list)  # their dimensions, in order: what a first attempt grades
    _texts: dict[int, str] = field(default_factory=dict)  # output index -> its text, once asked for

    def output(self, attempt: int) -> Any:
        return self.outputs[min(attempt, len(self.outputs)) - 1]

    def text(self, attempt: int) -> str:
        """The output of `attempt` as the grader reads it (`as_text`), made once per output: the grader,
        the price of an attempt and the price of the next one all read it."""
        index = min(attempt, len(self.outputs)) - 1
        text = self._texts.get(index)
        if text is None:
            text = self._texts[index] = as_text(self.outputs[index])
        return text

    def tokens(self, attempt: int) -> int:
        """What grading the output of `attempt` costs in tokens."""
        return text_tokens(self.text(attempt))

    def scripted(self, attempt: int) -> tuple[Scripted, ...]:
        """What the script pins of each verifier's judgement at `attempt` (verifiers beyond it: UNSCRIPTED)."""
        return self.scripts[min(attempt, len(self.scripts)) - 1]

    def edge_to(self, edge: str) -> str:
        return str(next(e["to"] for e in self.node["edges"] if e["kind"] == edge))


def _semantic(name: str, instance: Any, field: str, profile: Profile) -> None:
    """Refuse `instance` when a semantic rule of RFC 0901 rejects it (mutants skip the rule they break)."""
    for problem in problems(name, instance):
        if problem.rule == SELF_EVALUATION.id and profile.defect("verification-self-evaluation-allowed"):
            continue
        if problem.rule == SELF_HANDOFF.id and profile.defect("verification-self-handoff-allowed"):
            continue
        if problem.rule not in (SELF_EVALUATION.id, SELF_HANDOFF.id) and profile.defect(
            "verification-definitions-unchecked"
        ):
            continue
        raise _refused(
            f"{field}: {problem.message}", rule=problem.rule, field=field + problem.pointer.replace("/", ".")
        )


def parse_plan(body: dict[str, Any], profile: Profile) -> GatePlan:
    """Check a gate run request against RFC 0901 and the advertisement; anything wrong is a validation_error."""
    gate, generator = body["gate"], body["generatorId"]
    _semantic("verification-gate", gate, "gate", profile)
    limits = profile.gates
    quorum = gate.get("multiVerifier")
    count = quorum["verifierCount"] if quorum else 1
    behaviour = behaviour_in_force(gate.get("gateBehaviour"))
    if behaviour["maxAttempts"] > limits.get("maxAttempts", behaviour["maxAttempts"]):
        raise _refused(f"maxAttempts {behaviour['maxAttempts']} is above this host's {limits['maxAttempts']}")
    if count > limits.get("maxVerifiers", count):
        raise _refused(f"verifierCount {count} is above this host's maxVerifiers {limits['maxVerifiers']}")
    if quorum and quorum["quorumStrategy"] not in limits.get("quorumStrategies", ()):
        raise _refused(f"this host does not offer the quorum strategy {quorum['quorumStrategy']}")
    placement = gate["position"]["placement"]
    if placement not in limits.get("placements", (placement,)):
        raise _refused(f"this host does not offer the placement {placement}")

    rubric = body.get("rubric")
    if rubric is not None:
        _semantic("verification-rubric", rubric, "rubric", profile)
        if gate.get("rubricId", rubric["rubricId"]) != rubric["rubricId"]:
            raise _refused(f"the gate grades with {gate.get('rubricId')}, not {rubric['rubricId']}")

    node = dict(body.get("node") or _default_node(gate))
    if node["gateId"] != gate["gateId"]:
        raise _refused(f"the node runs gate {node['gateId']}, not {gate['gateId']}", field="node.gateId")
    if node.get("generatorAgentId", generator) != generator:
        raise _refused("the node pins another generator", field="node.generatorAgentId")
    verifiers = list(body.get("verifierIds") or node.get("verifierAgentIds") or ())
    if not verifiers:
        verifiers = list(_DEFAULT_VERIFIERS[:count])
        verifiers += [DEFAULT_VERIFIER.format(i) for i in range(len(verifiers) + 1, count + 1)]
    if len(verifiers) != count:
        raise _refused(f"the gate asks for {count} verifier(s), {len(verifiers)} are named", field="verifierIds")
    node["generatorAgentId"], node["verifierAgentIds"] = generator, verifiers
    _semantic("verification-node", node, "node", profile)

    handoff = body.get("handoff")
    if handoff is not None:
        _semantic("handoff-artifact", handoff, "handoff", profile)
        if handoff["fromAgentId"] != generator:
            raise _refused("the handoff is not from the generator", field="handoff.fromAgentId")

    criteria = gate["evaluationCriteria"]
    dimensions = {c["dimension"]: c for c in criteria}
    attempts = body["attempts"]
    scripts = []
    for index, attempt in enumerate(attempts):
        judgements = attempt.get("judgements", ())
        if len(judgements) > count:
            raise _refused(f"attempt {index + 1} scripts {len(judgements)} judgements for {count} verifier(s)")
        for judgement in judgements:
            for dimension, score in judgement.get("scores", _NOTHING).items():
                criterion = dimensions.get(dimension)
                if criterion is None:
                    raise _refused(f"the gate grades no dimension {dimension}", field="attempts.judgements.scores")
                if not criterion["scale"]["min"] <= score <= criterion["scale"]["max"]:
                    raise _refused(f"score {score} is outside the scale of {dimension}")
        pinned = tuple([Scripted.parse(j) for j in judgements])
        scripts.append(pinned + (UNSCRIPTED,) * (count - len(pinned)))
    plan = GatePlan(
        gate=gate,
        generator=generator,
        verifiers=tuple(verifiers),
        node=node,
        behaviour=behaviour,
        quorum=quorum,
        min_confidence=None if rubric is None else rubric.get("minConfidence"),
        rubric_id=gate.get("rubricId") or (rubric or {}).get("rubricId"),
        outputs=tuple([a["output"] for a in attempts]),
        scripts=tuple(scripts),
        ceiling=body.get("costCeilingUsd"),
        handoff_id=None if handoff is None else handoff["handoffId"],
        grader=Grader(gate["intentRefs"][0]),
        criteria=criteria,
        dimensions=[c["dimension"] for c in criteria],
    )
    first = count * price(plan.tokens(1), len(dimensions))
    if plan.ceiling is not None and first > plan.ceiling:
        raise _refused(f"costCeilingUsd {plan.ceiling} does not cover one attempt ({first})", field="costCeilingUsd")
    return plan


def vouch(run: Run, result_id: str, profile: Profile) -> dict[str, Any]:
    """The recorded result `result_id` of `run`, once checked: an honest host never serves a result its
    own schema or the semantic rules reject (InvalidEvent: a host bug).

    The check runs when a result is first served, not while the gate decides: every verdict in it
    was decided by the semantic functions the check would apply again, so re-deciding each attempt
    doubled the work of a gate run for results nobody may read.
    """
    result = run.verifications[result_id]
    assert result is not None, "a result still being graded is never served"
    if result_id in run.vouched or profile.mutant:
        return result  # a mutant stands for a host without this check, so the scenarios must catch it
    found = errors("verification-result", result) + [
        f"{p.rule} at {p.pointer}: {p.message}" for p in problems("verification-result", result)
    ]
    if found:
        raise InvalidEvent("host bug: refusing to serve an invalid verification result: " + "; ".join(found))
    run.vouched.add(result_id)
    return result


# The edges of the node a request names none for; shared by every such node, so read-only.
_DEFAULT_EDGES = [
    {"kind": "pass", "to": "deliver"},
    {"kind": "fail", "to": "generate"},
    {"kind": "refer", "to": "human-review"},
]


def _default_node(gate: dict[str, Any]) -> dict[str, Any]:
    return {
        "nodeId": gate["position"].get("nodeId", "verify"),
        "type": "verification",
        "gateId": gate["gateId"],
        "sourceNodeId": "generate",
        "edges": _DEFAULT_EDGES,
    }


class GateRun:
    """The engine of one gate run: attempts until a disposition other than `reattempt`, then the edge."""

    def __init__(self, run: Run, profile: Profile, plan: GatePlan) -> None:
        self.run = run
        self.profile = profile
        self.defects = profile.defects  # asked several times per attempt: read without a call
        self.plan = plan
        self.grader = plan.grader
        # Whether a re-attempt grades only what failed (else every dimension of the gate again).
        self._targeted = (
            plan.behaviour["reverifyScope"] != "full" and "verification-targeted-ignored" not in self.defects
        )
        self.attempts: list[dict[str, Any]] = []  # what the seam reports, per attempt
        self._fresh = [*_FRESH]  # what a fresh verifier context holds: read-only, shared by the run's contexts
        self.spent = 0.0
        self.ceiling_reached = False
        self.edge: str | None = None

    def advance(self) -> None:
        self.run.start({})
        dimensions = self.plan.dimensions
        attempt, previous = 1, None
        while True:
            result, dimensions = self._attempt(attempt, dimensions, previous)
            if result["disposition"] != "reattempt":
                break
            attempt, previous = attempt + 1, result["resultId"]
        self._act(result)

    def resume(self) -> None:
        """A human took the `refer` edge's decision: the output goes on, marked as referred."""
        self.run.complete(self._output())

    def variables(self) -> dict[str, Any]:
        return {
            "verification": {
                "gateId": self.plan.gate["gateId"],
                "nodeId": self.plan.node["nodeId"],
                "results": [a["resultId"] for a in self.attempts],
                "edges": [a["edge"] for a in self.attempts],
                "costUsd": round(self.spent, 6),
            }
        }

    # --- one attempt --------------------------------------------------------------------------

    def _attempt(self, attempt: int, dimensions: list[str], previous: str | None) -> tuple[dict[str, Any], list[str]]:
        plan, log, defects = self.plan, self.run.log, self.defects
        run_id = self.run.run_id
        result_id = f"{run_id}.vr{attempt}"
        target = plan.handoff_id if attempt == 1 and plan.handoff_id else f"{run_id}.handoff-{attempt}"
        output = plan.output(attempt)
        if dimensions is plan.dimensions:  # every dimension of the gate: its criteria as they are
            criteria = plan.criteria
        else:
            criteria = [c for c in plan.criteria if c["dimension"] in dimensions]
        graded = [c["dimension"] for c in criteria]  # read-only: shared by the attempt's verified events and record
        self.run.verifications[result_id] = None  # being graded: the findings resource answers 409
        log.append("agent.decided", {"agentId": plan.generator, "decision": {"output": output, "handoffId": target}})
        started: dict[str, Any] = {
            "gateId": plan.gate["gateId"],
            "resultId": result_id,
            "attempt": attempt,
            "verifierCount": len(plan.verifiers),
            "generatorId": plan.generator,
            "target": target,
        }
        latest = log.append("verification.started", started)
        began = latest["timestamp"]
        judgements, findings, contexts = [], [], []
        floor = None if "verification-refer-never-emitted" in defects else plan.min_confidence
        text = plan.text(attempt)
        charge = price(text_tokens(text), len(criteria))  # every verifier grades the same output alike
        grading = self.grader.attempt(criteria, text, target)
        blocking_passed = "verification-blocking-finding-passed" in defects
        # What a targeted re-attempt grades: the dimensions any verifier scored below the threshold or
        # raised a blocking finding on, gathered while they judge (None: a re-attempt grades every one).
        failed: set[str] | None = set() if self._targeted else None
        # What each verifier's context held: always a new one, with the output and the intent only.
        stale = self._stale_context if self.attempts and "verification-stale-context" in defects else None
        contexts_of = []  # each verifier's context id, which is also its invocation id
        for index, (verifier, scripted) in enumerate(zip(plan.verifiers, plan.scripted(attempt), strict=True)):
            scores, own, confidence = grading.judge(verifier, scripted, f"{result_id}.v{index + 1}", failed)
            counted = [f for f in own if f["classification"] != "blocking"] if blocking_passed else own
            judgement: dict[str, Any] = {
                "verifierId": verifier,
                "verdict": judgement_verdict(scores, counted, confidence, floor)[0],
                "confidence": confidence,
                "scores": scores,
            }
            if scripted.weight is not None:
                judgement["weight"] = scripted.weight
            judgements.append(judgement)
            findings.extend(own)
            context = f"{result_id}/{verifier}"
            contexts_of.append(context)
            if stale is None:
                contexts.append({"verifierId": verifier, "contextId": context, "holds": self._fresh})
            else:
                contexts.append(stale(verifier))
        quorum = plan.quorum
        if quorum is not None and "verification-quorum-ignores-min-agree" in defects:
            quorum = {k: v for k, v in quorum.items() if k != "minAgree"}
        verdict = quorum_verdict(judgements, quorum)
        following = plan.dimensions if failed is None else [d for d in graded if d in failed] or graded
        spent = round(charge * len(judgements), 6)
        behaviour = self._behaviour(attempt, verdict, following, spent)
        chosen = disposition(verdict, attempt, behaviour)
        if "verification-reverify-beyond-max" in defects and chosen != "reattempt" and verdict == "fail":
            chosen = disposition(verdict, attempt, {**behaviour, "maxAttempts": behaviour["maxAttempts"] + 1})
        if "verification-on-fail-ignored" in defects and verdict == "fail" and chosen != "reattempt":
            chosen = "reject" if behaviour["blocking"] else chosen
        revise = behaviour["blocking"] and chosen == "reattempt"  # a failing verifier asks for a revision
        for judgement, invocation in zip(judgements, contexts_of, strict=True):
            usage = {
                "provider": "scripted-verifier",
                "model": "heuristic-grader-1",
                "costUsd": charge,
                "invocationId": invocation,
            }
            log.append("provider.usage", usage)
            said = judgement["verdict"]
            verified = {
                "agentId": judgement["verifierId"],
                "target": result_id,
                "verdict": "pass" if said in ACCEPTING else "revise" if said == "fail" and revise else "fail",
                "criteria": graded,
                "confidence": judgement["confidence"],
            }
            latest = log.append("agent.verified", verified)
            judgement["verifiedEventId"] = latest["eventId"]
        self.spent += spent
        counts = finding_counts(findings)
        result: dict[str, Any] = {
            "resultId": result_id,
            "runId": run_id,
            "gateId": plan.gate["gateId"],
            "attempt": attempt,
            "generatorId": plan.generator,
            "target": target,
            "gateBehaviour": behaviour,
            "reverifyScope": behaviour["reverifyScope"],
            "verdict": verdict,
            "verifiers": judgements,
            "findings": findings,
            "findingCounts": counts,
            "disposition": chosen,
            "costUsd": spent,
            "startedAt": began,
            "completedAt": latest["timestamp"],
        }
        if plan.rubric_id is not None:
            result["rubricId"] = plan.rubric_id
        if plan.min_confidence is not None:
            result["minConfidence"] = plan.min_confidence
        if plan.quorum is not None:
            result["quorum"] = plan.quorum
        if previous is not None:
            result["previousResultId"] = previous
        self.run.verifications[result_id] = result  # checked when first served (see vouch)
        completed = {
            "gateId": self._leaky_gate_id(findings),
            "resultId": result_id,
            "attempt": attempt,
            "verdict": verdict,
            "findingCounts": counts,
            "disposition": chosen,
            "verifierCount": len(judgements),
            "costUsd": spent,
        }
        log.append("verification.completed", completed)
        self.attempts.append(
            {
                "resultId": result_id,
                "attempt": attempt,
                "verdict": verdict,
                "disposition": chosen,
                "edge": EDGE_OF[chosen],
                "costUsd": spent,
                "dimensions": graded,
                "contexts": contexts,
            }
        )
        return result, following

    def _stale_context(self, verifier: str) -> dict[str, Any]:
        """A re-attempt's verifier context as a host with the stale-context defect reports it: the first's."""
        reused = f"{self.attempts[0]['resultId']}/{verifier}"
        return {"verifierId": verifier, "contextId": reused, "holds": [*_FRESH, "previous-findings"]}

    def _behaviour(self, attempt: int, verdict: str, following: list[str], charged: float) -> dict[str, Any]:
        """The gate's behaviour for this attempt: with no budget left for another attempt, this one is the last.

        Verification cost counts toward the run's ceiling (RFC 0901 section K): when the next attempt would pass
        it, no further attempt starts and `onFail` applies now, so this result records `maxAttempts` as reached.
        """
        behaviour = dict(self.plan.behaviour)
        if verdict != "fail" or attempt >= behaviour["maxAttempts"] or self.plan.ceiling is None:
            return behaviour
        if "verification-cost-not-counted" in self.defects:
            return behaviour
        each = price(self.plan.tokens(attempt + 1), len(following))
        upcoming = sum(each for _ in self.plan.verifiers)  # as many additions as verifiers: not a product
        if self.spent + charged + upcoming > self.plan.ceiling:
            self.ceiling_reached = True
            behaviour["maxAttempts"] = attempt
        return behaviour

    def _leaky_gate_id(self, findings: list[dict[str, Any]]) -> str:
        gate_id = str(self.plan.gate["gateId"])
        if "verification-findings-leak" in self.defects and findings:
            return f"{gate_id} {findings[0]['description']}"
        return gate_id

    # --- after the last attempt ---------------------------------------------------------------

    def _act(self, result: dict[str, Any]) -> None:
        chosen = result["disposition"]
        self.edge = EDGE_OF[chosen]
        if chosen == "reject":
            self.run.fail(
                "verification_rejected",
                f"gate {self.plan.gate['gateId']} rejected the output after attempt {result['attempt']}",
                {"gateId": self.plan.gate["gateId"], "resultId": result["resultId"]},
            )
        elif chosen == "escalate":
            self.run.suspend("escalate")
        else:
            self.run.complete(self._output())

    def _output(self) -> dict[str, Any]:
        edge = self.edge or "pass"
        return {
            "gateId": self.plan.gate["gateId"],
            "edge": edge,
            "to": self.plan.edge_to(edge),
            "resultIds": [a["resultId"] for a in self.attempts],
        }

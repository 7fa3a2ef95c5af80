"""Verification gates, rubrics and structured findings (RFC 0901).

Two shape scenarios run on the corpus alone. The gated ones drive the conformance seam
`POST /v1/host/sample/verification/run` with scripted outputs and judgements, then read what the
host published: every result from the findings resource, every event from the log. Each result
must validate, break no rule of `wopgen.semantics`, and agree with its events; the expected
verdicts, dispositions and edges are written out from the tables of RFC 0901, not computed by the
functions under test.
"""

from __future__ import annotations

import json
from typing import Any

from wopgen.conformance.model import BEHAVIOUR, CORPUS, Context, Scenario, Skip, Unwired, always, flag, of_type
from wopgen.semantics import RULES, problems
from wopgen.semantics.verification import NODE_EDGES, finding_counts

SEAM = "/v1/host/sample/verification/run"
RESPONSE = "sample-verification-run-response"
GENERATOR = "core.sample.writer"
_MARKER = "CONFIDENTIAL-91c2"
_SCHEMAS = (
    "verification-gate",
    "verification-rubric",
    "verification-finding",
    "verification-result",
    "handoff-artifact",
    "verification-node",
)
_EDGE = {"proceed": "pass", "proceed_with_conditions": "pass", "reattempt": "fail", "escalate": "refer", "reject": None}
_FRESH = {"output", "intent", "constraints", "knowledge"}  # RFC 0901 G: knowledge entries are optional
_STARTED = {"gateId", "resultId", "attempt", "verifierCount", "generatorId", "target"}
_COMPLETED = {"gateId", "resultId", "attempt", "verdict", "findingCounts", "disposition", "verifierCount", "costUsd"}
_VERIFIED = {"agentId", "target", "verdict", "criteria", "confidence", "causationHostId"}
_ROOT_GATES = flag("verificationGates", "supported")
_DEPRECATED_GATES = flag("multiAgent", "executionModel", "verifier", "gates", "supported")


def GATES(caps: dict[str, Any]) -> str | None:
    """Gates are advertised in the root family; the deprecated place inside `verifier` is still honoured."""
    if _ROOT_GATES(caps) is None or _DEPRECATED_GATES(caps) is None:
        return None
    return "verificationGates.supported is not advertised"


# --- building requests ------------------------------------------------------------------------


def criterion(dimension: str, threshold: float = 4, description: str = "") -> dict[str, Any]:
    found: dict[str, Any] = {
        "dimension": dimension,
        "scale": {"min": 1, "max": 5, "type": "integer"},
        "passThreshold": threshold,
    }
    if description:
        found["description"] = description
    return found


def gate(
    dimensions: tuple[str, ...] = ("correctness",),
    *,
    quorum: dict[str, Any] | None = None,
    rubric: str | None = None,
    **behaviour: Any,
) -> dict[str, Any]:
    found: dict[str, Any] = {
        "gateId": "conformance-gate",
        "name": "Conformance gate",
        "position": {"workflowId": "conformance.verification-gate", "phaseId": "draft", "placement": "phase_exit"},
        "intentRefs": ["intent-conformance"],
        "evaluationCriteria": [criterion(d) for d in dimensions],
        "verifierRequirements": {"freshContext": True},
        "gateBehaviour": behaviour,
    }
    if quorum is not None:
        found["multiVerifier"] = quorum
    if rubric is not None:
        found["rubricId"] = rubric
    return found


def judged(*judgements: dict[str, Any], output: Any = "the draft") -> dict[str, Any]:
    return {"output": output, "judgements": list(judgements)}


def scores(value: float, *dimensions: str) -> dict[str, Any]:
    return {"scores": {d: value for d in dimensions or ("correctness",)}}


def finding(classification: str, dimension: str = "correctness", text: str = "a finding") -> dict[str, Any]:
    return {"dimension": dimension, "classification": classification, "description": text}


PASSING = scores(5)
FAILING = scores(2)


def rubric(min_confidence: float) -> dict[str, Any]:
    return {
        "rubricId": "conformance-rubric",
        "criteria": [{"criterionId": "correct", "weight": 1.0, "grade": "score"}],
        "minConfidence": min_confidence,
    }


def request(the_gate: dict[str, Any], *attempts: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"gate": the_gate, "generatorId": GENERATOR, "attempts": list(attempts), **extra}


# --- reading what the host did ---------------------------------------------------------------


def advertised(ctx: Context) -> dict[str, Any]:
    block = ctx.caps.get("verificationGates")
    if not isinstance(block, dict):
        block = ctx.caps.get("multiAgent", {}).get("executionModel", {}).get("verifier", {}).get("gates", {})
    return block if isinstance(block, dict) else {}


def result(ctx: Context, run_id: str, result_id: str) -> dict[str, Any]:
    reply = ctx.request("GET", f"/v1/runs/{run_id}/verifications/{result_id}")
    ctx.equal(reply.status, 200, f"GET the verification result {result_id}")
    ctx.valid("verification-result", reply.body, f"verification result {result_id}")
    broken = [f"{p.rule} at {p.pointer or '/'}: {p.message}" for p in problems("verification-result", reply.body)]
    ctx.check(not broken, f"verification result {result_id} breaks RFC 0901: {'; '.join(broken[:3])}")
    return dict(reply.body)


def drive(ctx: Context, body: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Run one gate through the seam; (answer, results, events) once they are checked against each other."""
    answer = ctx.seam(SEAM, body, RESPONSE)
    run_id = str(answer["runId"])
    results = [result(ctx, run_id, a["resultId"]) for a in answer["attempts"]]
    events = ctx.events(run_id)
    started, completed = of_type(events, "verification.started"), of_type(events, "verification.completed")
    ctx.equal(len(started), len(results), "verification.started events, one per attempt")
    ctx.equal(len(completed), len(results), "verification.completed events, one per attempt")
    previous = None
    for number, (outcome, found) in enumerate(zip(answer["attempts"], results, strict=True), start=1):
        what = f"attempt {number}"
        ctx.equal(found["attempt"], number, f"{what}: the result's attempt")
        ctx.equal(found.get("previousResultId"), previous, f"{what}: previousResultId")
        ctx.equal((found["verdict"], found["disposition"]), (outcome["verdict"], outcome["disposition"]), what)
        ctx.equal(outcome["edge"], _EDGE[found["disposition"]], f"{what}: the edge of disposition")
        ctx.check(
            all(v["verifierId"] != found["generatorId"] for v in found["verifiers"]),
            f"{what}: a verifier is the generator",
        )
        begin, end = started[number - 1]["payload"], completed[number - 1]["payload"]
        ctx.equal((begin["resultId"], end["resultId"]), (found["resultId"], found["resultId"]), f"{what}: event ids")
        ctx.equal(end["verdict"], found["verdict"], f"{what}: verification.completed verdict")
        ctx.equal(end["findingCounts"], finding_counts(found["findings"]), f"{what}: verification.completed counts")
        ctx.equal(end.get("disposition"), found["disposition"], f"{what}: verification.completed disposition")
        ctx.equal(end.get("costUsd"), found.get("costUsd"), f"{what}: verification.completed costUsd")
        verified = [e for e in of_type(events, "agent.verified") if e["payload"]["target"] == found["resultId"]]
        ctx.equal(
            sorted(e["payload"]["agentId"] for e in verified),
            sorted(v["verifierId"] for v in found["verifiers"]),
            f"{what}: one agent.verified per verifier, targeting the resultId",
        )
        ids = {e["eventId"] for e in verified}
        for judgement in found["verifiers"]:
            if "verifiedEventId" in judgement:
                ctx.check(judgement["verifiedEventId"] in ids, f"{what}: a verifiedEventId is not an agent.verified")
        previous = found["resultId"]
    return answer, results, events


def refused(ctx: Context, body: dict[str, Any], what: str) -> None:
    reply = ctx.request("POST", SEAM, body)
    if reply.status in (404, 405):
        why = f"the seam {SEAM} is not wired (HTTP {reply.status})"
        raise Unwired(why) if ctx.asserted else Skip(why)
    ctx.error_code(reply, "validation_error", what, "gates-enforced")


def verdicts(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(a["verdict"], a["disposition"]) for a in answer["attempts"]]


# --- shape scenarios (no server) --------------------------------------------------------------


def gate_shape(ctx: Context) -> None:
    rules_seen: set[str] = set()
    for example in ctx.corpus.examples:
        if example.schema_name not in _SCHEMAS:
            continue
        instance = example.doc.data
        schema_problems = ctx.schema_errors(example.schema_name, instance)
        found = problems(example.schema_name, instance)
        if example.kind == "valid":
            ctx.check(not schema_problems, f"{example.path} breaks its schema: {schema_problems[:1]}")
            ctx.check(not found, f"{example.path} breaks {[p.rule for p in found]}")
        else:
            ctx.check(bool(schema_problems or found), f"{example.path} is accepted by its schema and every rule")
            rules_seen |= {p.rule for p in found}
    missing = sorted({r.id for r in RULES} - rules_seen)
    ctx.check(not missing, f"no invalid example exercises the semantic rules {missing}")
    for name in ("verification.started", "verification.completed"):
        payload = ctx.payload(name).node
        ctx.equal(payload.get("additionalProperties"), False, f"{name} payload is closed")
        ctx.equal(payload.get("x-wop-content-free"), True, f"{name} payload is content-free")
    completed = {"gateId": "g", "resultId": "r", "attempt": 1, "verdict": "fail"}
    counts = {"blocking": 1, "warning": 0, "advisory": 0}
    pointer = ctx.payload_pointer("verification.completed")
    ctx.valid("run-event-payloads", {**completed, "findingCounts": counts}, "a verification.completed", pointer)
    leaked = {**completed, "findingCounts": counts, "findings": [{"description": "x"}]}
    ctx.invalid("run-event-payloads", leaked, "findings inside verification.completed", pointer)
    ctx.invalid(
        "run-event-payloads", {**completed, "findingCounts": {**counts, "text": "x"}}, "text in findingCounts", pointer
    )


def node_edges(ctx: Context) -> None:
    edges = [{"kind": "pass", "to": "deliver"}, {"kind": "fail", "to": "generate"}, {"kind": "refer", "to": "human"}]
    node = {"nodeId": "verify", "type": "verification", "gateId": "g", "edges": edges}
    ctx.valid("verification-node", node, "a node with one edge of each kind")
    ctx.equal(problems("verification-node", node), [], "semantic problems of a node with one edge of each kind")
    broken = {
        "two pass edges": [edges[0], edges[1], {"kind": "pass", "to": "human"}],
        "two fail edges and no refer": [edges[0], edges[1], {"kind": "fail", "to": "elsewhere"}],
        "a refer edge to itself": [edges[0], edges[1], {"kind": "refer", "to": "verify"}],
    }
    for what, bad in broken.items():
        rules = {p.rule for p in problems("verification-node", {**node, "edges": bad})}
        ctx.check(NODE_EDGES.id in rules, f"{what} is not caught by {NODE_EDGES.id}")
    ctx.invalid("verification-node", {**node, "edges": edges[:2]}, "a node with two edges")
    ctx.invalid("verification-node", {**node, "edges": [*edges, edges[0]]}, "a node with four edges")
    for example in ctx.corpus.examples:
        if example.schema_name == "verification-node" and example.kind == "invalid":
            data = example.doc.data
            ctx.check(
                bool(ctx.schema_errors("verification-node", data) or problems("verification-node", data)),
                f"{example.path} is accepted",
            )


# --- behaviour scenarios (the seam) -----------------------------------------------------------


def self_evaluation(ctx: Context) -> None:
    answer, results, _ = drive(ctx, request(gate(), judged(PASSING)))
    ctx.equal(answer["status"], "completed", "a passing gate run")
    refused(ctx, request(gate(), judged(PASSING), verifierIds=[GENERATOR]), "the generator as the verifier")
    trio = gate(quorum={"verifierCount": 3, "quorumStrategy": "majority"})
    pinned = ["core.sample.critic-a", GENERATOR, "core.sample.critic-c"]
    refused(ctx, request(trio, judged(PASSING), verifierIds=pinned), "the generator among a quorum's verifiers")
    node = {
        "nodeId": "verify",
        "type": "verification",
        "gateId": "conformance-gate",
        "generatorAgentId": GENERATOR,
        "verifierAgentIds": [GENERATOR],
        "edges": [{"kind": "pass", "to": "next"}, {"kind": "fail", "to": "gen"}, {"kind": "refer", "to": "human"}],
    }
    refused(ctx, request(gate(), judged(PASSING), node=node), "a node pinning the generator as a verifier")
    handoff = {"handoffId": "h-self", "fromAgentId": GENERATOR, "toAgentId": GENERATOR}
    refused(ctx, request(gate(), judged(PASSING), handoff=handoff), "a handoff from the generator to itself")
    fine = {"handoffId": "h-1", "fromAgentId": GENERATOR, "toAgentId": "core.sample.verifier-1"}
    _, results, _ = drive(ctx, request(gate(), judged(PASSING), handoff=fine))
    ctx.equal(results[0]["target"], "h-1", "the first attempt grades the handoff it was given")


def definitions_rejected(ctx: Context) -> None:
    good_gate = gate()
    drive(ctx, request(good_gate, judged(PASSING)))
    tried = 0
    for example in ctx.corpus.examples:
        if example.kind != "invalid" or example.schema_name not in (
            "verification-gate",
            "verification-rubric",
            "verification-node",
            "handoff-artifact",
        ):
            continue
        data = example.doc.data
        if example.schema_name == "verification-gate":
            body = request(data, judged(PASSING))
        elif example.schema_name == "verification-rubric":
            body = request({**good_gate, "rubricId": data.get("rubricId", "r")}, judged(PASSING), rubric=data)
        elif example.schema_name == "verification-node":
            node = {k: v for k, v in data.items() if k not in ("generatorAgentId", "verifierAgentIds")}
            body = request({**good_gate, "gateId": data.get("gateId", "g")}, judged(PASSING), node=node)
            if "generatorAgentId" in data:  # the self-evaluation case: the node's pinned generator and verifiers
                body = {**body, "generatorId": data["generatorAgentId"], "node": data}
        else:
            body = request(good_gate, judged(PASSING), handoff={**data, "fromAgentId": GENERATOR})
            if data.get("fromAgentId") == data.get("toAgentId"):
                body["handoff"]["toAgentId"] = GENERATOR
        refused(ctx, body, f"the rejected example {example.path}")
        tried += 1
    ctx.check(tried > 0, "the corpus has no rejected verification examples to send")
    limits = advertised(ctx)
    if isinstance(limits.get("maxAttempts"), int):
        refused(ctx, request(gate(maxAttempts=limits["maxAttempts"] + 1), judged(PASSING)), "maxAttempts too high")
    if isinstance(limits.get("maxVerifiers"), int):
        count = limits["maxVerifiers"] + 1
        big = gate(quorum={"verifierCount": count, "quorumStrategy": "any"})
        refused(ctx, request(big, judged(PASSING)), "verifierCount above maxVerifiers")
    refused(ctx, request(gate(), judged(scores(9))), "a scripted score outside its scale")


def decision_table(ctx: Context) -> None:
    cases: list[tuple[str, dict[str, Any], tuple[str, str], str]] = [
        ("row 5: every score passes", request(gate(), judged(PASSING)), ("pass", "proceed"), "completed"),
        (
            "row 5: an advisory finding only",
            request(gate(), judged({**PASSING, "findings": [finding("advisory")]})),
            ("pass", "proceed"),
            "completed",
        ),
        (
            "row 4: a warning",
            request(gate(), judged({**PASSING, "findings": [finding("warning")]})),
            ("conditional_pass", "proceed_with_conditions"),
            "completed",
        ),
        (
            "row 3: a score under its threshold",
            request(gate(maxAttempts=1), judged(FAILING)),
            ("fail", "reject"),
            "failed",
        ),
        (
            "row 2: a blocking finding over passing scores",
            request(gate(maxAttempts=1), judged({**PASSING, "findings": [finding("blocking")]})),
            ("fail", "reject"),
            "failed",
        ),
        (
            "row 1: confidence under minConfidence",
            request(gate(rubric="conformance-rubric"), judged({**PASSING, "confidence": 0.4}), rubric=rubric(0.7)),
            ("refer", "escalate"),
            "waiting-input",
        ),
        (
            "a non-blocking gate records its fail and proceeds",
            request(gate(blocking=False), judged(FAILING)),
            ("fail", "proceed"),
            "completed",
        ),
    ]
    for what, body, expected, status in cases:
        answer, results, _ = drive(ctx, body)
        ctx.equal(verdicts(answer), [expected], what)
        ctx.equal(answer["status"], status, f"{what}: the run's status")
        ctx.equal(results[0]["verifiers"][0]["verdict"], expected[0], f"{what}: the verifier's own verdict")
    once, _, _ = drive(ctx, request(gate(("correctness", "completeness")), judged(output="a report")))
    again, _, _ = drive(ctx, request(gate(("correctness", "completeness")), judged(output="a report")))
    first = result(ctx, once["runId"], once["attempts"][0]["resultId"])["verifiers"]
    second = result(ctx, again["runId"], again["attempts"][0]["resultId"])["verifiers"]
    strip = [{k: v for k, v in j.items() if k != "verifiedEventId"} for j in first]
    ctx.equal([{k: v for k, v in j.items() if k != "verifiedEventId"} for j in second], strip, "the grader's repeat")


def _votes(*accepting: bool, weights: tuple[float, ...] = ()) -> dict[str, Any]:
    judgements = []
    for index, accepts in enumerate(accepting):
        judgement = dict(PASSING if accepts else FAILING)
        if weights:
            judgement["weight"] = weights[index]
        judgements.append(judgement)
    return judged(*judgements)


def quorum(ctx: Context) -> None:
    offered = advertised(ctx).get("quorumStrategies") or []
    ctx.check(isinstance(offered, list), "quorumStrategies is a list")
    cases: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
        ("majority: 2 of 3 accept", {"quorumStrategy": "majority"}, _votes(True, True, False), "pass"),
        ("majority: 1 of 3 accepts", {"quorumStrategy": "majority"}, _votes(True, False, False), "fail"),
        ("majority, minAgree 3: 2 accept", {"quorumStrategy": "majority", "minAgree": 3}, _votes(True, True, False), "fail"),
        ("unanimous: 3 of 3 accept", {"quorumStrategy": "unanimous"}, _votes(True, True, True), "pass"),
        ("unanimous: 2 of 3 accept", {"quorumStrategy": "unanimous"}, _votes(True, True, False), "fail"),
        ("any: 1 of 3 accepts", {"quorumStrategy": "any"}, _votes(False, True, False), "pass"),
        ("any, minAgree 2: 1 accepts", {"quorumStrategy": "any", "minAgree": 2}, _votes(False, True, False), "fail"),
        ("weighted: 3 of 5 weight", {"quorumStrategy": "weighted"}, _votes(True, False, False, weights=(3, 1, 1)), "pass"),
        ("weighted: 1 of 5 weight", {"quorumStrategy": "weighted"}, _votes(False, True, False, weights=(3, 1, 1)), "fail"),
        (
            "weighted, minAgree 2: 1 holding 3 of 5",
            {"quorumStrategy": "weighted", "minAgree": 2},
            _votes(True, False, False, weights=(3, 1, 1)),
            "fail",
        ),
    ]  # fmt: skip
    ran = set()
    for what, strategy, attempt, expected in cases:
        if strategy["quorumStrategy"] not in offered:
            continue
        answer, results, _ = drive(ctx, request(gate(maxAttempts=1, quorum={"verifierCount": 3, **strategy}), attempt))
        ctx.equal(answer["attempts"][0]["verdict"], expected, what)
        ctx.equal(len(results[0]["verifiers"]), 3, f"{what}: judgements in the result")
        ran.add(strategy["quorumStrategy"])
    ctx.equal(sorted(ran), sorted(set(offered)), "quorum strategies exercised")
    if "majority" in offered:
        warned = judged(PASSING, {**PASSING, "findings": [finding("warning")]}, FAILING)
        answer, results, _ = drive(
            ctx, request(gate(quorum={"verifierCount": 3, "quorumStrategy": "majority"}), warned)
        )
        ctx.equal(answer["attempts"][0]["verdict"], "conditional_pass", "an accepting verifier said conditional_pass")
        owners = {f.get("verifierId") for f in results[0]["findings"]}
        ctx.check(None not in owners, "with several verifiers every finding names its verifier")
        ctx.check(len(owners) >= 2, "the dissenting verifier's findings are kept in the result")
        low = judged({**PASSING, "confidence": 0.4}, {**PASSING, "confidence": 0.4}, {**PASSING, "confidence": 0.9})
        body = request(
            gate(rubric="conformance-rubric", quorum={"verifierCount": 3, "quorumStrategy": "majority"}),
            low,
            rubric=rubric(0.7),
        )
        answer, _, _ = drive(ctx, body)
        ctx.equal(verdicts(answer), [("refer", "escalate")], "not accepted and nobody failed: refer")
    for name in ("majority", "unanimous", "weighted", "any"):
        if name not in offered:
            body = request(gate(quorum={"verifierCount": 2, "quorumStrategy": name, "minAgree": 2}), judged())
            refused(ctx, body, f"the quorum strategy {name}, which the host does not advertise")


def reverify(ctx: Context) -> None:
    body = request(gate(maxAttempts=3), judged(FAILING))
    answer, results, events = drive(ctx, body)
    ctx.equal(
        verdicts(answer), [("fail", "reattempt"), ("fail", "reattempt"), ("fail", "reject")], "three failed attempts"
    )
    ctx.equal((answer["status"], answer.get("error")), ("failed", "verification_rejected"), "the rejected run")
    failed = of_type(events, "run.failed")
    ctx.check(bool(failed) and failed[-1]["payload"]["error"]["code"] == "verification_rejected", "run.failed code")
    verified = [e["payload"]["verdict"] for e in of_type(events, "agent.verified")]
    ctx.equal(verified, ["revise", "revise", "fail"], "agent.verified: revise before the last attempt, then fail")
    ctx.equal(len({r["target"] for r in results}), 3, "every attempt grades a new handoff")
    contexts = [c for a in answer["attempts"] for c in a["contexts"]]
    ctx.equal(len({c["contextId"] for c in contexts}), len(contexts), "every attempt has fresh verifier contexts")
    for context in contexts:
        ctx.check(set(context["holds"]) <= _FRESH, f"a verifier context holds {sorted(context['holds'])}")

    three = gate(("correctness", "completeness", "consistency"), maxAttempts=3)
    first = judged({"scores": {"correctness": 2, "completeness": 5, "consistency": 5}})
    second = judged({"scores": {"correctness": 5}})
    answer, results, _ = drive(ctx, request(three, first, second))
    ctx.equal(verdicts(answer), [("fail", "reattempt"), ("pass", "proceed")], "a targeted re-verification")
    ctx.equal(answer["attempts"][1]["dimensions"], ["correctness"], "targeted scope grades only what failed")
    graded = [s["dimension"] for s in results[1]["verifiers"][0]["scores"]]
    ctx.equal(graded, ["correctness"], "the second result scores only the failed dimension")
    ctx.equal((answer["status"], answer["edge"]), ("completed", "pass"), "the output passes on the second attempt")

    full = gate(("correctness", "completeness", "consistency"), maxAttempts=3, reverifyScope="full")
    answer, _, _ = drive(ctx, request(full, first, judged(scores(5, "correctness", "completeness", "consistency"))))
    ctx.equal(len(answer["attempts"][1]["dimensions"]), 3, "full scope grades every dimension again")


def on_fail(ctx: Context) -> None:
    cases = [
        ("reject", [("fail", "reattempt"), ("fail", "reject")], "failed", None),
        ("conditional_pass", [("fail", "reattempt"), ("fail", "proceed_with_conditions")], "completed", "pass"),
        ("escalate", [("fail", "reattempt"), ("fail", "escalate")], "waiting-input", "refer"),
    ]
    for action, expected, status, edge in cases:
        answer, _, _ = drive(ctx, request(gate(maxAttempts=2, onFail=action), judged(FAILING)))
        ctx.equal(verdicts(answer), expected, f"onFail {action}")
        ctx.equal((answer["status"], answer["edge"]), (status, edge), f"onFail {action}: where the run went")
    answer, _, _ = drive(ctx, request(gate(maxAttempts=1, onFail="escalate"), judged(FAILING)))
    ctx.equal(verdicts(answer), [("fail", "escalate")], "onFail escalate after a single attempt")
    reply = ctx.request("POST", f"/v1/runs/{answer['runId']}:resume", {"reason": "a human accepted it"})
    ctx.equal(reply.status, 200, "resuming an escalated gate run")
    ctx.equal(ctx.settle(answer["runId"])["status"], "completed", "a human's decision ends the escalated run")


def cost_ceiling(ctx: Context) -> None:
    body = request(gate(maxAttempts=3), judged(FAILING))
    free, results, events = drive(ctx, body)
    costs = [float(r.get("costUsd", 0)) for r in results]
    ctx.check(all(c > 0 for c in costs), f"every attempt reports what it cost: {costs}")
    usage = sum(float(e["payload"].get("costUsd", 0)) for e in of_type(events, "provider.usage"))
    ctx.check(abs(usage - sum(costs)) < 1e-6, f"provider.usage sums to {usage}, the results to {sum(costs)}")
    ctx.check(abs(float(free["costUsd"]) - sum(costs)) < 1e-6, "the run's verification cost is every attempt's")
    ceiling = costs[0] + costs[1] / 2
    capped, capped_results, _ = drive(ctx, {**body, "costCeilingUsd": ceiling})
    ctx.equal(verdicts(capped), [("fail", "reject")], "no attempt starts that would pass the ceiling; onFail applies")
    ctx.check(
        float(capped["costUsd"]) <= ceiling, f"verification spent {capped['costUsd']} over a ceiling of {ceiling}"
    )
    ctx.equal(capped.get("ceilingReached"), True, "the answer says the ceiling cut the attempts short")
    ctx.equal(capped_results[0]["gateBehaviour"]["maxAttempts"], 1, "the result records its attempt as the last")
    refused(ctx, {**body, "costCeilingUsd": costs[0] / 2}, "a ceiling below the cost of one attempt")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def no_content_leak(ctx: Context) -> None:
    secret = finding("blocking", text=f"{_MARKER} the ledger says 3.8%")
    advice = {**finding("advisory", text=f"{_MARKER} advice"), "recommendation": f"{_MARKER} fix"}
    output = f"{_MARKER} revenue rose 4%\nTODO {_MARKER} cite the ledger"
    bodies = [
        request(gate(maxAttempts=2), judged({**PASSING, "findings": [secret, advice]}, output=output)),
        request(gate(quorum={"verifierCount": 3, "quorumStrategy": "any"}), _votes(True, False, True)),
    ]
    seen_findings = 0
    for body in bodies:
        answer, results, events = drive(ctx, body)
        result_ids = {r["resultId"] for r in results}
        texts = {_MARKER, "ledger"} | {f["description"] for r in results for f in r["findings"]}
        for event in events:
            payload = event["payload"]
            if event["type"].startswith("verification."):
                allowed = _STARTED if event["type"] == "verification.started" else _COMPLETED
                ctx.check(set(payload) <= allowed, f"{event['type']} has undeclared members {sorted(payload)}")
            elif event["type"] == "agent.verified" and payload.get("target") in result_ids:
                ctx.check(set(payload) <= _VERIFIED, f"agent.verified has undeclared members {sorted(payload)}")
            else:
                continue
            leaked = [s for s in _strings(payload) if any(t in s for t in texts)]
            ctx.check(not leaked, f"{event['type']} carries finding or output text: {leaked[:1]}")
        seen_findings += sum(len(r["findings"]) for r in results)
        run_id, result_id = answer["runId"], results[0]["resultId"]
        path = f"/v1/runs/{run_id}/verifications/{result_id}"
        ctx.error(
            ctx.request("GET", path, auth=False), "unauthenticated", "the findings without a key", "bearer-required"
        )
        if ctx.transport.second_key:
            answer_other = ctx.request("GET", path, key=ctx.transport.second_key)
            ctx.failed_status(
                answer_other, 403, 404, "the findings read with a key of another owner scope", "owner-scope"
            )
        unknown = ctx.request("GET", f"/v1/runs/{run_id}/verifications/no-such-result")
        ctx.error(unknown, "not_found", "an unknown result id", "unknown-run")
        ctx.error(
            ctx.request("GET", f"/v1/runs/no-such-run/verifications/{result_id}"),
            "not_found",
            "an unknown run",
            "unknown-run",
        )
    first = json.dumps(result(ctx, *_first(ctx, bodies[0])))
    ctx.check(_MARKER in first, "the findings resource serves the findings the events leave out")
    ctx.check(seen_findings > 0, "the runs raised findings")


def _first(ctx: Context, body: dict[str, Any]) -> tuple[str, str]:
    answer = ctx.seam(SEAM, body, RESPONSE)
    return str(answer["runId"]), str(answer["attempts"][0]["resultId"])


def _behaviour(name: str, summary: str, body: Any, clause: str) -> Scenario:
    return Scenario(name, BEHAVIOUR, "0901", summary, GATES, body, clause)


SCENARIOS = (
    Scenario(
        "verification-gate-shape",
        CORPUS,
        "0901",
        "The RFC 0901 schemas, their examples and the semantic rules agree; the verification events are closed.",
        always,
        gate_shape,
        "gates-enforced",
    ),
    Scenario(
        "verification-node-edges",
        CORPUS,
        "0901",
        "A verification node has exactly one pass, one fail and one refer edge, none back to itself.",
        always,
        node_edges,
        "node-edges",
    ),
    _behaviour(
        "verification-self-evaluation-rejected",
        "A gate whose verifier is the generator, or a self-handoff, is refused with validation_error.",
        self_evaluation,
        "self-evaluation",
    ),
    _behaviour(
        "verification-definitions-rejected",
        "Gates, rubrics, nodes and handoffs that break RFC 0901, or exceed the advertised limits, are refused.",
        definitions_rejected,
        "gates-enforced",
    ),
    _behaviour(
        "verification-verdicts",
        "Each row of the verdict table, and a non-blocking gate, gives the verdict and disposition RFC 0901 states.",
        decision_table,
        "verdict-table",
    ),
    _behaviour(
        "verification-quorum",
        "For each advertised strategy, scripted judgements yield the quorum verdict of RFC 0901, minAgree included.",
        quorum,
        "min-agree",
    ),
    _behaviour(
        "verification-reverify",
        "A failing output is re-attempted up to maxAttempts in fresh contexts, chained, targeted by default.",
        reverify,
        "fresh-context",
    ),
    _behaviour(
        "verification-on-fail",
        "After the last failed attempt onFail applies: reject fails the run, conditional_pass passes, escalate refers.",
        on_fail,
        "verdict-table",
    ),
    _behaviour(
        "verification-cost-ceiling",
        "Verification cost counts toward the run's ceiling: no attempt starts that would pass it.",
        cost_ceiling,
        "cost-counted",
    ),
    _behaviour(
        "verification-findings-no-content-leak",
        "No verification event carries findings or output; the findings resource needs the run's owner.",
        no_content_leak,
        "content-free",
    ),
)

"""RFC 0901 rules that JSON Schema cannot state: verification gates, rubrics, findings, results,
handoff artifacts and verification nodes.

Two layers. The decision functions (`judgement_verdict`, `quorum_verdict`, `disposition`,
`finding_counts`, `default_min_agree`) are the normative tables of RFC 0901 as code; a host calls
them to decide, and the checkers call them to check that a stated outcome is the one the tables
give. The checkers (`check_gate`, `check_rubric`, ...) take one instance and return `Problem`s;
they never assume the instance already validated against its schema.

A result's optional `gateBehaviour`, `quorum` and `minConfidence` record what its attempt was
decided under. Each one absent means its default, never "unknown": every gate-behaviour default
(`behaviour_in_force`), a single verifier, no confidence floor.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .base import Problem, SemanticRule

NODE_EDGES = SemanticRule(
    "semantic-node-edges",
    "A verification node does not have exactly one pass, one fail and one refer edge, or an edge leads back to the node itself.",
    "give the node exactly three edges, one of each kind, each to another node",
)
SELF_EVALUATION = SemanticRule(
    "semantic-self-evaluation",
    "A verifier is the agent whose output it verifies (generator and verifier must differ).",
    "let a different agent verify; self-evaluation is rejected",
)
QUORUM_MIN_AGREE = SemanticRule(
    "semantic-quorum-min-agree",
    "minAgree is outside [1, verifierCount], or does not fit its strategy (unanimous: all; majority: more than half).",
    "set minAgree between 1 and verifierCount, all of them for unanimous, more than half for majority",
)
QUORUM_VERIFIER_COUNT = SemanticRule(
    "semantic-quorum-verifier-count",
    "A verification result lists a different number of verifiers than its quorum's verifierCount (or, without a quorum, not exactly one).",
    "list one judgement per verifier the quorum asks for",
)
THRESHOLD_IN_SCALE = SemanticRule(
    "semantic-threshold-in-scale",
    "A gate criterion's scale has min >= max or non-integral bounds on an integer scale, or its passThreshold lies outside the scale.",
    "make scale.min < scale.max and scale.min <= passThreshold <= scale.max",
)
WEIGHTS = SemanticRule(
    "semantic-weights",
    "The criterion weights of a rubric do not sum to 1 (tolerance 1e-9).",
    "scale the weights so they add up to exactly 1",
)
SELF_HANDOFF = SemanticRule(
    "semantic-self-handoff",
    "A handoff artifact names the same agent as sender and receiver.",
    "hand off to another agent, or drop the handoff",
)
UNIQUE_IDS = SemanticRule(
    "semantic-unique-ids",
    "An identifier that must be unique within its document repeats (gate dimension, rubric criterion or calibration example, verifier, finding, probe).",
    "give every entry its own id",
)
RUBRIC_CALIBRATION = SemanticRule(
    "semantic-rubric-calibration",
    "A calibration example grades a criterion the rubric does not have, or gives a grade its grade type cannot take.",
    "grade only the rubric's criteria: binary 0 or 1, ternary 0, 0.5 or 1, score within [0, 1]",
)
LINE_RANGE = SemanticRule(
    "semantic-line-range",
    "A line_reference evidence item ends before it starts (endLine < line).",
    "make endLine at least line, or drop it",
)
FINDING_VERIFIER = SemanticRule(
    "semantic-finding-verifier",
    "A finding of a verification result names no verifier of that result (required when there are several verifiers).",
    "set verifierId on each finding to one of the result's verifiers",
)
FINDING_COUNTS = SemanticRule(
    "semantic-finding-counts",
    "The findingCounts of a verification result do not match its findings.",
    "count the findings of each class again",
)
VERDICT_TABLE = SemanticRule(
    "semantic-verdict-table",
    "A verdict disagrees with the decision table of RFC 0901 (scores, findings, confidence and quorum decide it).",
    "state the verdict the table gives, or correct the scores and findings",
)
REVERIFY_DISPOSITION = SemanticRule(
    "semantic-reverify-disposition",
    "A result's attempt or disposition does not follow the re-verification cycle (attempts, maxAttempts, blocking, onFail).",
    "reattempt while attempts remain, then apply onFail; a later attempt names previousResultId",
)

RULES: tuple[SemanticRule, ...] = (
    NODE_EDGES,
    SELF_EVALUATION,
    QUORUM_MIN_AGREE,
    QUORUM_VERIFIER_COUNT,
    THRESHOLD_IN_SCALE,
    WEIGHTS,
    SELF_HANDOFF,
    UNIQUE_IDS,
    RUBRIC_CALIBRATION,
    LINE_RANGE,
    FINDING_VERIFIER,
    FINDING_COUNTS,
    VERDICT_TABLE,
    REVERIFY_DISPOSITION,
)

EDGE_KINDS = ("pass", "fail", "refer")
VERDICTS = ("pass", "conditional_pass", "fail", "refer")
FINDING_CLASSES = ("blocking", "warning", "advisory")
ACCEPTING = ("pass", "conditional_pass")
WEIGHT_TOLERANCE = 1e-9
GRADE_VALUES: Mapping[str, tuple[float, ...]] = {"binary": (0.0, 1.0), "ternary": (0.0, 0.5, 1.0)}
DEFAULT_BEHAVIOUR: Mapping[str, Any] = {
    "blocking": True,
    "onFail": "reject",
    "maxAttempts": 2,
    "reverifyScope": "targeted",
}
_ON_FAIL = {"reject": "reject", "conditional_pass": "proceed_with_conditions", "escalate": "escalate"}


# --- the decision tables ---------------------------------------------------------------------


def _num(value: Any) -> float | None:
    """`value` as a float when it is a finite JSON number (booleans are not numbers), else None."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def judgement_verdict(
    scores: Iterable[Mapping[str, Any]],
    findings: Iterable[Mapping[str, Any]],
    confidence: float | None = None,
    min_confidence: float | None = None,
) -> tuple[str, str]:
    """One verifier's verdict and the reason, by the first row of the table that applies.

    1. confidence below minConfidence -> refer; 2. a blocking finding -> fail; 3. a score below its
    threshold -> fail; 4. a warning finding -> conditional_pass; 5. otherwise pass.
    """
    if confidence is not None and min_confidence is not None and confidence < min_confidence:
        return "refer", f"confidence {confidence} is below minConfidence {min_confidence}"
    classes = [f.get("classification") for f in findings]
    if "blocking" in classes:
        return "fail", "a blocking finding"
    for score in scores:
        value, threshold = _num(score.get("score")), _num(score.get("passThreshold"))
        if value is not None and threshold is not None and value < threshold:
            return "fail", f"score {value:g} on {score.get('dimension')!r} is below its threshold {threshold:g}"
    if "warning" in classes:
        return "conditional_pass", "a warning finding and every score at or above its threshold"
    return "pass", "every score at or above its threshold and no blocking or warning finding"


def default_min_agree(strategy: str, verifier_count: int) -> int:
    """minAgree when a quorum leaves it out."""
    if strategy == "unanimous":
        return verifier_count
    if strategy == "majority":
        return verifier_count // 2 + 1
    return 1


def quorum_verdict(judgements: Sequence[Mapping[str, Any]], quorum: Mapping[str, Any] | None) -> str:
    """The gate's verdict from its verifiers' verdicts.

    Without a quorum there is one verifier and its verdict is the gate's. With one, a verifier
    accepts when its verdict is pass or conditional_pass; the output is accepted when at least
    minAgree verifiers accept (every verifier for `unanimous`; for `weighted` the accepting weight
    must also exceed half of the total). Accepted: conditional_pass if an accepting verifier said
    so, else pass. Not accepted: fail if any verifier failed it, else refer.
    """
    verdicts = [str(j.get("verdict")) for j in judgements]
    if quorum is None:
        return verdicts[0] if len(verdicts) == 1 else "refer"
    strategy = str(quorum.get("quorumStrategy"))
    count = quorum.get("verifierCount")
    count = count if isinstance(count, int) and not isinstance(count, bool) else len(verdicts)
    min_agree = quorum.get("minAgree")
    if not isinstance(min_agree, int) or isinstance(min_agree, bool):
        min_agree = default_min_agree(strategy, count)
    accepting = [j for j in judgements if j.get("verdict") in ACCEPTING]
    accepted = len(accepting) >= min_agree
    if strategy == "unanimous":
        accepted = accepted and len(accepting) == len(verdicts)
    elif strategy == "weighted":
        total = sum(_weight(j) for j in judgements)
        accepted = accepted and 2 * sum(_weight(j) for j in accepting) > total
    if accepted:
        return "conditional_pass" if any(j.get("verdict") == "conditional_pass" for j in accepting) else "pass"
    return "fail" if "fail" in verdicts else "refer"


def _weight(judgement: Mapping[str, Any]) -> float:
    weight = _num(judgement.get("weight", 1.0))
    return 1.0 if weight is None else weight


def behaviour_in_force(declared: Any) -> dict[str, Any]:
    """A gate's behaviour with every default applied: each member that is absent, or not of its
    type, takes its default (blocking true, onFail reject, maxAttempts 2, reverifyScope targeted)."""
    given: Mapping[str, Any] = declared if isinstance(declared, dict) else {}
    blocking, on_fail, limit, scope = (given.get(k) for k in ("blocking", "onFail", "maxAttempts", "reverifyScope"))
    return {
        "blocking": blocking if isinstance(blocking, bool) else DEFAULT_BEHAVIOUR["blocking"],
        "onFail": on_fail if on_fail in _ON_FAIL else DEFAULT_BEHAVIOUR["onFail"],
        "maxAttempts": limit
        if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 1
        else DEFAULT_BEHAVIOUR["maxAttempts"],
        "reverifyScope": scope if scope in ("targeted", "full") else DEFAULT_BEHAVIOUR["reverifyScope"],
    }


def disposition(verdict: str, attempt: int, behaviour: Mapping[str, Any] | None = None) -> str:
    """What a host does with a verdict at a given attempt, under the gate's behaviour (defaults applied)."""
    rules = behaviour_in_force(behaviour)
    limit = rules["maxAttempts"]
    if verdict == "pass":
        return "proceed"
    if verdict == "conditional_pass":
        return "proceed_with_conditions"
    if verdict == "refer":
        return "escalate"
    if rules["blocking"] is False:
        return "proceed"
    if attempt < limit:
        return "reattempt"
    return _ON_FAIL[rules["onFail"]]


def finding_counts(findings: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Findings per class: the only trace of findings that may enter the event stream."""
    tally = dict.fromkeys(FINDING_CLASSES, 0)  # a host asks on every attempt: cheaper than a Counter
    for finding in findings:
        name = str(finding.get("classification"))
        if name in tally:
            tally[name] += 1
    return tally


# --- helpers ----------------------------------------------------------------------------------


def _objects(value: Any) -> list[tuple[int, Mapping[str, Any]]]:
    return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)] if isinstance(value, list) else []


def _duplicates(entries: Iterable[tuple[int, Mapping[str, Any]]], key: str, where: str, what: str) -> Iterable[Problem]:
    seen: set[Any] = set()
    for index, entry in entries:
        value = entry.get(key)
        if not isinstance(value, str):
            continue
        if value in seen:
            yield Problem(UNIQUE_IDS.id, f"{where}/{index}/{key}", f"{what} {value!r} appears more than once")
        seen.add(value)


def _quorum(quorum: Any, where: str) -> Iterable[Problem]:
    if not isinstance(quorum, dict):
        return
    count, strategy, min_agree = quorum.get("verifierCount"), quorum.get("quorumStrategy"), quorum.get("minAgree")
    if not (isinstance(count, int) and isinstance(min_agree, int)) or isinstance(min_agree, bool):
        return
    at = f"{where}/minAgree"
    if not 1 <= min_agree <= count:
        yield Problem(QUORUM_MIN_AGREE.id, at, f"minAgree {min_agree} is outside [1, verifierCount {count}]")
    elif strategy == "unanimous" and min_agree != count:
        yield Problem(QUORUM_MIN_AGREE.id, at, f"a unanimous quorum needs all {count} verifiers, not {min_agree}")
    elif strategy == "majority" and 2 * min_agree <= count:
        yield Problem(QUORUM_MIN_AGREE.id, at, f"minAgree {min_agree} of {count} is not a majority")


def _line_ranges(finding: Mapping[str, Any], where: str) -> Iterable[Problem]:
    for index, item in _objects(finding.get("evidence")):
        line, end = _num(item.get("line")), _num(item.get("endLine"))
        if item.get("evidenceType") == "line_reference" and line is not None and end is not None and end < line:
            yield Problem(
                LINE_RANGE.id, f"{where}/evidence/{index}/endLine", f"endLine {end:g} is before line {line:g}"
            )


# --- checkers, one per schema -----------------------------------------------------------------


def check_gate(gate: Any) -> list[Problem]:
    if not isinstance(gate, dict):
        return []
    found: list[Problem] = []
    criteria = _objects(gate.get("evaluationCriteria"))
    for index, criterion in criteria:
        found.extend(_threshold(criterion, f"/evaluationCriteria/{index}"))
    found.extend(_duplicates(criteria, "dimension", "/evaluationCriteria", "dimension"))
    found.extend(_quorum(gate.get("multiVerifier"), "/multiVerifier"))
    return found


def _threshold(criterion: Mapping[str, Any], where: str) -> Iterable[Problem]:
    scale = criterion.get("scale")
    if not isinstance(scale, dict):
        return
    low, high, threshold = _num(scale.get("min")), _num(scale.get("max")), _num(criterion.get("passThreshold"))
    if low is None or high is None:
        return
    if low >= high:
        yield Problem(THRESHOLD_IN_SCALE.id, f"{where}/scale", f"scale min {low:g} is not below max {high:g}")
        return
    if scale.get("type") == "integer" and not (low.is_integer() and high.is_integer()):
        yield Problem(THRESHOLD_IN_SCALE.id, f"{where}/scale", f"an integer scale has bounds {low:g} and {high:g}")
    if threshold is not None and not low <= threshold <= high:
        yield Problem(
            THRESHOLD_IN_SCALE.id,
            f"{where}/passThreshold",
            f"passThreshold {threshold:g} of {criterion.get('dimension')!r} is outside its scale [{low:g}, {high:g}]",
        )


def check_rubric(rubric: Any) -> list[Problem]:
    if not isinstance(rubric, dict):
        return []
    found: list[Problem] = []
    criteria = _objects(rubric.get("criteria"))
    found.extend(_duplicates(criteria, "criterionId", "/criteria", "criterion"))
    weights = [_num(c.get("weight")) for _, c in criteria]
    numbers = [w for w in weights if w is not None]
    if criteria and len(numbers) == len(weights):
        total = math.fsum(numbers)
        if abs(total - 1.0) > WEIGHT_TOLERANCE:
            found.append(Problem(WEIGHTS.id, "/criteria", f"criterion weights sum to {total!r}, not 1"))
    grades = {str(c.get("criterionId")): str(c.get("grade")) for _, c in criteria}
    examples = _objects(rubric.get("calibrationExamples"))
    found.extend(_duplicates(examples, "exampleId", "/calibrationExamples", "calibration example"))
    for index, example in examples:
        expected = example.get("expectedGrades")
        if not isinstance(expected, dict):
            continue
        for criterion, grade in expected.items():
            where = f"/calibrationExamples/{index}/expectedGrades/{criterion.replace('~', '~0').replace('/', '~1')}"
            if criterion not in grades:
                found.append(Problem(RUBRIC_CALIBRATION.id, where, f"the rubric has no criterion {criterion!r}"))
            elif _num(grade) is not None and grade not in GRADE_VALUES.get(grades[criterion], (grade,)):
                allowed = ", ".join(f"{v:g}" for v in GRADE_VALUES[grades[criterion]])
                found.append(
                    Problem(
                        RUBRIC_CALIBRATION.id,
                        where,
                        f"{criterion!r} is graded {grades[criterion]}, so {grade} is not one of {allowed}",
                    )
                )
    return found


def check_finding(finding: Any) -> list[Problem]:
    return list(_line_ranges(finding, "")) if isinstance(finding, dict) else []


def check_result(result: Any) -> list[Problem]:
    if not isinstance(result, dict):
        return []
    found: list[Problem] = []
    judgements = _objects(result.get("verifiers"))
    findings = _objects(result.get("findings"))
    generator = result.get("generatorId")
    for index, judgement in judgements:
        if isinstance(generator, str) and judgement.get("verifierId") == generator:
            found.append(
                Problem(
                    SELF_EVALUATION.id,
                    f"/verifiers/{index}/verifierId",
                    f"verifier {generator!r} is the generator of the output it verifies",
                )
            )
    found.extend(_duplicates(judgements, "verifierId", "/verifiers", "verifier"))
    found.extend(_duplicates(findings, "findingId", "/findings", "finding"))
    for index, finding in findings:
        found.extend(_line_ranges(finding, f"/findings/{index}"))
    quorum = result.get("quorum") if isinstance(result.get("quorum"), dict) else None
    quorum_problems = list(_quorum(quorum, "/quorum"))
    found.extend(quorum_problems)
    expected = quorum.get("verifierCount") if quorum else 1
    if isinstance(expected, int) and judgements and len(judgements) != expected:
        found.append(
            Problem(
                QUORUM_VERIFIER_COUNT.id,
                "/verifiers",
                f"{len(judgements)} verifier judgements where {expected} are expected",
            )
        )
    found.extend(_finding_owners(judgements, findings))
    found.extend(_counts(result, findings))
    found.extend(_verdicts(result, judgements, findings, quorum, check_quorum=not quorum_problems))
    found.extend(_cycle(result))
    return found


def _finding_owners(
    judgements: list[tuple[int, Mapping[str, Any]]], findings: list[tuple[int, Mapping[str, Any]]]
) -> Iterable[Problem]:
    ids = {j.get("verifierId") for _, j in judgements}
    if not ids:
        return
    for index, finding in findings:
        owner = finding.get("verifierId")
        if owner is None and len(ids) == 1:
            continue
        if owner not in ids:
            text = "names no verifier" if owner is None else f"names {owner!r}, which is not a verifier of the result"
            yield Problem(FINDING_VERIFIER.id, f"/findings/{index}", f"finding {finding.get('findingId')!r} {text}")


def _counts(result: Mapping[str, Any], findings: list[tuple[int, Mapping[str, Any]]]) -> Iterable[Problem]:
    stated = result.get("findingCounts")
    if not isinstance(stated, dict):
        return
    actual = finding_counts(f for _, f in findings)
    for name in FINDING_CLASSES:
        if name in stated and stated[name] != actual[name]:
            yield Problem(
                FINDING_COUNTS.id,
                f"/findingCounts/{name}",
                f"findingCounts.{name} is {stated[name]} but the result holds {actual[name]} {name} finding(s)",
            )


def _verdicts(
    result: Mapping[str, Any],
    judgements: list[tuple[int, Mapping[str, Any]]],
    findings: list[tuple[int, Mapping[str, Any]]],
    quorum: Mapping[str, Any] | None,
    *,
    check_quorum: bool,
) -> Iterable[Problem]:
    if not judgements:
        return
    floor = result.get("minConfidence")
    single = len(judgements) == 1
    for index, judgement in judgements:
        own = [f for _, f in findings if single or f.get("verifierId") == judgement.get("verifierId")]
        if _num(floor) is not None and _num(judgement.get("confidence")) is None:
            yield Problem(
                VERDICT_TABLE.id,
                f"/verifiers/{index}",
                f"minConfidence is {floor} but verifier {judgement.get('verifierId')!r} states no confidence",
            )
        scores = [s for _, s in _objects(judgement.get("scores"))]
        verdict, reason = judgement_verdict(scores, own, _num(judgement.get("confidence")), _num(floor))
        stated = judgement.get("verdict")
        if stated == "refer" and _num(floor) is None:
            reason += "; without minConfidence no confidence floor is in force, so row 1 cannot apply"
        if stated in VERDICTS and stated != verdict:
            yield Problem(
                VERDICT_TABLE.id,
                f"/verifiers/{index}/verdict",
                f"verifier {judgement.get('verifierId')!r} says {stated!r} but the table gives {verdict!r} ({reason})",
            )
    if quorum is None and not single:
        return  # no quorum means one verifier; semantic-quorum-verifier-count reports the others
    stated = result.get("verdict")
    gate_verdict = quorum_verdict([j for _, j in judgements], quorum)
    if check_quorum and stated in VERDICTS and stated != gate_verdict:
        how = f"the {quorum.get('quorumStrategy')} quorum" if quorum else "its single verifier"
        yield Problem(VERDICT_TABLE.id, "/verdict", f"the result says {stated!r} but {how} gives {gate_verdict!r}")


def _cycle(result: Mapping[str, Any]) -> Iterable[Problem]:
    attempt = result.get("attempt")
    if not isinstance(attempt, int) or isinstance(attempt, bool):
        return
    behaviour = behaviour_in_force(result.get("gateBehaviour"))
    limit = behaviour["maxAttempts"]
    if attempt > limit:
        yield Problem(REVERIFY_DISPOSITION.id, "/attempt", f"attempt {attempt} is beyond maxAttempts {limit}")
        return
    if attempt > 1 and "previousResultId" not in result:
        yield Problem(
            REVERIFY_DISPOSITION.id, "/attempt", f"attempt {attempt} does not name the previous attempt's result"
        )
    stated, verdict = result.get("disposition"), result.get("verdict")
    if isinstance(stated, str) and verdict in VERDICTS:
        expected = disposition(str(verdict), attempt, behaviour)
        if stated != expected:
            yield Problem(
                REVERIFY_DISPOSITION.id,
                "/disposition",
                f"verdict {verdict!r} at attempt {attempt} of {limit} gives disposition {expected!r}, not {stated!r}",
            )


def check_handoff(handoff: Any) -> list[Problem]:
    if not isinstance(handoff, dict):
        return []
    found: list[Problem] = []
    sender = handoff.get("fromAgentId")
    if isinstance(sender, str) and sender == handoff.get("toAgentId"):
        found.append(Problem(SELF_HANDOFF.id, "/toAgentId", f"agent {sender!r} hands off to itself"))
    found.extend(_duplicates(_objects(handoff.get("probes")), "probeId", "/probes", "probe"))
    return found


def check_node(node: Any) -> list[Problem]:
    if not isinstance(node, dict):
        return []
    found: list[Problem] = []
    edges = _objects(node.get("edges"))
    kinds = [str(e.get("kind")) for _, e in edges]
    for kind in EDGE_KINDS:
        if kinds.count(kind) != 1:
            found.append(
                Problem(
                    NODE_EDGES.id, "/edges", f"the node has {kinds.count(kind)} {kind!r} edge(s); it needs exactly one"
                )
            )
    for index, edge in edges:
        if isinstance(node.get("nodeId"), str) and edge.get("to") == node.get("nodeId"):
            found.append(
                Problem(NODE_EDGES.id, f"/edges/{index}/to", f"the {edge.get('kind')!r} edge leads to the node itself")
            )
    generator, verifiers = node.get("generatorAgentId"), node.get("verifierAgentIds")
    if isinstance(generator, str) and isinstance(verifiers, list) and generator in verifiers:
        found.append(
            Problem(
                SELF_EVALUATION.id,
                f"/verifierAgentIds/{verifiers.index(generator)}",
                f"generator {generator!r} is also listed as a verifier",
            )
        )
    return found


CHECKERS: Mapping[str, Callable[[Any], list[Problem]]] = {
    "verification-gate": check_gate,
    "verification-rubric": check_rubric,
    "verification-finding": check_finding,
    "verification-result": check_result,
    "handoff-artifact": check_handoff,
    "verification-node": check_node,
}

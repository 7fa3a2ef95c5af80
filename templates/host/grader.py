"""The deterministic heuristic grader of verification gates (RFC 0901).

A verifier grades one output on the dimensions of a gate. Everything it says is a pure function of
the output, the gate's criteria and intent, and the judgement a conformance script may pin:

- the score of a dimension is the share of its keywords (from the criterion's description, else
  its name) that occur in the output, mapped onto the criterion's scale; a scripted score
  replaces it;
- a dimension scored below its threshold gets a blocking finding with a metric and the intent
  as evidence (a criterion with `evidenceRequired: false` gets none);
- each output line holding `TODO` or `FIXME` is a warning finding on `completeness` (else the
  first graded dimension), with the line as evidence, for the first MARKED_LINES such lines; any
  further marked lines make one more finding that counts them, so the findings of a verifier stay
  few and grading stays linear in the size of the output;
- scripted findings are added as they are, with the handoff as evidence;
- the confidence is 0.9 unless the script states one.

No randomness and no clock: the same output and criteria always give the same judgement.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from .budget import spend
from .scoring import as_text, keywords

DEFAULT_CONFIDENCE = 0.9
MARKED_LINES = 8  # marked lines reported one finding each; the rest are counted in one more
PRICE_PER_TOKEN_DIMENSION = 0.00001
_MARKERS = re.compile(r"\b(TODO|FIXME)\b")
_WORD = re.compile(r"[a-z0-9]+")


class Scripted:
    """What a conformance script pins for one verifier of one attempt (all optional). Read-only by
    convention: the scores and findings are the request's own, never copied."""

    __slots__ = ("confidence", "findings", "scores", "weight")

    def __init__(
        self,
        confidence: float | None = None,
        weight: float | None = None,
        scores: Mapping[str, float] | None = None,
        findings: Sequence[dict[str, Any]] = (),
    ) -> None:
        self.confidence = confidence
        self.weight = weight
        self.scores: Mapping[str, float] = _NO_SCORES if scores is None else scores
        self.findings = findings

    @classmethod
    def parse(cls, raw: dict[str, Any]) -> Scripted:
        return cls(raw.get("confidence"), raw.get("weight"), raw.get("scores"), raw.get("findings", ()))


_NO_SCORES: Mapping[str, float] = MappingProxyType({})
UNSCRIPTED = Scripted()  # a verifier whose judgement the script leaves to the grader


def tokens(output: Any) -> int:
    return max(1, len(as_text(output)) // 4)


def cost(output: Any, dimensions: int) -> float:
    """What one verifier charges for grading `dimensions` dimensions of `output`."""
    return price(tokens(output), dimensions)


def price(tokens: int, dimensions: int) -> float:
    """What one verifier charges for grading `dimensions` dimensions of an output of `tokens` tokens."""
    return round(tokens * max(1, dimensions) * PRICE_PER_TOKEN_DIMENSION, 6)


@lru_cache(maxsize=256)
def _wanted(text: str) -> tuple[str, ...]:
    """The keywords of a criterion, found once per text: every verifier of every attempt asks again."""
    return tuple(keywords(text))


@lru_cache(maxsize=4)  # the outputs of the attempts under way: each is as large as a request may be
def _read(text: str) -> tuple[frozenset[str], tuple[tuple[int, str], ...], int]:
    """What grading reads in an output, once per output: every verifier of an attempt grades the same one.

    Its words; its first MARKED_LINES + 1 lines holding a marker, numbered; how many lines hold one.
    """
    marked = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if _MARKERS.search(line)]
    return frozenset(_WORD.findall(text.casefold())), tuple(marked[: MARKED_LINES + 1]), len(marked)


def heuristic_score(criterion: dict[str, Any], output: Any, words: AbstractSet[str] | None = None) -> float:
    """The share of the criterion's keywords found in the output (or its `words`), on the criterion's scale."""
    wanted = _wanted(str(criterion.get("description") or criterion["dimension"].replace("_", " ")))
    if words is None:
        words = _read(as_text(output))[0]
    share = 1.0 if not wanted else sum(w in words for w in wanted) / len(wanted)
    low, high = float(criterion["scale"]["min"]), float(criterion["scale"]["max"])
    value = low + share * (high - low)
    return float(math.floor(value)) if criterion["scale"]["type"] == "integer" else round(value, 4)


class Grading:
    """The grading of one attempt. Every verifier of an attempt grades the same output on the same
    criteria, so what they all read is worked out here once (the output's words and marked lines, each
    criterion's threshold and heuristic score); `judge` adds what is each verifier's own: the scores,
    confidence and findings its script pins, and the ids of its findings."""

    __slots__ = ("_criteria", "_heuristic", "_intent", "_lines", "_marked", "_marked_count", "_target", "_words")

    def __init__(self, criteria: Sequence[dict[str, Any]], output: Any, intent: str, target: str) -> None:
        self._criteria = [
            (c, c["dimension"], float(c["passThreshold"]), c.get("evidenceRequired", True)) for c in criteria
        ]
        self._words, self._lines, self._marked_count = _read(as_text(output)) if criteria else (frozenset(), (), 0)
        graded = [c["dimension"] for c in criteria]
        self._marked = "completeness" if "completeness" in graded else graded[0] if graded else ""
        self._heuristic: dict[int, float] = {}  # criterion index -> its heuristic score, once a verifier needs it
        self._intent = intent
        self._target = target

    def judge(
        self, verifier: str, scripted: Scripted, finding_prefix: str
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], float]:
        """(scores, findings, confidence) of one verifier over the criteria it grades."""
        spend()  # a verifier's grading is bounded: at most 32 criteria, 9 marked lines and 16 scripted findings
        scores: list[dict[str, Any]] = []
        findings: list[dict[str, Any]] = []
        pinned = scripted.scores
        for index, (criterion, dimension, threshold, evidence_required) in enumerate(self._criteria):
            score = pinned.get(dimension)
            if score is not None:
                value = float(score)
            elif index in self._heuristic:
                value = self._heuristic[index]
            else:
                value = self._heuristic[index] = heuristic_score(criterion, None, self._words)
            scores.append({"dimension": dimension, "score": value, "passThreshold": threshold})
            if value < threshold and evidence_required:
                findings.append(
                    {
                        "findingId": f"{finding_prefix}-f{len(findings) + 1}",
                        "verifierId": verifier,
                        "dimension": dimension,
                        "classification": "blocking",
                        "description": f"{dimension} scored {value:g}, below its threshold of {threshold:g}",
                        "evidence": [
                            {
                                "evidenceType": "metric",
                                "metric": f"{dimension}.score",
                                "value": value,
                                "threshold": threshold,
                            },
                            {"evidenceType": "intent_reference", "ref": self._intent},
                        ],
                        "recommendation": f"address {criterion.get('description') or dimension}",
                    }
                )
        if self._lines:
            self._marked_findings(verifier, finding_prefix, findings)
        for raw in scripted.findings:
            finding: dict[str, Any] = {
                "findingId": f"{finding_prefix}-f{len(findings) + 1}",
                "verifierId": verifier,
            }
            for key in ("dimension", "classification", "description", "recommendation"):
                if key in raw:
                    finding[key] = raw[key]
            finding["evidence"] = [{"evidenceType": "artifact_reference", "ref": self._target}]
            findings.append(finding)
        confidence = DEFAULT_CONFIDENCE if scripted.confidence is None else float(scripted.confidence)
        return scores, findings, confidence

    def _marked_findings(self, verifier: str, finding_prefix: str, findings: list[dict[str, Any]]) -> None:
        """A warning per marked line, for the first MARKED_LINES; one more counts the rest."""
        marked = [
            (number, line, "the output still marks unfinished work") for number, line in self._lines[:MARKED_LINES]
        ]
        if self._marked_count > MARKED_LINES:
            number, line = self._lines[MARKED_LINES]
            marked.append((number, line, f"{self._marked_count - MARKED_LINES} more lines still mark unfinished work"))
        for number, line, description in marked:
            findings.append(
                {
                    "findingId": f"{finding_prefix}-f{len(findings) + 1}",
                    "verifierId": verifier,
                    "dimension": self._marked,
                    "classification": "warning",
                    "description": description,
                    "evidence": [
                        {"evidenceType": "line_reference", "ref": self._target, "line": number, "detail": line}
                    ],
                    "recommendation": "finish or remove the marked work",
                }
            )

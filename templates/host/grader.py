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
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .budget import spend
from .scoring import as_text, keywords

DEFAULT_CONFIDENCE = 0.9
MARKED_LINES = 8  # marked lines reported one finding each; the rest are counted in one more
PRICE_PER_TOKEN_DIMENSION = 0.00001
_MARKERS = re.compile(r"\b(TODO|FIXME)\b")
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(slots=True)  # read-only by convention: a frozen dataclass costs three times more to make
class Scripted:
    """What a conformance script pins for one verifier of one attempt (all optional)."""

    confidence: float | None = None
    weight: float | None = None
    scores: dict[str, float] = field(default_factory=dict)
    findings: tuple[dict[str, Any], ...] = ()

    @classmethod
    def parse(cls, raw: dict[str, Any]) -> Scripted:
        return cls(
            confidence=raw.get("confidence"),
            weight=raw.get("weight"),
            scores=dict(raw.get("scores", {})),
            findings=tuple(raw.get("findings", ())),
        )


def tokens(output: Any) -> int:
    return max(1, len(as_text(output)) // 4)


def cost(output: Any, dimensions: int) -> float:
    """What one verifier charges for grading `dimensions` dimensions of `output`."""
    return round(tokens(output) * max(1, dimensions) * PRICE_PER_TOKEN_DIMENSION, 6)


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


def grade(
    *,
    verifier: str,
    criteria: list[dict[str, Any]],
    output: Any,
    intent: str,
    target: str,
    scripted: Scripted,
    finding_prefix: str,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], float]:
    """(scores, findings, confidence) of one verifier over the criteria it grades."""
    scores: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []

    def add(finding: dict[str, Any]) -> None:
        findings.append({"findingId": f"{finding_prefix}-f{len(findings) + 1}", "verifierId": verifier, **finding})

    words, lines, marked_count = _read(as_text(output)) if criteria else (frozenset(), (), 0)
    for criterion in criteria:
        spend()
        dimension = criterion["dimension"]
        score = scripted.scores.get(dimension)
        value = heuristic_score(criterion, output, words) if score is None else float(score)
        threshold = float(criterion["passThreshold"])
        scores.append({"dimension": dimension, "score": value, "passThreshold": threshold})
        if value < threshold and criterion.get("evidenceRequired", True):
            add(
                {
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
                        {"evidenceType": "intent_reference", "ref": intent},
                    ],
                    "recommendation": f"address {criterion.get('description') or dimension}",
                }
            )
    graded = [c["dimension"] for c in criteria]
    marked = "completeness" if "completeness" in graded else graded[0] if graded else ""
    for number, line in lines[:MARKED_LINES]:
        add(
            {
                "dimension": marked,
                "classification": "warning",
                "description": "the output still marks unfinished work",
                "evidence": [{"evidenceType": "line_reference", "ref": target, "line": number, "detail": line}],
                "recommendation": "finish or remove the marked work",
            }
        )
    if marked_count > MARKED_LINES:
        number, line = lines[MARKED_LINES]
        add(
            {
                "dimension": marked,
                "classification": "warning",
                "description": f"{marked_count - MARKED_LINES} more lines still mark unfinished work",
                "evidence": [{"evidenceType": "line_reference", "ref": target, "line": number, "detail": line}],
                "recommendation": "finish or remove the marked work",
            }
        )
    for raw in scripted.findings:
        finding: dict[str, Any] = {
            k: raw[k] for k in ("dimension", "classification", "description", "recommendation") if k in raw
        }
        add({**finding, "evidence": [{"evidenceType": "artifact_reference", "ref": target}]})
    confidence = DEFAULT_CONFIDENCE if scripted.confidence is None else float(scripted.confidence)
    return scores, findings, confidence

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
from .scoring import keywords

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


def heuristic_score(criterion: dict[str, Any], words: AbstractSet[str]) -> float:
    """The share of the criterion's keywords among an output's `words`, on the criterion's scale."""
    wanted = _wanted(str(criterion.get("description") or criterion["dimension"].replace("_", " ")))
    share = 1.0 if not wanted else sum(w in words for w in wanted) / len(wanted)
    low, high = float(criterion["scale"]["min"]), float(criterion["scale"]["max"])
    value = low + share * (high - low)
    return float(math.floor(value)) if criterion["scale"]["type"] == "integer" else round(value, 4)


# What grading reads of one criterion: the criterion, its dimension, threshold and evidenceRequired, and the
# metric and recommendation of a finding on its score.
Facts = tuple[dict[str, Any], str, float, Any, str, str]


class Grader:
    """Grades the outputs of a gate plan, run after run and attempt after attempt. What an attempt would
    work out again is kept with the plan: each criterion's facts, its heuristic score of each output
    text graded (a re-attempt often grades the same text), and what a blocking finding on each score
    says. Criteria are known by identity, so they must outlive the grader unchanged (the gate plan
    holds both). Every entry is a pure function of its key, so threads may fill it side by side."""

    __slots__ = ("_blocking", "_facts", "_heuristic", "_intent")

    def __init__(self, intent: str) -> None:
        self._intent = intent
        self._facts: dict[int, Facts] = {}  # id(criterion) -> its facts
        self._heuristic: dict[tuple[int, str], float] = {}  # (id(criterion), text) -> its heuristic score
        # (id(facts), score) -> a blocking finding on it, but for its ids: shared by every such finding
        self._blocking: dict[tuple[int, float], dict[str, Any]] = {}

    def attempt(self, criteria: Sequence[dict[str, Any]], text: str, target: str) -> Grading:
        """The grading of one attempt: `criteria` graded on the output whose text is `text`."""
        spend()  # an attempt's grading is bounded: up to 16 verifiers, each over up to 32 criteria and 25 findings
        facts: list[Facts] = []
        for criterion in criteria:
            known = self._facts.get(id(criterion))
            if known is None:
                dimension = criterion["dimension"]
                known = self._facts[id(criterion)] = (
                    criterion,
                    dimension,
                    float(criterion["passThreshold"]),
                    criterion.get("evidenceRequired", True),
                    f"{dimension}.score",
                    f"address {criterion.get('description') or dimension}",
                )
            facts.append(known)
        return Grading(self, facts, text, target)

    def blocking(self, facts: Facts, value: float) -> dict[str, Any]:
        """A blocking finding on the criterion of `facts` scored `value`, but for its ids (findingId,
        verifierId): made once per score and shared, so read-only (a zero is made each time: 0.0 and
        -0.0 are one key but read differently)."""
        key = (id(facts), value)
        found = self._blocking.get(key) if value else None
        if found is None:
            threshold = facts[2]
            found = {
                "dimension": facts[1],
                "classification": "blocking",
                "description": f"{facts[1]} scored {value:g}, below its threshold of {threshold:g}",
                "evidence": [
                    {"evidenceType": "metric", "metric": facts[4], "value": value, "threshold": threshold},
                    {"evidenceType": "intent_reference", "ref": self._intent},
                ],
                "recommendation": facts[5],
            }
            if value:
                self._blocking[key] = found
        return found

    def heuristic(self, facts: Facts, text: str, words: AbstractSet[str]) -> float:
        """The heuristic score of the criterion of `facts` on the output whose text is `text` (words: `words`)."""
        key = (id(facts[0]), text)
        score = self._heuristic.get(key)
        if score is None:
            score = self._heuristic[key] = heuristic_score(facts[0], words)
        return score


class Grading:
    """The grading of one attempt (made by `Grader.attempt`). Every verifier of an attempt grades the same
    output on the same criteria, so what they all read is worked out once (the output's words and
    marked lines, the heuristic scores); `judge` adds what is each verifier's own: the scores,
    confidence and findings its script pins, and the ids of its findings."""

    __slots__ = ("_facts", "_grader", "_lines", "_marked", "_marked_count", "_scores", "_target", "_text", "_words")

    def __init__(self, grader: Grader, facts: list[Facts], text: str, target: str) -> None:
        self._grader = grader
        self._facts = facts
        self._text = text
        self._words, self._lines, self._marked_count = _read(text) if facts else (frozenset(), (), 0)
        if self._lines:  # the dimension of a marked-line finding: completeness, else the first graded
            graded = [f[1] for f in facts]
            self._marked = "completeness" if "completeness" in graded else graded[0]
        self._scores: dict[int, float] = {}  # criterion index -> its heuristic score, once a verifier needs it
        self._target = target

    def judge(
        self, verifier: str, scripted: Scripted, finding_prefix: str, failed: set[str] | None = None
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], float]:
        """(scores, findings, confidence) of one verifier over the criteria it grades. With `failed`, the
        dimensions it scores below their threshold or raises a blocking finding on are added to it."""
        scores: list[dict[str, Any]] = []
        findings: list[dict[str, Any]] = []
        pinned, known = scripted.scores, self._scores
        for index, facts in enumerate(self._facts):
            dimension, threshold = facts[1], facts[2]
            score = pinned.get(dimension)
            if score is not None:
                value = float(score)
            elif index in known:
                value = known[index]
            else:
                value = known[index] = self._grader.heuristic(facts, self._text, self._words)
            scores.append({"dimension": dimension, "score": value, "passThreshold": threshold})
            if not value < threshold:
                continue
            if failed is not None:
                failed.add(dimension)
            if facts[3]:
                findings.append(
                    {
                        "findingId": f"{finding_prefix}-f{len(findings) + 1}",
                        "verifierId": verifier,
                        **self._grader.blocking(facts, value),
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
            if failed is not None and finding.get("classification") == "blocking":
                failed.add(finding["dimension"])
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

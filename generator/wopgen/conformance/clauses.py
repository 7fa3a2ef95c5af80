"""The spec clauses conformance assertions enforce: each a MUST of a page under the docs folder.

A clause is named by the page and a phrase of the line that holds its MUST, so it stays found
when lines move; `where(corpus, id)` turns it into `file:line`. Every assertion of a scenario
cites one of these (its own or the scenario's), and asserts nothing stronger than the line says.
`tests/host/test_conformance_clauses.py` proves each phrase is on exactly one line of its page and
that the line says MUST.
"""

from __future__ import annotations

from dataclasses import dataclass

from wopgen.corpus import Corpus


@dataclass(frozen=True)
class Clause:
    id: str
    page: str  # file name under the corpus's docs folder (or a path from the root, for an RFC)
    phrase: str  # a phrase of the line that holds the MUST


_TABLE = (
    # discovery and the run surface
    Clause("discovery-public", "capabilities.md", "MUST NOT require authentication"),
    Clause("families-at-root", "capabilities.md", "Capability families MUST sit at the root"),
    Clause("advertise-only-implemented", "capabilities.md", "A host MUST advertise"),
    Clause("limits-present", "capabilities.md", "`limits.envelopesPerTurn` MUST be present"),
    Clause("bearer-required", "run-surface.md", "without a valid bearer key MUST be answered 401"),
    Clause("error-envelope", "run-surface.md", "MUST carry an error envelope"),
    Clause("malformed-body", "run-surface.md", "is not a JSON object MUST be refused with 400"),
    Clause("body-limit", "run-surface.md", "MUST refuse a larger body"),
    Clause("unknown-run", "run-surface.md", "A run id the host does not know MUST be answered 404"),
    Clause("owner-scope", "run-surface.md", "outside the run's owner scope MUST be refused with 403 or 404"),
    Clause("create-answer", "run-surface.md", "The answer to a run creation MUST"),
    Clause("snapshot-shape", "run-surface.md", "A run snapshot MUST validate"),
    Clause("log-bounds", "run-surface.md", "A run's log MUST begin with `run.started`"),
    Clause("poll-complete", "run-surface.md", "MUST answer no events and `isComplete: true`"),
    Clause("sse-closes", "run-surface.md", "The event stream MUST end after the run's terminal event"),
    Clause("resume-conflict", "run-surface.md", "neither paused nor suspended MUST be refused with 409"),
    Clause("cancel", "run-surface.md", "MUST end it with the status `cancelled`"),
    Clause("workflow-definition", "run-surface.md", "MUST answer 200 with its definition"),
    Clause("openapi-served", "run-surface.md", "`GET /v1/openapi.json` MUST answer 200 without"),
    Clause("events-in-order", "run-events.md", "MUST deliver a run's events in `sequence` order"),
    Clause("event-envelope", "run-surface.md", "Every event a host delivers MUST carry the envelope members"),
    Clause("known-payloads", "run-surface.md", "event of a type the slice defines MUST validate"),
    Clause("gated-events", "run-events.md", "A host MUST NOT emit a gated event type unless"),
    Clause("content-free", "run-events.md", "It MUST"),
    # the orchestrator loop
    Clause("rungs-cumulative", "capabilities.md", "A host advertising version N MUST implement every rung"),
    Clause("loop-rebuildable", "multi-agent-execution.md", "host MUST be able to rebuild the loop's position"),
    Clause("iteration-set", "multi-agent-execution.md", "MUST set `iteration` on every"),
    Clause("turn-inputs", "multi-agent-execution.md", "When turn *i* begins, a host on version 5"),
    Clause("writes-next-turn", "multi-agent-execution.md", "MUST become visible to turn"),
    Clause("stateful-resume", "multi-agent-execution.md", "`executionModel.statefulResume: true` MUST"),
    Clause("loop-bound", "multi-agent-execution.md", "would start turn N + 1, the host MUST refuse"),
    Clause("limit-clamped", "capabilities.md", "the host MUST clamp a higher"),
    Clause("verified-content-free", "multi-agent-execution.md", "The payload is content-free and closed"),
    Clause("self-verification-kept", "multi-agent-execution.md", "then MUST keep the"),
    Clause("fail-not-merged", "multi-agent-execution.md", "the host MUST NOT merge the output"),
    Clause("fail-not-success", "multi-agent-execution.md", "MUST NOT end the run as a success"),
    Clause("give-up", "multi-agent-execution.md", "consumers MUST NOT treat it as having"),
    Clause("seam-iteration", "conformance.md", "`decisions[k].iteration` MUST equal k + 1"),
    # evaluation
    Clause("eval-501", "agent-evaluation.md", "does not advertise `agents.evalSuite.supported` MUST answer 501"),
    Clause("eval-mode-refused", "agent-evaluation.md", "does not list in `agents.evalSuite.modes` MUST be"),
    Clause("eval-summary-read", "agent-evaluation.md", "MUST answer 404 `not_found` when the run is not an eval run"),
    Clause("eval-order", "agent-evaluation.md", "A host MUST keep this order"),
    Clause("eval-modes-real", "agent-evaluation.md", "MUST list only modes it really implements"),
    Clause("eval-content-free", "agent-evaluation.md", "They MUST NOT contain what a task produced"),
    Clause("eval-tenancy", "agent-evaluation.md", "another tenant MUST"),
    Clause(
        "eval-shadow-replay", "agent-evaluation.md", "Such a replay MUST NOT invoke the agent again and MUST name the"
    ),
    Clause(
        "eval-shadow-refused", "agent-evaluation.md", "recorded no answer for a task to be scored, MUST be answered 400"
    ),
    # verification gates
    Clause("gates-enforced", "verification-gates.md", "a host MUST enforce the same rules on what it accepts"),
    Clause("verdict-table", "verification-gates.md", "A host MUST state the verdicts the table gives"),
    Clause("min-agree", "verification-gates.md", "`minAgree` MUST be between 1 and"),
    Clause("fresh-context", "verification-gates.md", "MUST be graded in fresh verifier contexts"),
    Clause("self-evaluation", "verification-gates.md", "a host MUST refuse a judgement by the generator"),
    Clause("node-edges", "verification-gates.md", "a host MUST refuse a workflow that breaks this"),
    Clause("cost-counted", "verification-gates.md", "Verification cost, every attempt and every verifier, MUST count"),
    Clause("ceiling-stops", "verification-gates.md", "the host MUST NOT start another attempt"),
)

CLAUSES: dict[str, Clause] = {c.id: c for c in _TABLE}


def where(corpus: Corpus, clause_id: str) -> str:
    """`file:line` of the clause in `corpus`, or `file` alone when its phrase is no longer there."""
    clause = CLAUSES[clause_id]
    path = f"{corpus.settings.docs}/{clause.page}"
    doc = corpus.docs.get(path)
    if doc is None:
        return path
    for number, line in enumerate(doc.text.splitlines(), start=1):
        if clause.phrase in line:
            return f"{path}:{number}"
    return path

"""Host profiles: what each generated host advertises, and the mutants that break one promise each.

A profile is a discovery document built from a few feature choices. Honest profiles implement
exactly what they advertise. A mutant starts from the full profile and carries one named defect;
the conformance tests prove every mutant is caught by at least one scenario.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wopgen.corpus.vocabulary import CANCEL_FIXTURE, LOOP_FIXTURE, NOOP_FIXTURE

EVAL_MODES = ("golden", "rubric", "adversarial", "regression", "live-shadow")  # the modes the host really implements


@dataclass(frozen=True)
class Features:
    version: int = 0  # execution-model rung; 0 = no orchestrator loop
    stateful_resume: bool = False
    verifier: bool = False
    gating: bool = False
    workspace: bool = False
    evals: bool = False
    gates: bool = False  # RFC 0901 verification gates (needs the verifier, version 6)


@dataclass(frozen=True)
class ProfileSpec:
    name: str
    description: str
    features: Features
    defects: tuple[str, ...] = field(default=())

    @property
    def mutant(self) -> bool:
        return bool(self.defects)


FULL = Features(version=6, stateful_resume=True, verifier=True, gating=True, workspace=True, evals=True, gates=True)
GATE_PLACEMENTS = ("phase_exit", "workflow_exit", "checkpoint")
QUORUM_STRATEGIES = ("majority", "unanimous", "weighted", "any")  # every strategy the host implements

HONEST: tuple[ProfileSpec, ...] = (
    ProfileSpec("full", "Every rung from 1 to 6, verifier gating, verification gates, workspace, evaluation.", FULL),
    ProfileSpec("core", "The run surface only: no orchestrator loop, no evaluation.", Features()),
    ProfileSpec("v4-only", "Execution model up to replay determinism (version 4).", Features(version=4)),
    ProfileSpec(
        "v5-no-workspace",
        "The stateful loop (version 5) without a workspace or evaluation.",
        Features(version=5, stateful_resume=True),
    ),
    ProfileSpec(
        "verifier-observe",
        "Version 6 with verdicts for observation only (no gating).",
        Features(version=6, stateful_resume=True, verifier=True, workspace=True, evals=True),
    ),
    ProfileSpec(
        "no-eval",
        "Every rung, verification gates and the workspace, but no evaluation.",
        Features(version=6, stateful_resume=True, verifier=True, gating=True, workspace=True, gates=True),
    ),
)

# Each defect breaks one promise of the full profile; the name says which.
DEFECTS: dict[str, str] = {
    "gating-ignored": "A fail verdict is committed anyway.",
    "iteration-reset-on-resume": "Resuming a suspended loop resets the iteration counter.",
    "iteration-missing": "A version-5 host omits iteration from runOrchestrator.decided.",
    "verified-leaks-content": "agent.verified carries the checked result in its target.",
    "eval-events-out-of-order": "eval.completed is emitted before the per-task events.",
    "eval-advertised-not-implemented": "agents.evalSuite is advertised but eval runs answer 501.",
    "live-shadow-invokes-agent": "A live-shadow replay runs the agent again instead of scoring the recorded answers.",
    "loop-bound-ignored": "maxLoopIterations is not enforced.",
    "workspace-visible-same-turn": "A workspace write shows in the snapshot of the turn that made it.",
    "memory-visible-same-turn": "A memory write shows in the snapshot of the turn that made it.",
    "give-up-as-success": "A terminate with a met: false criterion is recorded as goal met.",
    "escalation-ignored": "A decision below the confidence floor does not escalate.",
    "critic-confidence-ignored": "Only the worker's confidence escalates; a critic below the floor does not.",
    "causation-host-dropped": "Work done on another host loses its causationHostId.",
    "replay-nondeterministic": "Re-running the same script yields different events.",
    "auth-not-enforced": "Authenticated operations answer without a valid bearer key.",
    "verification-self-evaluation-allowed": "A gate verifier may be the generator of the output it grades.",
    "verification-self-handoff-allowed": "A handoff artifact from an agent to itself is accepted.",
    "verification-definitions-unchecked": "Gates, rubrics and nodes that break a semantic rule are run anyway.",
    "verification-quorum-ignores-min-agree": "A quorum counts accepting verifiers against the default, not minAgree.",
    "verification-reverify-beyond-max": "A failing output is graded once more than maxAttempts allows.",
    "verification-on-fail-ignored": "After the last failed attempt the output is always rejected, whatever onFail says.",
    "verification-findings-leak": "verification.completed carries a finding's description in gateId.",
    "verification-blocking-finding-passed": "A verifier's blocking finding does not fail its verdict.",
    "verification-cost-not-counted": "Verification cost does not count toward the run's cost ceiling.",
    "verification-gates-advertised-not-implemented": "verificationGates is advertised but gate runs answer 501.",
    "verification-refer-never-emitted": "A verifier below the rubric's minConfidence is not referred.",
    "verification-targeted-ignored": "A targeted re-verification grades every dimension again.",
    "verification-stale-context": "A re-attempt is graded in the first attempt's verifier context.",
    "cancel-ignored": "A cancel is answered cancelled but the run goes on.",
    "cancel-event-unknown": "A cancel closes the log with an event type no reader knows instead of run.cancelled.",
    "create-answer-drops-events-url": "The answer to a run creation leaves out the required eventsUrl.",
}

MUTANTS: tuple[ProfileSpec, ...] = tuple(
    ProfileSpec(f"mutant-{name}", summary, FULL, (name,)) for name, summary in sorted(DEFECTS.items())
)
PROFILES: tuple[ProfileSpec, ...] = HONEST + MUTANTS


def capabilities(spec: ProfileSpec, implementation_version: str) -> dict[str, Any]:
    """The discovery document a profile serves."""
    f = spec.features
    document: dict[str, Any] = {
        "protocolVersion": "1.0",
        "implementation": {"name": "wopgen-host", "version": implementation_version, "vendor": "wopgen"},
        "supportedEnvelopes": [],
        "schemaVersions": {},
        "limits": {
            "clarificationRounds": 0,
            "schemaRounds": 0,
            "envelopesPerTurn": 0,
            "maxLoopIterations": 20,
            "maxRequestBodyBytes": 1_048_576,
        },
        "eventLogSchemaVersion": 1,
        "supportedTransports": ["rest"],
    }
    if f.version:
        model: dict[str, Any] = {"supported": True, "version": f.version, "tier": "stable"}
        if f.version >= 2:
            model["confidenceEscalationFloor"] = 0.6
        if f.version >= 5:
            model["statefulResume"] = f.stateful_resume
            model["transcriptWindow"] = 10
        if f.version >= 6:
            model["verifier"] = {"supported": f.verifier, "gating": f.gating}
            if f.gates and f.verifier:
                # RFC 0901's own root block: the published v1 `verifier` block is closed.
                document["verificationGates"] = {
                    "supported": True,
                    "placements": list(GATE_PLACEMENTS),
                    "quorumStrategies": list(QUORUM_STRATEGIES),
                    "maxVerifiers": 5,
                    "maxAttempts": 5,
                }
        document["multiAgent"] = {"executionModel": model}
    document["fixtures"] = sorted([NOOP_FIXTURE, CANCEL_FIXTURE] + ([LOOP_FIXTURE] if f.version else []))
    if f.workspace:
        document["host"] = {"workspace": {"supported": True}}
    if f.evals:
        document["agents"] = {
            "evalSuite": {
                "supported": True,
                "modes": list(EVAL_MODES),
                "maxTasksPerSuite": 200,
                "maxCostUsdPerSuite": 5,
            }
        }
    return document

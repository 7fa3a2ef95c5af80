"""Every conformance scenario, in the order they run, with a rule id each (`conformance-<name>`)."""

from __future__ import annotations

from wopgen.conformance.model import Scenario
from wopgen.conformance.scenarios import core, eval_modes, evals, loop, stated, verification, verifier
from wopgen.diagnostics import Rule, define

SCENARIOS: tuple[Scenario, ...] = (
    core.SCENARIOS
    + loop.SCENARIOS
    + verifier.SCENARIOS
    + stated.SCENARIOS
    + verification.SCENARIOS
    + evals.SCENARIOS
    + eval_modes.SCENARIOS
)
BY_NAME: dict[str, Scenario] = {s.name: s for s in SCENARIOS}

RULES: dict[str, Rule] = {
    s.name: define(s.rule, "error", f"Conformance scenario {s.name} fails: {s.summary}") for s in SCENARIOS
}

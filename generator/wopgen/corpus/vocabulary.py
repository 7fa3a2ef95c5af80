"""Well-known names shared by the generators and the conformance runner, kept in the corpus
package so neither has to import the other."""

from __future__ import annotations

# The fixture workflows of the conformance catalogue a host lists in its discovery `fixtures`
# (ids as the published catalogue spells them).
LOOP_FIXTURE = "conformance-scripted-loop"
NOOP_FIXTURE = "conformance-noop"
CANCEL_FIXTURE = "conformance-cancellable"

# The conformance eval suites a host loads to run the rubric and adversarial eval-mode scenarios.
RUBRIC_SUITE = "core.openwop.evals.rubric-sample"
ADVERSARIAL_SUITE = "core.openwop.evals.adversarial-sample"

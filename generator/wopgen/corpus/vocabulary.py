"""Well-known names shared by the generators and the conformance runner, kept in the corpus
package so neither has to import the other."""

from __future__ import annotations

# The fixture workflow a host lists in its discovery `fixtures` to run scripted loops for conformance.
LOOP_FIXTURE = "conformance.scripted-loop"

# The sample eval suites a host lists in its discovery `fixtures` to run the rubric and adversarial
# eval-mode scenarios.
RUBRIC_SUITE = "core.openwop.evals.rubric-sample"
ADVERSARIAL_SUITE = "core.openwop.evals.adversarial-sample"
SUITE_FIXTURES = (RUBRIC_SUITE, ADVERSARIAL_SUITE)

"""RFC 0901 G against its source: a verifier context may hold institutional knowledge, never an
earlier attempt. A host that follows the verification-framework source and hands its verifiers
knowledge entries passes `verification-reverify`; one that hands them earlier findings fails it."""

from __future__ import annotations

import pytest

from wopgen.conformance.inprocess import in_process
from wopgen.conformance.runner import run
from wopgen.conformance.scenarios import SCENARIOS

REVERIFY = [s for s in SCENARIOS if s.name == "verification-reverify"]


@pytest.mark.parametrize(
    ("holds", "status"),
    [
        (("output", "intent", "constraints", "knowledge"), "passed"),
        (("output", "intent", "constraints", "previous-findings"), "failed"),
        (("output", "intent", "constraints", "trace"), "failed"),
    ],
)
def test_what_a_fresh_context_may_hold(module, repo_corpus, monkeypatch, holds, status):
    monkeypatch.setattr(module.gates, "_FRESH", holds)
    results = run(REVERIFY, in_process(module, "full"), repo_corpus)
    assert [(r.scenario.name, r.status) for r in results] == [("verification-reverify", status)]

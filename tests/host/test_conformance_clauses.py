"""Every conformance clause is one MUST line of the spec, and every failure cites one."""

from __future__ import annotations

import re

from wopgen.conformance import clauses
from wopgen.conformance.inprocess import in_process
from wopgen.conformance.model import Context, Scenario, always
from wopgen.conformance.runner import run
from wopgen.conformance.scenarios import SCENARIOS


def test_every_clause_is_one_line_of_its_page_and_that_line_says_must(repo_corpus):
    for clause in clauses.CLAUSES.values():
        doc = repo_corpus.docs[f"{repo_corpus.settings.docs}/{clause.page}"]
        lines = [line for line in doc.text.splitlines() if clause.phrase in line]
        assert len(lines) == 1, (clause.id, len(lines))
        assert "MUST" in lines[0], clause.id
        assert re.fullmatch(r".+:\d+", clauses.where(repo_corpus, clause.id)), clause.id


def test_every_scenario_names_a_known_default_clause():
    assert [s.name for s in SCENARIOS if s.clause not in clauses.CLAUSES] == []


def test_an_assertion_citing_an_unknown_clause_stops_its_scenario(module, repo_corpus):
    def cites_a_typo(ctx: Context) -> None:
        ctx.check(True, "fine", "no-such-clause")

    scenario = Scenario("typo", "corpus", None, "cites a typo", always, cites_a_typo, "cancel")
    result = run([scenario], in_process(module, "core"), repo_corpus)[0]
    assert result.status == "failed" and "no-such-clause" in result.message


def test_a_clause_whose_phrase_is_gone_is_located_at_its_page(repo_corpus):
    assert clauses.where(repo_corpus, "discovery-public").startswith("spec/v1/capabilities.md:")
    moved = clauses.Clause("gone", "capabilities.md", "no such sentence anywhere")
    clauses.CLAUSES["gone"] = moved
    try:
        assert clauses.where(repo_corpus, "gone") == "spec/v1/capabilities.md"
    finally:
        del clauses.CLAUSES["gone"]

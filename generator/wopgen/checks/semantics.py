"""Semantic rules on valid examples: what JSON Schema cannot state (wopgen.semantics).

A valid example that breaks a semantic rule is a finding under that rule's id, at the line of the
value the rule points at. Invalid examples are left to the examples check, which counts a
semantic breach as a rejection.
"""

from __future__ import annotations

from collections.abc import Iterator

from wopgen import semantics
from wopgen.corpus import Corpus
from wopgen.diagnostics import Diagnostic, Rule, define

RULES: dict[str, Rule] = {rule.id: define(rule.id, "error", rule.summary) for rule in semantics.RULES}
HINTS: dict[str, str] = {rule.id: rule.hint for rule in semantics.RULES}


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    for example in sorted(corpus.examples, key=lambda e: e.path):
        if example.kind != "valid" or example.schema_name not in corpus.schemas_by_name:
            continue
        for problem in semantics.problems(example.schema_name, example.doc.data):
            line, col = example.doc.locate(problem.pointer)
            yield RULES[problem.rule].at(example.path, line, problem.message, HINTS[problem.rule], col=col)

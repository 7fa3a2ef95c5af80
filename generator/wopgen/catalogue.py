"""The rule catalogue: every rule id, its default severity and what it means.

Checks declare their rules here with `define(...)` at import time and build diagnostics with
`Rule.at(...)`, so `wopgen rules`, the docs site and the checks share one source.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from wopgen.diagnostics import Diagnostic, Severity


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    summary: str
    example: str = ""

    def at(
        self,
        path: str,
        line: int,
        message: str,
        hint: str = "",
        *,
        col: int = 1,
        severity: Severity | None = None,
    ) -> Diagnostic:
        return Diagnostic(
            rule=self.id,
            severity=severity or self.severity,
            path=path,
            line=max(line, 1),
            col=max(col, 1),
            message=message,
            hint=hint,
        )


_CATALOGUE: dict[str, Rule] = {}


def define(rule_id: str, severity: str, summary: str, example: str = "") -> Rule:
    if rule_id in _CATALOGUE:
        existing = _CATALOGUE[rule_id]
        if existing.summary != summary:
            raise ValueError(f"rule {rule_id} defined twice with different meanings")
        return existing
    rule = Rule(rule_id, Severity(severity), summary, example)
    _CATALOGUE[rule_id] = rule
    return rule


def rule_modules() -> tuple[ModuleType, ...]:
    """Every module that defines rules, listed one by one, so the catalogue is complete without
    running anything. Imported here, not at the top: each of them imports `define` from this module."""
    from wopgen import corpus_rules
    from wopgen.checks import api, changelog, conformance, docs, examples, invariants, rfcs, schemas, semantics
    from wopgen.compat import rules as compat_rules
    from wopgen.conformance import findings, scenarios
    from wopgen.generate import host

    return (
        corpus_rules,
        schemas,
        examples,
        rfcs,
        docs,
        changelog,
        invariants,
        api,
        semantics,
        conformance,
        compat_rules,
        host,
        findings,
        scenarios,
    )


def catalogue() -> list[Rule]:
    """Every rule, sorted by id, once every module that defines rules is imported."""
    rule_modules()
    return sorted(_CATALOGUE.values(), key=lambda r: r.id)

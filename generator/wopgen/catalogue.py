"""The rule catalogue: every rule id, its default severity and what it means.

Checks declare their rules here with `define(...)` at import time and build diagnostics with
`Rule.at(...)`, so `wopgen rules`, the docs site and the checks share one source.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

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

# Modules whose import defines rules; listed here so the catalogue is complete without running
# anything. A module missing from an install is skipped, never fatal.
_RULE_MODULES = (
    "wopgen.corpus",
    "wopgen.checks",
    "wopgen.compat.rules",
    "wopgen.generate.host",
    "wopgen.generate.models",
    "wopgen.conformance.scenarios",
)


def define(rule_id: str, severity: str, summary: str, example: str = "") -> Rule:
    if rule_id in _CATALOGUE:
        existing = _CATALOGUE[rule_id]
        if existing.summary != summary:
            raise ValueError(f"rule {rule_id} defined twice with different meanings")
        return existing
    rule = Rule(rule_id, Severity(severity), summary, example)
    _CATALOGUE[rule_id] = rule
    return rule


def catalogue() -> list[Rule]:
    """Every rule, sorted by id, after importing every module that defines rules."""
    for module in _RULE_MODULES:
        importlib.import_module(module)
    return sorted(_CATALOGUE.values(), key=lambda r: r.id)

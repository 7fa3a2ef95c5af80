"""Diagnostics: what a check found, where, and how bad it is."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True)
class Diagnostic:
    """One finding. `path` is relative to the corpus root, with forward slashes."""

    rule: str
    severity: Severity
    path: str
    line: int
    col: int
    message: str
    hint: str = ""

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.line, self.col, self.rule, self.message)

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "severity": self.severity.value,
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "message": self.message,
            "hint": self.hint,
        }


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    summary: str
    example: str = ""
    # What `wopgen explain` adds (filled by `catalogue()` from data/explain.yaml): why the rule
    # matters, an input that fails it, one that passes it, and how to fix a finding.
    why: str = ""
    bad: str = ""
    good: str = ""
    fix: str = ""

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


_DEFINED: dict[str, Rule] = {}


def define(rule_id: str, severity: str, summary: str, example: str = "") -> Rule:
    """Declare a rule (at import time of the module whose findings it names); the same id may be
    declared again only with the same meaning."""
    if rule_id in _DEFINED:
        existing = _DEFINED[rule_id]
        if existing.summary != summary:
            raise ValueError(f"rule {rule_id} defined twice with different meanings")
        return existing
    rule = Rule(rule_id, Severity(severity), summary, example)
    _DEFINED[rule_id] = rule
    return rule


def defined() -> list[Rule]:
    """Every rule declared so far, in declaration order. `wopgen.catalogue` imports every module that
    declares rules, so ask it, not this, for the complete list."""
    return list(_DEFINED.values())


def plural(number: int, noun: str, nouns: str | None = None) -> str:
    """`1 error`, `2 errors`, `0 files`: the number and the noun in the form the number takes."""
    return f"{number} {noun if number == 1 else (nouns or noun + 's')}"


def count(diagnostics: list[Diagnostic]) -> dict[str, int]:
    totals = {s.value: 0 for s in Severity}
    for d in diagnostics:
        totals[d.severity.value] += 1
    return totals


def prefix(pattern: str) -> str:
    """The id prefix a selection pattern stands for: `schema` and `schema-` both mean `schema-`."""
    p = pattern.strip()
    return p if p.endswith("-") else p + "-"


def matches(rule: str, patterns: tuple[str, ...]) -> bool:
    """A pattern is a full rule id or a prefix ending in `-` (`schema-`) or bare (`schema`)."""
    return any(p.strip() and (rule == p.strip() or rule.startswith(prefix(p))) for p in patterns)


def selected(rule: str, include: tuple[str, ...], exclude: tuple[str, ...]) -> bool:
    """Whether `--select include --ignore exclude` keeps findings of `rule` (an empty include keeps all)."""
    return (not include or matches(rule, include)) and not matches(rule, exclude)


def select(diagnostics: list[Diagnostic], include: tuple[str, ...], exclude: tuple[str, ...]) -> list[Diagnostic]:
    return [d for d in diagnostics if selected(d.rule, include, exclude)]


def fails(diagnostics: list[Diagnostic], threshold: Severity) -> bool:
    return any(d.severity.rank >= threshold.rank for d in diagnostics)

"""The rule catalogue: every rule id, its default severity and what it means.

Checks declare their rules here with `define(...)` at import time and build diagnostics with
`Rule.at(...)`, so `wopgen rules`, the docs site and the checks share one source.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from functools import cache
from importlib import resources
from types import ModuleType
from typing import TYPE_CHECKING, Any

from wopgen.diagnostics import Diagnostic, Severity, matches

if TYPE_CHECKING:  # the corpus package imports this module to define its rules
    from wopgen.corpus.settings import RuleSettings


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
    from wopgen.generate import host, models

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
        models,
        findings,
        scenarios,
    )


def catalogue() -> list[Rule]:
    """Every rule, sorted by id, once every module that defines rules is imported, with its explanation."""
    rule_modules()
    texts = _explanations()
    return [_explained(rule, texts) for rule in sorted(_CATALOGUE.values(), key=lambda r: r.id)]


def rule(rule_id: str) -> Rule | None:
    """One rule of the catalogue, explained, or None."""
    return next((r for r in catalogue() if r.id == rule_id), None)


@cache
def _explanations() -> dict[str, dict[str, Any]]:
    import yaml

    text = resources.files("wopgen").joinpath("data/explain.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    return {"families": data["families"], "rules": data["rules"]}


_SCENARIO = "Conformance scenario "


def _explained(rule: Rule, texts: dict[str, dict[str, Any]]) -> Rule:
    entry: dict[str, str] = dict(texts["rules"].get(rule.id, {}))
    family = rule.id.split("-", 1)[0]
    if rule.id.startswith("compat-") and rule.example and "bad" not in entry:
        entry["bad"] = rule.example
    if rule.summary.startswith(_SCENARIO) and ": " in rule.summary:
        name, promise = rule.summary.removeprefix(_SCENARIO).split(" fails: ", 1)
        entry.setdefault("bad", f"a host where this does not hold: {promise}")
        entry.setdefault("good", f"a host where it holds: {promise}")
        entry.setdefault(
            "fix",
            f"run `wopgen conformance --select {name}` (add --url for your host) and change the host at the failed step",
        )
    entry.setdefault("why", texts["families"].get(family, ""))
    return replace(
        rule, why=entry.get("why", ""), bad=entry.get("bad", ""), good=entry.get("good", ""), fix=entry.get("fix", "")
    )


# --- [tool.wopgen.rules] applied to findings ------------------------------------------------------


def unknown_patterns(patterns: Iterable[str]) -> list[str]:
    """The rule ids or prefixes among `patterns` that name no rule of the catalogue."""
    ids = [r.id for r in catalogue()]
    return [p for p in patterns if not any(matches(rule, (p,)) for rule in ids)]


def configure(diagnostics: Iterable[Diagnostic], rules: RuleSettings) -> list[Diagnostic]:
    """Findings after `[tool.wopgen.rules]`: per-path ignores dropped, severities overridden.

    A severity set for a full id beats one set for a prefix; a longer prefix beats a shorter one.
    Per-path globs are matched against the corpus-relative path (fnmatch: `*` also crosses `/`).
    """
    ranked = sorted(rules.severity, key=lambda item: len(item[0]), reverse=True)
    kept: list[Diagnostic] = []
    for d in diagnostics:
        if any(fnmatchcase(d.path, glob) and matches(d.rule, ids) for glob, ids in rules.per_path_ignores):
            continue
        chosen = next((Severity(level) for pattern, level in ranked if matches(d.rule, (pattern,))), None)
        kept.append(replace(d, severity=chosen) if chosen is not None else d)
    return kept

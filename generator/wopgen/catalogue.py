"""The rule catalogue: every rule id, its default severity, what it means and how to explain it.

Each module whose findings name a rule declares it with `wopgen.diagnostics.define(...)` at import
time; this module imports every one of them (the list below), so `wopgen rules`, `wopgen explain`,
SARIF output and the docs site read one complete list. Nothing below the CLI imports this module:
the checks, compat, conformance and the generators only declare rules, and whoever prints the
catalogue (the CLI) passes it on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fnmatch import fnmatchcase
from functools import cache
from importlib import resources
from types import ModuleType
from typing import TYPE_CHECKING, Any

from wopgen import corpus_rules
from wopgen.checks import (
    api,
    changelog,
    conformance,
    docs,
    examples,
    invariants,
    prose_enums,
    rfc_records,
    rfcs,
    schema_defaults,
    schemas,
    semantics,
    standard_api,
)
from wopgen.compat import rules as compat_rules
from wopgen.conformance import findings, scenarios
from wopgen.diagnostics import Diagnostic, Rule, Severity, defined, matches
from wopgen.generate import host, models

if TYPE_CHECKING:
    from wopgen.corpus.settings import RuleSettings

# Every module that declares rules, one by one: the catalogue is complete without running anything.
RULE_MODULES: tuple[ModuleType, ...] = (
    corpus_rules,
    schemas,
    schema_defaults,
    examples,
    rfcs,
    rfc_records,
    docs,
    prose_enums,
    changelog,
    invariants,
    api,
    standard_api,
    semantics,
    conformance,
    compat_rules,
    host,
    models,
    findings,
    scenarios,
)


def catalogue() -> list[Rule]:
    """Every rule, sorted by id, with its explanation."""
    texts = _explanations()
    return [_explained(rule, texts) for rule in sorted(defined(), key=lambda r: r.id)]


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

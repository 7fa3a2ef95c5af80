"""The rule catalogue: every rule id, its default severity, what it means and how to explain it.

Each module whose findings name a rule declares it with `wopgen.diagnostics.define(...)` at import
time. Importing all of them means importing every check, the conformance suite and the generators,
which costs most of a second; `wopgen rules`, `wopgen explain` and the rule-id checks of
`wopgen check` need none of that. So what the modules declare is also kept in `data/rules.json`,
and the catalogue is read from there: `python -m wopgen.catalogue` prints that file from the
modules themselves (`declared()`), and a test fails while the two differ.

Nothing below the CLI imports this module: the checks, compat, conformance and the generators only
declare rules, and whoever prints the catalogue (the CLI) passes it on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from fnmatch import fnmatchcase
from functools import cache
from importlib import resources
from types import ModuleType
from typing import TYPE_CHECKING, Any

from wopgen.diagnostics import Diagnostic, Rule, Severity, defined, matches

if TYPE_CHECKING:
    from wopgen.corpus.settings import RuleSettings

RULES_FILE = "data/rules.json"


def rule_modules() -> tuple[ModuleType, ...]:
    """Every module that declares rules, one by one (importing them declares the whole catalogue)."""
    from wopgen import checks, corpus_rules
    from wopgen.compat import rules as compat_rules
    from wopgen.conformance import findings, scenarios
    from wopgen.generate import host, models, models_inexact

    return (corpus_rules, *checks.MODULES, compat_rules, host, models, models_inexact, findings, scenarios)


def declared() -> list[dict[str, str]]:
    """What the rule modules declare, one entry per rule sorted by id, as `data/rules.json` keeps it.

    A conformance scenario's rule also carries the scenario's name and promise, from which
    `wopgen explain` words its failing and passing host."""
    rule_modules()
    from wopgen.conformance.scenarios import SCENARIOS

    by_rule = {scenario.rule: scenario for scenario in SCENARIOS}
    entries: list[dict[str, str]] = []
    for rule in sorted(defined(), key=lambda r: r.id):
        entry = {"id": rule.id, "severity": rule.severity.value, "summary": rule.summary, "example": rule.example}
        scenario = by_rule.get(rule.id)
        if scenario is not None:
            entry |= {"scenario": scenario.name, "promise": scenario.summary}
        entries.append(entry)
    return entries


def declared_text() -> str:
    """The text `data/rules.json` must hold: `declared()` as JSON."""
    lines = ",\n".join(json.dumps(entry, ensure_ascii=False) for entry in declared())
    return f"[\n{lines}\n]\n"  # a rule a line, so a new rule is a one-line change


@cache
def _entries() -> tuple[dict[str, str], ...]:
    text = resources.files("wopgen").joinpath(RULES_FILE).read_text(encoding="utf-8")
    return tuple(json.loads(text))


def listing() -> list[Rule]:
    """Every rule, sorted by id: its severity, one-line meaning and example, without the explanation."""
    return [Rule(e["id"], Severity(e["severity"]), e["summary"], e["example"]) for e in _entries()]


def catalogue() -> list[Rule]:
    """Every rule, sorted by id, with its explanation."""
    texts = _explanations()
    return [_explained(entry, texts) for entry in _entries()]


@cache
def _explanations() -> dict[str, dict[str, Any]]:
    import yaml

    text = resources.files("wopgen").joinpath("data/explain.yaml").read_text(encoding="utf-8")
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return {"families": data["families"], "rules": data["rules"]}


def _explained(declared: dict[str, str], texts: dict[str, dict[str, Any]]) -> Rule:
    rule = Rule(declared["id"], Severity(declared["severity"]), declared["summary"], declared["example"])
    entry: dict[str, str] = dict(texts["rules"].get(rule.id, {}))
    family = rule.id.split("-", 1)[0]
    if rule.id.startswith("compat-") and rule.example and "bad" not in entry:
        entry["bad"] = rule.example
    if "scenario" in declared:
        name, promise = declared["scenario"], declared["promise"]
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
    ids = [r.id for r in listing()]
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


if __name__ == "__main__":  # python -m wopgen.catalogue > generator/wopgen/data/rules.json
    print(declared_text(), end="")

"""Reference pages of the docs site: the rule catalogue, the security invariants and the
conformance scenarios (the ones `wopgen conformance` runs)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from wopgen.conformance.scenarios import SCENARIOS
from wopgen.generate.site.context import Pages, SiteContext
from wopgen.generate.site.paths import SECURITY, Target
from wopgen.generate.site.schemadoc import cell

RULES = "rules.md"
CONFORMANCE = "conformance.md"


def rules_page(site: SiteContext) -> str:
    groups: dict[str, list[dict[str, str]]] = {}
    for rule in site.rules:
        prefix = rule.id.split("-", 1)[0]
        groups.setdefault(prefix, []).append(
            {
                "id": rule.id,
                "severity": rule.severity.value,
                "summary": cell(rule.summary),
                "example": cell(rule.example),
            }
        )
    return site.render("rules.md.j2", groups=sorted(groups.items()), total=sum(len(g) for g in groups.values()))


def security_page(site: SiteContext) -> str:
    data = site.corpus.invariants.data if site.corpus.invariants is not None else None
    items: list[dict[str, Any]] = []
    raw = data.get("invariants") if isinstance(data, Mapping) else None
    for entry in raw if isinstance(raw, list) else []:
        if not isinstance(entry, Mapping):
            continue
        rfc = str(entry.get("rfc", ""))
        tests = entry.get("tests")
        items.append(
            {
                "id": str(entry.get("id", "unnamed")),
                "tier": str(entry.get("tier", "—")),
                "severity": str(entry.get("severity", "—")),
                "rfc": site.rfc_link(SECURITY, int(rfc)) if rfc.isdigit() else "—",
                "statement": " ".join(str(entry.get("statement", "")).split()),
                "tests": ", ".join(f"`{t}`" for t in tests) if isinstance(tests, list) else "",
                "note": " ".join(str(entry.get("note", "")).split()),
            }
        )
    return site.render("security.md.j2", items=items)


def scenarios(site: SiteContext) -> list[dict[str, str]]:
    """The scenarios `wopgen conformance` runs, with the gate each needs to apply."""
    rows = []
    for scenario in SCENARIOS:
        reason = scenario.gate({})  # what an empty discovery document lacks: the scenario's gate
        rows.append(
            {
                "name": scenario.name,
                "kind": "always on" if scenario.kind in ("corpus", "core") else "gated",
                "gate": "—" if reason is None else f"`{reason.removesuffix(' is not advertised')}`",
                "rfc": site.rfc_link(CONFORMANCE, int(scenario.rfc)) if scenario.rfc else "—",
                "summary": cell(scenario.summary),
                "rule": scenario.rule,
            }
        )
    return rows


def conformance_page(site: SiteContext) -> str:
    prose = next((p for p in sorted(site.corpus.docs) if PurePosixPath(p).name == "conformance.md"), None)
    return site.render(
        "conformance.md.j2",
        rows=scenarios(site),
        prose=site.paths.href(CONFORMANCE, Target(site.paths.doc_page(prose))) if prose else "",
    )


def pages(site: SiteContext) -> Pages:
    return {RULES: rules_page(site), SECURITY: security_page(site), CONFORMANCE: conformance_page(site)}

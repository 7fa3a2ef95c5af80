"""Reference pages of the docs site: the rule catalogue, the security invariants and the
conformance scenarios."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from wopgen.generate.schemadoc import cell
from wopgen.generate.sitecontext import Pages, SiteContext
from wopgen.generate.sitepaths import SECURITY, Target
from wopgen.markdown import MarkdownDoc
from wopgen.rules import catalogue

RULES = "rules.md"
CONFORMANCE = "conformance.md"
_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_SCENARIO = re.compile(r"^`([a-z0-9][a-z0-9-]*)`")


def rules_page(site: SiteContext) -> str:
    groups: dict[str, list[dict[str, str]]] = {}
    for rule in catalogue():
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


def scenarios(site: SiteContext) -> list[tuple[str, str, list[list[str]]]]:
    """(page link, section, rows) for every prose table whose first column is `Scenario`."""
    found = []
    for path in sorted(site.corpus.docs):
        doc = site.corpus.docs[path]
        found.extend(_scenario_tables(site, path, doc))
    return found


def _scenario_tables(site: SiteContext, path: str, doc: MarkdownDoc) -> list[tuple[str, str, list[list[str]]]]:
    tables = []
    lines = doc.lines
    for position, heading in enumerate(doc.headings):
        # only the heading's own text, up to the next heading of any level
        start = heading.line + 1
        end = doc.headings[position + 1].line - 1 if position + 1 < len(doc.headings) else len(lines)
        rows: list[list[str]] = []
        in_table = False
        for line in lines[start - 1 : end]:
            match = _ROW.match(line)
            if not match:
                if in_table:
                    break
                continue
            cells = [c.strip() for c in match.group(1).split("|")]
            if not in_table:
                in_table = cells[0] == "Scenario"
                continue
            if set("".join(cells)) <= set("-: "):
                continue
            scenario = _SCENARIO.match(cells[0])
            if scenario:
                rows.append([scenario.group(1), *(site.paths.rewrite(c, path, CONFORMANCE) for c in cells[1:3])])
        if rows:
            href = site.paths.href(CONFORMANCE, Target(site.paths.doc_page(path)), heading.slug)
            tables.append((href, heading.text, rows))
    return tables


def conformance_page(site: SiteContext) -> str:
    return site.render("conformance.md.j2", tables=scenarios(site))


def pages(site: SiteContext) -> Pages:
    return {RULES: rules_page(site), SECURITY: security_page(site), CONFORMANCE: conformance_page(site)}

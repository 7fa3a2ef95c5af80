"""Reference pages of the docs site: the rule catalogue, the security invariants and the
conformance scenarios (the ones `wopgen conformance` runs)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from wopgen.conformance.scenarios import SCENARIOS
from wopgen.generate.site.context import SiteContext
from wopgen.generate.site.paths import SECURITY, Target
from wopgen.generate.site.schemadoc import cell, outside_code

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
                "summary": cell(_as_written(rule.summary)),
                "example": cell(_as_written(rule.example)),
            }
        )
    return site.render("rules.md.j2", groups=sorted(groups.items()), total=sum(len(g) for g in groups.values()))


# Characters that would start Markdown in a rule's text, which is plain but for its code spans: emphasis
# (`valid/*.json` and a later `*`), an attribute list (`{...}` closing a cell), a link. Raw HTML is shown as
# text by the page's rendering (`SiteContext.render`).
_MARKUP = re.compile(r"([*_{}\[\]\\])")


def _as_written(text: str) -> str:
    """A rule's summary or example shown as written: every character that would start Markdown escaped,
    outside its code spans."""
    return outside_code(text, lambda part: _MARKUP.sub(r"\\\1", part))


def security_page(site: SiteContext) -> str:
    """One section per entry of the invariants file, showing what the entry says and nothing it does not:
    this repository's entries carry an `rfc` and a `statement`; others (upstream OpenWOP's) a
    `threat_model`, a `witness` class, a `note` that is the whole description and, for an invariant no
    test can witness, a `non_testability_rationale`."""
    data = site.corpus.invariants.data if site.corpus.invariants is not None else None
    items: list[dict[str, Any]] = []
    raw = data.get("invariants") if isinstance(data, Mapping) else None
    for entry in raw if isinstance(raw, list) else []:
        if not isinstance(entry, Mapping):
            continue
        facts = [("Tier", _word(entry.get("tier"))), ("Severity", _word(entry.get("severity")))]
        rfcs = _rfc_numbers(entry.get("rfc"))
        if rfcs:
            facts.append(("RFC", ", ".join(site.rfc_link(SECURITY, n) for n in rfcs)))
        threat_model = entry.get("threat_model")
        if isinstance(threat_model, str) and threat_model.strip():
            facts.append(("Threat model", _repository_file(site, threat_model.strip())))
        if isinstance(entry.get("witness"), str):
            facts.append(("Witness", cell(entry["witness"])))
        statement, note = _prose(entry.get("statement")), _prose(entry.get("note"))
        items.append(
            {
                "id": str(entry.get("id", "unnamed")),
                "facts": facts,
                # Without a statement the note is the entry's description, shown as such.
                "statement": statement or note,
                "note": note if statement else "",
                "tests": _code_list(entry.get("tests")),
                # Upstream's reason an invariant has no test (its `witness` is then `unwitnessable`).
                "untestable": _prose(entry.get("non_testability_rationale")),
                "scenarios": _code_list(entry.get("scenarios")),
            }
        )
    return site.render("security.md.j2", items=items)


def _word(value: object) -> str:
    return cell(str(value)) if isinstance(value, str | int) and str(value) else "—"


def _rfc_numbers(value: object) -> list[int]:
    """The RFC numbers an entry's `rfc` gives: one (`"0090"`, `90`) or a list of them."""
    values = value if isinstance(value, list) else [value]
    found = [str(v).strip() for v in values if isinstance(v, str | int) and not isinstance(v, bool)]
    return [int(v) for v in found if v.isdigit()]


def _code_list(value: object) -> str:
    return ", ".join(f"`{v}`" for v in value if isinstance(v, str)) if isinstance(value, list) else ""


def _repository_file(site: SiteContext, path: str) -> str:
    """A repository path: a link to its page when the site has one, to the file in the repository when
    the corpus names one (`repository-url`) and has the file, else the path as code."""
    href = site.paths.href_to(SECURITY, path)
    if href:
        return f"[`{path}`]({href})"
    shown = site.paths.repository_url(path)
    return f"[`{path}`]({shown})" if shown else f"`{path}`"


def _prose(value: object) -> str:
    """Free text of a YAML entry as Markdown: a paragraph's lines joined, blank lines kept as paragraph
    breaks, a line that opens a list item (`- `, `* `, `1. `) kept as an item, with the lines indented
    below it. A line no deeper than the item's marker after an item starts a paragraph, as its writer
    meant (Markdown would fold it into the item)."""
    if not isinstance(value, str):
        return ""
    blocks: list[tuple[str, list[str]]] = []  # ("item" or "paragraph", its lines)
    current: list[str] | None = None
    marker = 0  # the indent of the last item's marker
    for line in value.splitlines():
        text = line.strip()
        indent = len(line) - len(line.lstrip())
        if not text:
            current = None
        elif _LIST_ITEM.match(text):
            current, marker = [text], indent
            blocks.append(("item", current))
        elif current is None or (blocks[-1][0] == "item" and indent <= marker):
            current = [text]
            blocks.append(("paragraph", current))
        else:
            current.append(text)
    out: list[str] = []
    for index, (kind, lines) in enumerate(blocks):
        if index:
            out.append("\n" if kind == "item" and blocks[index - 1][0] == "item" else "\n\n")
        out.append(" ".join(lines))
    return "".join(out)


_LIST_ITEM = re.compile(r"^(?:[-*]|\d+[.)])\s+")


def scenarios(site: SiteContext) -> list[dict[str, str]]:
    """The scenarios `wopgen conformance` runs, with the gate each needs to apply."""
    rows = []
    for scenario in SCENARIOS:
        reason = scenario.gate({})  # what an empty discovery document lacks: the scenario's gate
        rows.append(
            {
                "name": scenario.name,
                "kind": (
                    "when not offered"  # how a host refuses what it does not offer: skips a host that offers it
                    if scenario.unoffered
                    else "always on"
                    if scenario.kind in ("corpus", "core")
                    else "gated"
                ),
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

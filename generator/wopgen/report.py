"""Diagnostic renderers: text for people, json for tools, github workflow commands, SARIF 2.1.0."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from itertools import groupby
from typing import Any

import click

from wopgen import __version__
from wopgen.diagnostics import Diagnostic, Rule, count, plural

JSON_SHAPE_VERSION = 1
_COLOURS = {"error": "red", "warning": "yellow", "info": "cyan"}


def checked_text(checked: dict[str, int]) -> str:
    """`28 schemas, 210 examples, 5 RFCs, 8 pages`: what a run looked at."""
    return ", ".join(f"{n} {what[:-1] if n == 1 and what.endswith('s') else what}" for what, n in checked.items())


def render_text(diagnostics: list[Diagnostic], colour: bool = False, checked: dict[str, int] | None = None) -> str:
    out: list[str] = []
    for path, group in groupby(diagnostics, key=lambda d: d.path):
        out.append(click.style(path, bold=True) if colour else path)
        for d in group:
            sev = click.style(d.severity.value, fg=_COLOURS[d.severity.value]) if colour else d.severity.value
            rule = click.style(d.rule, dim=True) if colour else d.rule
            out.append(f"  {d.line}:{d.col}  {sev}  {d.message}  [{rule}]")
            if d.hint:
                out.append(f"      hint: {d.hint}")
        out.append("")
    totals = count(diagnostics)
    summary = ", ".join(plural(totals[s], s) for s in ("error", "warning", "info"))
    if not diagnostics:
        summary = "no problems found"
    if checked is not None:
        summary += f" (checked {checked_text(checked)})"
    out.append(click.style(summary, bold=True) if colour else summary)
    return "\n".join(out) + "\n"


def json_report(
    summary: Mapping[str, int],
    items: str,
    entries: list[Any],
    context: Mapping[str, Any] | None = None,
    *,
    sort_keys: bool = True,
    version: int = JSON_SHAPE_VERSION,
) -> str:
    """The one JSON report shape of every command that writes one (check, compat, conformance):

        {"version": 1, "tool": {"name": "wopgen", "version": "..."}, <context>...,
         "summary": {...}, <items>: [...]}

    `context` says what was examined (e.g. `base` and `head`, or `target` and `strict`); `version` is
    the version of the command's own shape.
    """
    doc: dict[str, Any] = {
        "version": version,
        "tool": {"name": "wopgen", "version": __version__},
        **(context or {}),
        "summary": dict(summary),
        items: entries,
    }
    return json.dumps(doc, indent=2, sort_keys=sort_keys) + "\n"


def render_json(diagnostics: list[Diagnostic], checked: dict[str, int] | None = None) -> str:
    """{"version": 1, "tool": {...}, "summary": {"error": n, ...}, "diagnostics": [...]}, plus
    "checked": {"schemas": n, ...} when the caller says what was looked at."""
    context = {"checked": checked} if checked is not None else None
    return json_report(count(diagnostics), "diagnostics", [d.to_dict() for d in diagnostics], context)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(diagnostics: list[Diagnostic]) -> str:
    level = {"error": "error", "warning": "warning", "info": "notice"}
    lines = []
    for d in diagnostics:
        props = f"file={_escape_property(d.path)},line={d.line},col={d.col},title={_escape_property(d.rule)}"
        message = d.message + (f" (hint: {d.hint})" if d.hint else "")
        lines.append(f"::{level[d.severity.value]} {props}::{_escape_data(message)}")
    return "\n".join(lines) + ("\n" if lines else "")


def render_sarif(diagnostics: list[Diagnostic], rules: Sequence[Rule]) -> str:
    """SARIF 2.1.0, with `rules` (the catalogue, from the caller) as the driver's rule list."""
    level = {"error": "error", "warning": "warning", "info": "note"}
    index = {r.id: i for i, r in enumerate(rules)}
    results = []
    for d in diagnostics:
        result: dict[str, object] = {
            "ruleId": d.rule,
            "level": level[d.severity.value],
            "message": {"text": d.message + (f" Hint: {d.hint}" if d.hint else "")},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": d.path, "uriBaseId": "ROOT"},
                        "region": {"startLine": d.line, "startColumn": d.col},
                    }
                }
            ],
        }
        if d.rule in index:
            result["ruleIndex"] = index[d.rule]
        results.append(result)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "wopgen",
                        "version": __version__,
                        "informationUri": "https://openwop.dev/",
                        "rules": [
                            {
                                "id": r.id,
                                "shortDescription": {"text": r.summary},
                                "defaultConfiguration": {"level": level[r.severity.value]},
                            }
                            for r in rules
                        ],
                    }
                },
                "originalUriBaseIds": {"ROOT": {"uri": "./"}},
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


RENDERERS: dict[str, Callable[[list[Diagnostic]], str]] = {
    "json": render_json,
    "github": render_github,
}

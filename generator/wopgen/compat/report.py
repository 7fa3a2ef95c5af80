"""Compat reports: text for people, json for tools, markdown for a pull request or a changelog draft.

The json shape (version 1):

    {"version": 1, "tool": {"name": "wopgen", "version": "..."},
     "base": "<ref or folder>", "head": "<ref or folder>",
     "summary": {"error": n, "warning": n, "info": n},
     "changes": [{"rule", "severity", "path", "message", "hint", "direction", "events", "rfc",
                  "base": {"path", "pointer", "line"} | null,
                  "head": {"path", "pointer", "line"} | null}, ...]}

`base` is null for whole files added, `head` for whole files removed; `rfc` names the RFC that
allowed a breaking change; `events` lists the event types whose payload the change sits in.
"""

from __future__ import annotations

from itertools import groupby

from wopgen.compat.change import Change, Side
from wopgen.diagnostics import Severity
from wopgen.report import json_report


def summary(changes: list[Change]) -> dict[str, int]:
    totals = {s.value: 0 for s in Severity}
    for change in changes:
        totals[change.severity.value] += 1
    return totals


def _where(label: str, place: Side | None) -> str:
    if place is None:
        return f"{label} -"
    return f"{label} {place.line}:{place.pointer or '/'}"


def render_text(changes: list[Change], base: str, head: str) -> str:
    out = [f"compat: {base} -> {head}", ""]
    for path, group in groupby(changes, key=lambda c: c.path):
        out.append(path)
        for c in group:
            out.append(f"  {c.severity.value:<7}  {c.message}  [{c.rule}]")
            out.append(f"           {_where('base', c.base)}   {_where('head', c.head)}")
            if c.hint:
                out.append(f"           hint: {c.hint}")
        out.append("")
    totals = summary(changes)
    if not changes:
        out.append("no changes")
    else:
        out.append(f"{totals['error']} breaking, {totals['warning']} to review, {totals['info']} additive or allowed")
    return "\n".join(out) + "\n"


def render_json(changes: list[Change], base: str, head: str) -> str:
    return json_report(summary(changes), "changes", [c.to_dict() for c in changes], {"base": base, "head": head})


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(changes: list[Change], base: str, head: str) -> str:
    out = [f"## Compatibility: `{base}` → `{head}`", ""]
    totals = summary(changes)
    verdict = "**Breaking.**" if totals["error"] else "**Additive.**"
    out.append(
        f"{verdict} {totals['error']} breaking, {totals['warning']} to review, {totals['info']} additive or allowed."
    )
    sections = (
        (Severity.ERROR, "Breaking changes"),
        (Severity.WARNING, "To review"),
    )
    for severity, title in sections:
        chosen = [c for c in changes if c.severity is severity]
        if not chosen:
            continue
        out += ["", f"### {title}", "", "| File | Base | Head | Change | Rule |", "|---|---|---|---|---|"]
        for c in chosen:
            base_at = f"{c.base.line} `{c.base.pointer or '/'}`" if c.base else "—"
            head_at = f"{c.head.line} `{c.head.pointer or '/'}`" if c.head else "—"
            out.append(f"| `{c.path}` | {base_at} | {head_at} | {_cell(c.message)} | `{c.rule}` |")
    additive = [c for c in changes if c.severity is Severity.INFO]
    if additive:
        out += ["", "### Changelog draft", ""]
        for path, group in groupby(additive, key=lambda c: c.path):
            items = "; ".join(_cell(c.message) + (f" ({c.rfc})" if c.rfc else "") for c in group)
            out.append(f"- **`{path}`.** {items}.")
    return "\n".join(out) + "\n"


RENDERERS = {"text": render_text, "json": render_json, "markdown": render_markdown}

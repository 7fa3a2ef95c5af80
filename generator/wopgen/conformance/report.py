"""Conformance reports: text for people, JSON for machines, JUnit XML for CI dashboards."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from wopgen import __version__
from wopgen.conformance.runner import FAILED, SKIPPED, Result, summary

_MARK = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}


def text(results: list[Result], target: str) -> str:
    lines = [f"conformance against {target}"]
    width = max((len(r.scenario.name) for r in results), default=0)
    for r in results:
        line = f"  {_MARK[r.status]}  {r.scenario.name.ljust(width)}  [{r.scenario.kind}]"
        lines.append(line + (f"  {r.message}" if r.message else ""))
    counts = summary(results)
    lines.append(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    return "\n".join(lines) + "\n"


def as_json(results: list[Result], target: str, strict: bool) -> str:
    document = {
        "version": 1,
        "tool": {"name": "wopgen", "version": __version__},
        "target": target,
        "strict": strict,
        "summary": summary(results),
        "scenarios": [r.to_dict() for r in results],
    }
    return json.dumps(document, indent=2) + "\n"


def junit(results: list[Result], target: str) -> str:
    counts = summary(results)
    suite = ET.Element(
        "testsuite",
        name="wopgen-conformance",
        tests=str(len(results)),
        failures=str(counts["failed"]),
        skipped=str(counts["skipped"]),
        errors="0",
        time=f"{sum(r.seconds for r in results):.4f}",
    )
    ET.SubElement(ET.SubElement(suite, "properties"), "property", name="target", value=target)
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=f"conformance.{r.scenario.kind}", name=r.scenario.name)
        case.set("time", f"{r.seconds:.4f}")
        if r.status == FAILED:
            ET.SubElement(case, "failure", message=r.message, type=r.scenario.rule).text = r.message
        elif r.status == SKIPPED:
            ET.SubElement(case, "skipped", message=r.message)
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"

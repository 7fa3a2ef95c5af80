"""Conformance reports: text for people, JSON for machines, JUnit XML for CI dashboards.

Each carries every failed assertion of a scenario (clause, request, status, body excerpt), and
keeps corpus results apart from host results. `is_report` recognises a file written here, the one
kind of file `--report` replaces.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from wopgen.conformance.runner import FAILED, SKIPPED, Result, behaviour_answered, summary
from wopgen.report import json_report

_MARK = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}
_SUITE = "wopgen-conformance"
MAX_REPORT_BYTES = 64 * 1024 * 1024  # far above any report: a larger file is something else


def headline(results: list[Result]) -> str:
    counts = summary(results)
    line = (
        f"host: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped; "
        f"corpus: {counts['corpus-passed']} passed, {counts['corpus-failed']} failed"
    )
    if not behaviour_answered(results):
        line += "; the host answered no behaviour request (no gated scenario ran)"
    return line


def text(results: list[Result], target: str, refused_redirects: list[str] | None = None) -> str:
    lines = [f"conformance against {target}"]
    width = max((len(r.scenario.name) for r in results), default=0)
    for r in results:
        line = f"  {_MARK[r.status]}  {r.scenario.name.ljust(width)}  [{r.scenario.kind}]"
        shown = r.message if r.status != FAILED or len(r.findings) < 2 else f"{len(r.findings)} failed assertions"
        if r.note:
            shown = (shown + "; " if shown else "") + r.note
        lines.append(line + (f"  {shown}" if shown else ""))
        if r.status == FAILED and len(r.findings) > 1:
            lines.extend(f"        - {f.line()}" for f in r.findings)
        elif r.findings:
            lines.append(f"        - {r.findings[0].line()}")
    for refused in refused_redirects or []:
        lines.append(f"  refused redirect: {refused}")
    lines.append(headline(results))
    return _printable("\n".join(lines) + "\n", _CONTROLS)


def as_json(results: list[Result], target: str, strict: bool, refused_redirects: list[str] | None = None) -> str:
    context = {
        "target": target,
        "strict": strict,
        "behaviourAnswered": behaviour_answered(results),
        "refusedRedirects": list(refused_redirects or []),
    }
    scenarios = [r.to_dict() for r in results]
    return json_report(summary(results), "scenarios", scenarios, context, sort_keys=False, version=2)


def junit(results: list[Result], target: str) -> str:
    failures = sum(1 for r in results if r.status == FAILED)
    skipped = sum(1 for r in results if r.status == SKIPPED)
    suite = ET.Element(
        "testsuite",
        name=_SUITE,
        tests=str(len(results)),
        failures=str(failures),
        skipped=str(skipped),
        errors="0",
        time=f"{sum(r.seconds for r in results):.4f}",
    )
    ET.SubElement(ET.SubElement(suite, "properties"), "property", name="target", value=target)
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=f"conformance.{r.scenario.kind}", name=r.scenario.name)
        case.set("time", f"{r.seconds:.4f}")
        if r.status == FAILED:
            body = "\n".join(f.line() for f in r.findings) or r.message
            ET.SubElement(case, "failure", message=r.message, type=r.scenario.rule).text = body
        elif r.status == SKIPPED:
            ET.SubElement(case, "skipped", message=r.message)
    ET.indent(suite)
    return _printable(ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n", _NOT_XML)


# What a report never writes as it is, though a finding may quote it from a host's answer (a path built
# from a run id the host chose): on a terminal, the control characters (ESC starts a command to it, CR
# overwrites the line) but tab and the report's own line ends; in XML 1.0, those it cannot hold even
# escaped. Each is written as its Python escape (`\\x1b`).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _printable(text: str, unwritten: re.Pattern[str]) -> str:
    """`text` with each character `unwritten` matches and each lone surrogate written as its escape. A
    host's JSON may hold `"\\ud800"`, which no UTF-8 output can. The JSON report needs none of this:
    it escapes every such character itself."""
    text = unwritten.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def is_report(path: Path) -> bool:
    """Whether `path` is a regular file holding a report `as_json` or `junit` wrote.

    A file over MAX_REPORT_BYTES is none of ours and is not read through; anything that is not a
    regular file (a FIFO would block the read) is not one either.
    """
    try:
        if not path.is_file():
            return False
        with path.open("rb") as file:
            data = file.read(MAX_REPORT_BYTES + 1)
    except OSError:
        return False
    if len(data) > MAX_REPORT_BYTES:
        return False
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        return _is_junit(data)
    tool = document.get("tool") if isinstance(document, dict) else None
    return isinstance(tool, dict) and tool.get("name") == "wopgen" and "scenarios" in document


def _is_junit(data: bytes) -> bool:
    try:
        suite = ET.fromstring(data)
    except (ET.ParseError, ValueError, LookupError):  # not XML, or an encoding the parser cannot read
        return False
    return suite.tag == "testsuite" and suite.get("name") == _SUITE

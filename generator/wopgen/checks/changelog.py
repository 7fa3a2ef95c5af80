"""Changelog rules: Keep a Changelog shape, [Unreleased] first, versions newest first, no repeats."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from wopgen.corpus import Corpus
from wopgen.diagnostics import Diagnostic, define

_VERSION = re.compile(r"^\[(\d+)\.(\d+)\.(\d+)\]\s*[-–—]\s*(\S+)")

UNRELEASED = define("changelog-unreleased", "error", "The first section of the changelog is not ## [Unreleased].")
HEADING = define(
    "changelog-version",
    "error",
    "A release heading is not ## [X.Y.Z] - YYYY-MM-DD with a real ISO date.",
)
ORDER = define("changelog-order", "error", "Releases are not listed newest first (by version and by date).")
DUPLICATE = define("changelog-duplicate", "error", "A version appears twice in the changelog.")


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    doc = corpus.changelog
    if doc is None:
        return
    sections = [h for h in doc.headings if h.level == 2]
    if not sections or sections[0].text.strip() != "[Unreleased]":
        line = sections[0].line if sections else 1
        yield UNRELEASED.at(
            doc.path,
            line,
            "the first ## section must be [Unreleased]",
            "add '## [Unreleased]' above the newest release",
        )
    seen: dict[tuple[int, ...], int] = {}
    previous: tuple[tuple[int, ...], dt.date] | None = None
    for heading in sections:
        text = heading.text.strip()
        if text == "[Unreleased]":
            if heading is not sections[0]:
                yield UNRELEASED.at(
                    doc.path, heading.line, "[Unreleased] appears below a release", "keep it first, once"
                )
            continue
        match = _VERSION.match(text)
        date: dt.date | None = None
        if match:
            try:
                date = dt.date.fromisoformat(match.group(4))
            except ValueError:
                date = None
        if match is None or date is None:
            yield HEADING.at(
                doc.path,
                heading.line,
                f"release heading {text!r} is not [X.Y.Z] - YYYY-MM-DD",
                "write e.g. '## [1.2.0] - 2026-11-21'",
            )
            continue
        version = tuple(int(match.group(i)) for i in (1, 2, 3))
        label = ".".join(map(str, version))
        if version in seen:
            yield DUPLICATE.at(
                doc.path, heading.line, f"version {label} is also on line {seen[version]}", "merge the two sections"
            )
            continue
        seen[version] = heading.line
        if previous is not None and (version > previous[0] or date > previous[1]):
            yield ORDER.at(
                doc.path,
                heading.line,
                f"{label} ({date}) is listed below an older release",
                "list releases newest first",
            )
        previous = (version, date)

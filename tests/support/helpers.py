"""Small assertions shared by the rule tests."""

from __future__ import annotations

import importlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from wopgen.checks import CHECKS
from wopgen.corpus import load
from wopgen.diagnostics import Diagnostic


def hits(found: list[Diagnostic], rule: str) -> list[tuple[str, int]]:
    """(path, line) of every finding of one rule, in report order."""
    return [(d.path, d.line) for d in found if d.rule == rule]


# The schemas RFC 0901 adds (six artifacts and the two sides of its conformance seam).
RFC_0901_SCHEMAS = (
    "verification-gate",
    "verification-rubric",
    "verification-finding",
    "verification-result",
    "handoff-artifact",
    "verification-node",
    "sample-verification-run-request",
    "sample-verification-run-response",
)


def diagnose(root: Path) -> list[Diagnostic]:
    """What `run_all` finds, check by check, holding each check to the rule families it declares in
    CHECKS (what `--select`/`--ignore` rely on to skip it), on every corpus the tests build."""
    corpus = load(root)
    found = list(corpus.load_diagnostics)
    for families, check in CHECKS:
        emitted = list(check(corpus))
        strays = sorted({d.rule for d in emitted if not d.rule.startswith(families)})
        assert not strays, f"{check.__module__} emits {strays}, outside the families {families} it declares in CHECKS"
        found.extend(emitted)
    return sorted(found, key=Diagnostic.sort_key)


def count_markdown_parses(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each page is parsed as Markdown from now on (by the loader or the page memo)."""
    parsed: Counter[str] = Counter()
    original = importlib.import_module("wopgen.corpus.load").parse_markdown

    def counted(path: str, text: str) -> Any:
        parsed[path] += 1
        return original(path, text)

    for module in ("wopgen.corpus.load", "wopgen.corpus.markdown_memo"):
        monkeypatch.setattr(importlib.import_module(module), "parse_markdown", counted)
    return parsed


def first_arguments(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[Any]:
    """The first argument of every call of `module.name` from now on (the function still runs)."""
    seen: list[Any] = []
    real = getattr(module, name)

    def spied(first: Any, *rest: Any) -> Any:
        seen.append(first)
        return real(first, *rest)

    monkeypatch.setattr(module, name, spied)
    return seen

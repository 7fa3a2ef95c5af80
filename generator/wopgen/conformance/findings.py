"""Scenario failures as diagnostics: rule `conformance-<scenario>`, located where the spec names it."""

from __future__ import annotations

from wopgen.conformance.runner import FAILED, Result
from wopgen.corpus import Corpus
from wopgen.diagnostics import Diagnostic, define

UNREACHABLE = define(
    "conformance-discovery",
    "error",
    "The host's discovery document cannot be read, so no conformance scenario can run.",
)


def unreachable(corpus: Corpus, message: str) -> Diagnostic:
    return UNREACHABLE.at(f"{corpus.settings.docs}/conformance.md", 1, message, "serve GET /.well-known/openwop")


def _where(corpus: Corpus, name: str) -> tuple[str, int]:
    """The first line of the prose that names the scenario in backticks, else the conformance page."""
    needle = f"`{name}`"
    for path, doc in sorted(corpus.docs.items(), key=lambda item: (not item[0].endswith("conformance.md"), item[0])):
        for number, line in enumerate(doc.text.splitlines(), start=1):
            if needle in line:
                return path, number
    return f"{corpus.settings.docs}/conformance.md", 1


def diagnostics(corpus: Corpus, results: list[Result], target: str) -> list[Diagnostic]:
    from wopgen.conformance.scenarios import RULES

    found = []
    for result in results:
        if result.status != FAILED:
            continue
        path, line = _where(corpus, result.scenario.name)
        found.append(
            RULES[result.scenario.name].at(
                path,
                line,
                f"{target}: {result.message}",
                "run `wopgen conformance` for the full report of this scenario",
            )
        )
    return found

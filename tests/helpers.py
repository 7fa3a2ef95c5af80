"""Small assertions shared by the rule tests."""

from __future__ import annotations

from wopgen.diagnostics import Diagnostic


def hits(found: list[Diagnostic], rule: str) -> list[tuple[str, int]]:
    """(path, line) of every finding of one rule, in report order."""
    return [(d.path, d.line) for d in found if d.rule == rule]


# The schemas RFC 0091 adds (six artifacts and the two sides of its conformance seam).
RFC_0091_SCHEMAS = (
    "verification-gate",
    "verification-rubric",
    "verification-finding",
    "verification-result",
    "handoff-artifact",
    "verification-node",
    "sample-verification-run-request",
    "sample-verification-run-response",
)

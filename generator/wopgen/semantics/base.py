"""The two value types every semantic rule module shares."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SemanticRule:
    """A rule id (prefix `semantic-`), what it means, and how to fix a breach."""

    id: str
    summary: str
    hint: str


@dataclass(frozen=True)
class Problem:
    """One breach of a semantic rule: the rule id, a JSON pointer into the instance, a message."""

    rule: str
    pointer: str
    message: str

"""Rules on corpus instances that JSON Schema cannot state, as pure functions.

Each checker takes one instance of a schema (already parsed JSON, not necessarily valid against
the schema) and returns the problems it finds, each with a stable rule id and a JSON pointer into
the instance. `wopgen check` applies them to the examples; a host can apply the same functions to
what it receives and decides at run time. Nothing here reads files or imports the checks.

The package uses the standard library only and imports itself relatively, so a generator may copy
the folder verbatim into another package (the generated host does) and import it from there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .base import Problem, SemanticRule
from .verification import CHECKERS as VERIFICATION_CHECKERS
from .verification import RULES as VERIFICATION_RULES

Checker = Callable[[Any], list[Problem]]

RULES: tuple[SemanticRule, ...] = VERIFICATION_RULES
CHECKERS: Mapping[str, Checker] = dict(VERIFICATION_CHECKERS)


def problems(schema_name: str, instance: Any) -> list[Problem]:
    """The semantic problems of `instance` as an instance of schema `schema_name` (none if unknown)."""
    checker = CHECKERS.get(schema_name)
    return checker(instance) if checker is not None else []


__all__ = ["CHECKERS", "RULES", "Checker", "Problem", "SemanticRule", "problems"]

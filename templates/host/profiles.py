"""Host profiles: what a host advertises, read back as the features its engine implements.

An honest profile implements exactly what its discovery document advertises. A mutant profile
(for proving the conformance scenarios non-vacuous) carries named defects that break one promise.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .schemas import corpus


@dataclass(frozen=True)
class Profile:
    """A profile, read-only: what its properties derive from its capabilities is worked out once (each
    request asks several of them) and shared, so callers must not change what they are given."""

    name: str
    description: str
    capabilities: dict[str, Any]
    defects: frozenset[str] = frozenset()
    mutant: bool = False

    def defect(self, name: str) -> bool:
        return name in self.defects

    @cached_property
    def _model(self) -> dict[str, Any]:
        model: dict[str, Any] = self.capabilities.get("multiAgent", {}).get("executionModel", {})
        return model if model.get("supported") else {}

    @cached_property
    def version(self) -> int:
        """The execution-model rung implemented; 0 when the host runs no orchestrator loop."""
        return int(self._model.get("version", 0))

    @property
    def floor(self) -> float:
        return float(self._model.get("confidenceEscalationFloor", 0.5))

    @property
    def stateful_resume(self) -> bool:
        return self.version >= 5 and bool(self._model.get("statefulResume"))

    @property
    def transcript_window(self) -> int:
        return int(self._model.get("transcriptWindow", 10))

    @cached_property
    def verifier_supported(self) -> bool:
        return self.version >= 6 and bool(self._model.get("verifier", {}).get("supported"))

    @property
    def verifier_gating(self) -> bool:
        return self.verifier_supported and bool(self._model.get("verifier", {}).get("gating"))

    @cached_property
    def gates(self) -> dict[str, Any]:
        """The advertised `verificationGates` block (RFC 0901); empty when gates are not supported."""
        block = self.capabilities.get("verificationGates") or self._model.get("verifier", {}).get("gates", {})
        block = block if self.verifier_supported and isinstance(block, dict) else {}
        return dict(block) if block.get("supported") else {}

    @property
    def workspace(self) -> bool:
        return bool(self.capabilities.get("host", {}).get("workspace", {}).get("supported"))

    @property
    def eval_advertised(self) -> bool:
        return bool(self.capabilities.get("agents", {}).get("evalSuite", {}).get("supported"))

    @property
    def eval_modes(self) -> tuple[str, ...]:
        return tuple(self.capabilities.get("agents", {}).get("evalSuite", {}).get("modes", ()))

    @property
    def max_tasks(self) -> int:
        return int(self.capabilities.get("agents", {}).get("evalSuite", {}).get("maxTasksPerSuite", 200))

    @property
    def max_eval_cost(self) -> float:
        """`maxCostUsdPerSuite`; without one, no ceiling."""
        ceiling = self.capabilities.get("agents", {}).get("evalSuite", {}).get("maxCostUsdPerSuite")
        return float("inf") if ceiling is None else float(ceiling)

    @property
    def max_loop_iterations(self) -> int:
        return int(self.capabilities["limits"].get("maxLoopIterations", 50))

    @property
    def max_body_bytes(self) -> int:
        return int(self.capabilities["limits"].get("maxRequestBodyBytes", 1_048_576))


def profiles() -> dict[str, Profile]:
    """Every profile of this host, honest ones and mutants, by name."""
    table: dict[str, Profile] = {}
    for name, entry in sorted(corpus()["profiles"].items()):
        table[name] = Profile(
            name=name,
            description=entry["description"],
            capabilities=entry["capabilities"],
            defects=frozenset(entry.get("defects", ())),
            mutant=bool(entry.get("mutant")),
        )
    return table


def profile(name: str) -> Profile:
    table = profiles()
    if name not in table:
        raise KeyError(f"unknown host profile {name!r}; known: {', '.join(table)}")
    return table[name]

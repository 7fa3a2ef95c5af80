"""One difference between two versions of the corpus, located on both sides."""

from __future__ import annotations

from dataclasses import dataclass

from wopgen.diagnostics import Diagnostic, Severity


@dataclass(frozen=True)
class Side:
    """Where a change sits in one version: file, JSON pointer (or API key path) and line."""

    path: str
    pointer: str
    line: int

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "pointer": self.pointer, "line": self.line}


@dataclass(frozen=True)
class Change:
    """A classified change. `base` is absent for additions of whole files, `head` for removals."""

    rule: str
    severity: Severity
    message: str
    base: Side | None
    head: Side | None
    hint: str = ""
    direction: str = ""
    events: tuple[str, ...] = ()
    rfc: str = ""  # the RFC that allows a breaking change, when one does
    accepted: str = ""  # the reason an entry of the accepted-changes file gives, when one matches

    @property
    def path(self) -> str:
        side = self.head or self.base
        assert side is not None
        return side.path

    @property
    def line(self) -> int:
        side = self.head or self.base
        assert side is not None
        return side.line

    def sort_key(self) -> tuple[str, int, str, str, str]:
        base_pointer = self.base.pointer if self.base else ""
        return (self.path, self.line, self.rule, base_pointer, self.message)

    def to_diagnostic(self) -> Diagnostic:
        where = []
        if self.base:
            where.append(f"base {self.base.path}:{self.base.line} {self.base.pointer or '/'}")
        if self.head:
            where.append(f"head {self.head.path}:{self.head.line} {self.head.pointer or '/'}")
        return Diagnostic(
            rule=self.rule,
            severity=self.severity,
            path=self.path,
            line=self.line,
            col=1,
            message=f"{self.message} ({'; '.join(where)})",
            hint=self.hint,
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "severity": self.severity.value,
            "path": self.path,
            "message": self.message,
            "hint": self.hint,
            "direction": self.direction or None,
            "events": list(self.events),
            "rfc": self.rfc or None,
            "accepted": self.accepted or None,
            "base": self.base.to_dict() if self.base else None,
            "head": self.head.to_dict() if self.head else None,
        }

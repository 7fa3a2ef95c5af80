"""wopgen: checks, generates from and executes the OpenWOP v1 specification corpus."""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["__version__"]

if TYPE_CHECKING:
    __version__: str


def __getattr__(name: str) -> str:
    """`__version__`, read from the installed package's metadata on first use (importing that
    machinery costs every command, most of which never print a version)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("wopgen")
    except PackageNotFoundError:  # running from a source tree without an install
        found = "0.0.0+source"
    globals()["__version__"] = found
    return found

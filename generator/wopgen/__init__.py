"""wopgen: checks, generates from and executes the OpenWOP v1 specification corpus."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("wopgen")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0+source"

__all__ = ["__version__"]

"""The `wopgen` command line: parse options, call a function, render the result. Nothing more.

One module per command (or command group); importing them registers the commands on `cli`.
"""

from __future__ import annotations

import sys

from wopgen.cli import check, compat, config, conformance, explain, generate, host, init, rfc, site  # noqa: F401  (registers commands)
from wopgen.cli.app import cli

__all__ = ["cli", "main"]


def main() -> None:
    try:
        cli.main(standalone_mode=True)
    except KeyboardInterrupt:
        sys.exit(130)

"""mkdocs hook for `wopgen site build` on a terminal: one line on stdout per page mkdocs writes, so
the command can draw its progress bar. mkdocs loads this file by path; it changes no output."""

from __future__ import annotations

from typing import Any

MARK = "wopgen-site-page"


def on_post_page(output: str, page: Any, config: Any) -> str:
    print(MARK, flush=True)
    return output

"""HTML that wopgen writes for the site's pages itself (highlighted code blocks, tables).

Each piece is kept under a key (a digest of what it was made from) and the staging tree carries
them all in one JSON file beside the staging mkdocs.yml; the page names each piece by a comment,
which the page hook replaces (see `page_hook`). Given the pieces an earlier rendering made with
the same code (`known`, by key), a piece made from the same source is taken from them instead of
made again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping


class StagedHtml:
    """The pieces of HTML of one rendering of the site, by key."""

    def __init__(self, known: Mapping[str, str] | None = None) -> None:
        self.html: dict[str, str] = {}
        self.known = known or {}

    def keep(self, source: str, make: Callable[[], str]) -> str:
        """The key of the HTML made from `source`, made (by `make`) only the first time `source` is seen."""
        key = hashlib.sha256(source.encode()).hexdigest()[:24]
        if key not in self.html:
            known = self.known.get(key)
            self.html[key] = known if isinstance(known, str) else make()
        return key

    def dumps(self) -> str:
        """The JSON file the page hook reads."""
        return json.dumps(dict(sorted(self.html.items())), indent=0, ensure_ascii=False) + "\n"

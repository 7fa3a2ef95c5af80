"""mkdocs hook for `wopgen site serve`: render the corpus again before every rebuild.

It lives with the CLI because, like the CLI, it is an entry point: it asks the rule catalogue for
the reference page, which nothing under `wopgen.generate` may import.

mkdocs loads this file by path (`hooks:` in the staging mkdocs.yml). Before each build it loads the
corpus named by WOPGEN_SITE_ROOT and brings the staging tree up to date, touching only the files
that changed, so an edit to the corpus reaches the browser through mkdocs' live reload.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from wopgen.catalogue import catalogue
from wopgen.corpus import load
from wopgen.corpus.settings import load_settings
from wopgen.generate import site
from wopgen.generate.writer import sync_tree

log = logging.getLogger("mkdocs.wopgen")


def on_pre_build(config: Any) -> None:
    root = os.environ.get("WOPGEN_SITE_ROOT")
    if not root:
        return
    staging = Path(config.config_file_path).parent
    config = os.environ.get("WOPGEN_SITE_CONFIG")
    corpus = load(Path(root), load_settings(Path(root), Path(config)) if config else None)
    changed = sync_tree(site.render(corpus, hooks=(Path(__file__),), rules=catalogue()), staging)
    if changed:
        log.info("wopgen: re-rendered %d page(s) from the corpus", len(changed))

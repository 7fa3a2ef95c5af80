"""The docs site's hand-written part (the base mkdocs.yml), shipped as the package `wopgen_site` (see setup.py)."""

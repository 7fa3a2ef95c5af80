"""The templates wopgen renders from, shipped as the package `wopgen_templates` (see pyproject.toml).

One folder per generator: host/, models/, site/ (with the site's base mkdocs.yml) and rfc/. They are
data, not code: `wopgen.templates` loads them; nothing imports the .py files under host/.
"""

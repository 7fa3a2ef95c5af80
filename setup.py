"""Packaging: the `wopgen` package lives in generator/; the repository-root folders templates/ and
site/ ship with it as the packages `wopgen_templates` and `wopgen_site`, so a normal install has them
as an editable one does. Everything else is in pyproject.toml.

Kept in setup.py because pyproject.toml cannot combine a package search with a mapped folder.
"""

from setuptools import find_namespace_packages, setup

_SKIP = ["*__pycache__*"]

setup(
    package_dir={"": "generator", "wopgen_templates": "templates", "wopgen_site": "site"},
    packages=[
        *find_namespace_packages("generator", include=["wopgen", "wopgen.*"], exclude=_SKIP),
        "wopgen_site",
        "wopgen_templates",
        *(f"wopgen_templates.{name}" for name in find_namespace_packages("templates", exclude=_SKIP)),
    ],
)

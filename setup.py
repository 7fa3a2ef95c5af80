"""Packaging: the `wopgen` package lives in generator/; the repository-root folders templates/ and
site/ ship with it as the packages `wopgen_templates` and `wopgen_site`, so a normal install has them
as an editable one does. Everything else is in pyproject.toml.

Kept in setup.py because pyproject.toml cannot combine a package search with a mapped folder.
"""

from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

_SKIP = ["*__pycache__*"]
# The corpus format reference is CONTRIBUTING.md; the wheel carries a copy as package data so
# `wopgen config --reference` works without the repository (see wopgen.reference).
_FORMAT_REFERENCE = Path(__file__).resolve().with_name("CONTRIBUTING.md")


class _BuildWithReference(build_py):
    def run(self) -> None:
        super().run()
        if _FORMAT_REFERENCE.is_file():
            target = Path(self.build_lib) / "wopgen" / "data" / "corpus-format.md"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_FORMAT_REFERENCE.read_bytes())


setup(
    cmdclass={"build_py": _BuildWithReference},
    package_dir={"": "generator", "wopgen_templates": "templates", "wopgen_site": "site"},
    packages=[
        *find_namespace_packages("generator", include=["wopgen", "wopgen.*"], exclude=_SKIP),
        "wopgen_site",
        "wopgen_templates",
        *(f"wopgen_templates.{name}" for name in find_namespace_packages("templates", exclude=_SKIP)),
    ],
)

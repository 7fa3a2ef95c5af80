"""Packaging: the `wopgen` package lives in generator/; the repository-root folders templates/ and
site/ ship with it as the packages `wopgen_templates` and `wopgen_site`, so a normal install has them
as an editable one does. Everything else is in pyproject.toml.

Kept in setup.py because pyproject.toml cannot combine a package search with a mapped folder.
"""

from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

_SKIP = ["*__pycache__*"]
_HERE = Path(__file__).resolve().parent
# The corpus format reference is CONTRIBUTING.md; the wheel carries a copy as package data so
# `wopgen config --reference` works without the repository (see wopgen.reference).
_FORMAT_REFERENCE = _HERE / "CONTRIBUTING.md"
# The OpenWOP v1 slice itself, so `wopgen conformance` and `wopgen host` run outside any corpus
# (see wopgen.reference): its settings, changelog, schemas and prose.
_SLICE = ("pyproject.toml", "CHANGELOG.md", "schemas", "spec")


class _BuildWithReference(build_py):
    def run(self) -> None:
        super().run()
        data = Path(self.build_lib) / "wopgen" / "data"
        if _FORMAT_REFERENCE.is_file():
            data.mkdir(parents=True, exist_ok=True)
            (data / "corpus-format.md").write_bytes(_FORMAT_REFERENCE.read_bytes())
        if all((_HERE / part).exists() for part in _SLICE):
            target = data / "openwop-v1-slice"
            for part in _SLICE:
                source = _HERE / part
                files = [p for p in source.rglob("*") if p.is_file()] if source.is_dir() else [source]
                for file in files:
                    if "__pycache__" in file.parts or file.name == ".DS_Store":
                        continue
                    copy = target / file.relative_to(_HERE)
                    copy.parent.mkdir(parents=True, exist_ok=True)
                    copy.write_bytes(file.read_bytes())


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

"""Import a generated host package straight from its `{path: text}` tree, without writing it to disk.

The caller generates the tree (the checks or the CLI); the runner imports no generator.

Each load gets a fresh, unique package name, so several generated hosts (or one host generated
twice) can live in one process side by side.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import itertools
import sys
from collections.abc import Mapping, Sequence
from types import ModuleType

from wopgen.conformance.transport import InProcess

_COUNTER = itertools.count(1)
_ROOT = "/<generated>"


class _TreeLoader(importlib.abc.Loader):
    def __init__(self, files: Mapping[str, str | bytes], path: str) -> None:
        self.files = files
        self.path = path

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        source = self.files[self.path]
        code = compile(source, f"{_ROOT}/{self.path}", "exec")
        exec(code, module.__dict__)

    def get_data(self, path: str) -> bytes:
        """pkgutil.get_data reads package resources through this."""
        relative = path.removeprefix(_ROOT + "/")
        if relative not in self.files:
            raise OSError(f"{relative} is not part of the generated package")
        content = self.files[relative]
        return content if isinstance(content, bytes) else content.encode("utf-8")


class _TreeFinder(importlib.abc.MetaPathFinder):
    def __init__(self, files: Mapping[str, str | bytes], package: str, alias: str) -> None:
        self.files = files
        self.package = package
        self.alias = alias

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.alias and not fullname.startswith(self.alias + "."):
            return None
        relative = self.package + fullname[len(self.alias) :].replace(".", "/")
        init = relative + "/__init__.py"
        if init in self.files:
            spec = importlib.util.spec_from_loader(fullname, _TreeLoader(self.files, init), is_package=True)
            assert spec is not None
            spec.origin = f"{_ROOT}/{init}"
            spec.submodule_search_locations = [f"{_ROOT}/{relative}"]
            spec.has_location = True
            return spec
        if relative + ".py" in self.files:
            spec = importlib.util.spec_from_loader(fullname, _TreeLoader(self.files, relative + ".py"))
            assert spec is not None
            spec.origin = f"{_ROOT}/{relative}.py"
            spec.has_location = True
            return spec
        return None


def load_package(files: Mapping[str, str | bytes], package: str) -> ModuleType:
    """Import `package` from `files` under a fresh alias and return the package module."""
    alias = f"_wopgen_generated_{package}_{next(_COUNTER)}"
    sys.meta_path.insert(0, _TreeFinder(files, package, alias))
    return importlib.import_module(alias)


SECOND_KEY = "conformance-second-key"  # a key of another owner scope, for the owner-scope checks


def in_process(module: ModuleType, profile: str = "full", api_key: str = "conformance-key") -> InProcess:
    """A transport to a fresh host of the generated `module` running `profile`, with a second owner's key."""
    host = module.Host(profile, api_key=api_key, other_keys=[SECOND_KEY])
    return InProcess(host, api_key, f"in-process host ({profile})", SECOND_KEY)

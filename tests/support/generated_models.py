"""The models package generated from the repository corpus, once per test session, importable."""

from __future__ import annotations

import ast
import atexit
import importlib
import json
import shutil
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from wopgen.corpus import Corpus, load
from wopgen.generate import models
from wopgen.generate.models import fed_name, generate_models, module_name
from wopgen.generate.writer import write_tree

REPO = Path(__file__).resolve().parents[2]
PAYLOADS = "run-event-payloads"


@lru_cache(maxsize=1)
def repo_corpus() -> Corpus:
    return load(REPO)


@lru_cache(maxsize=1)
def generated() -> tuple[Path, dict[str, str]]:
    """Generate the package into a private folder, put it on sys.path, return (folder, files)."""
    folder = Path(tempfile.mkdtemp(prefix="wopgen-models-test-"))
    atexit.register(shutil.rmtree, folder, True)
    files = generate_models(repo_corpus())
    write_tree(files, folder / "out")
    sys.path.insert(0, str(folder / "out"))
    return folder / "out", files


def imported_package(
    files: dict[str, Any], folder: Path, package: str, warnings: list[Any] | None = None
) -> ModuleType:
    """The models package generated (as `package`) from the corpus of `files`, written below `folder` and
    imported; sys.path is left as it was."""
    from support.corpus_factory import write

    root = write(folder / "corpus", files)
    out = folder / "models"
    write_tree(generate_models(load(root), package=package, warnings=warnings), out)
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module(package)
    finally:
        sys.path.remove(str(out))


def mypy_strict(folder: Path, package: str) -> str:
    """What `mypy --strict` says of the generated `package` below `folder`; empty when it passes."""
    import subprocess

    cache = folder.parent / f"{folder.name}-mypy-cache"
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "-p", package]
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    return "" if result.returncode == 0 else result.stdout + result.stderr


def takes(model: Any, instance: Any) -> bool:
    """Whether the generated `model` (a class or a type) takes `instance` sent as JSON."""
    import pydantic

    try:
        pydantic.TypeAdapter(model).validate_json(json.dumps(instance))
    except pydantic.ValidationError:
        return False
    return True


def package() -> ModuleType:
    generated()
    return importlib.import_module(repo_corpus().settings.models_package)


def root_model(schema_name: str) -> Any:
    """The generated class of a schema's root (named from its title)."""
    generated()
    corpus = repo_corpus()
    title = corpus.schemas_by_name[schema_name].data["title"]
    module = importlib.import_module(f"{corpus.settings.models_package}.{module_name(fed_name(corpus, schema_name))}")
    return getattr(module, title)


def payload_model(event_type: str) -> tuple[Any, str]:
    """The generated payload class of an event type, and the JSON pointer of its `$def`."""
    generated()
    corpus = repo_corpus()
    payloads = corpus.schemas_by_name[PAYLOADS].data
    ref = payloads["$defs"]["_typeIndex"]["properties"][event_type]["$ref"]
    pointer = ref.removeprefix("#")
    title = payloads["$defs"][ref.rsplit("/", 1)[-1]]["title"]
    module = importlib.import_module(f"{corpus.settings.models_package}.{module_name(fed_name(corpus, PAYLOADS))}")
    return getattr(module, title), pointer


def count_library_runs(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """A list that gets an item per run of the library from now on."""
    runs: list[bool] = []
    generate = models._run_generator

    def counted(files: dict[str, Any], folder: Any) -> Any:
        runs.append(True)
        return generate(files, folder)

    monkeypatch.setattr(models, "_run_generator", counted)
    return runs


def same_package(ours: dict[str, str], whole: dict[str, str]) -> None:
    """The same files; the event module with the same imports and the same text of every class, in
    any order (the library orders the variants it generates by its own rules)."""
    assert ours.keys() == whole.keys()
    for path, text in ours.items():
        if not path.endswith("/run_events_schema.py"):
            assert text == whole[path], path
            continue
        assert _classes(text) == _classes(whole[path])
        assert text.split("\nclass ", 1)[0] == whole[path].split("\nclass ", 1)[0]  # the imports
        assert text.rsplit("\nclass ", 1)[1].startswith("RunEvents(")  # the union of all, still last


def _classes(text: str) -> dict[str, str]:
    return {n.name: ast.get_source_segment(text, n) or "" for n in ast.parse(text).body if isinstance(n, ast.ClassDef)}

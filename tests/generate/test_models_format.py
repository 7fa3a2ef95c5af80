"""`wopgen models` lays its modules out with ruff, with fixed settings: the text depends on the
corpus only, never on the folder wopgen runs in or a configuration file found there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support.generated_models import generated
from wopgen.corpus import load
from wopgen.generate import models
from wopgen.generate.models import LINE_LENGTH, ModelsError, format_modules, generate_models

# A project whose formatter settings would wrap almost every line if they were read.
NARROW = "[tool.ruff]\nline-length = 40\n\n[tool.black]\nline-length = 40\n\n[tool.isort]\nline_length = 40\n"


def test_output_does_not_depend_on_the_current_folder(
    make_corpus: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = load(make_corpus())
    narrow, plain = tmp_path / "narrow", tmp_path / "plain"
    narrow.mkdir()
    plain.mkdir()
    (narrow / "pyproject.toml").write_text(NARROW, encoding="utf-8")
    monkeypatch.chdir(narrow)
    in_narrow = generate_models(corpus)
    monkeypatch.chdir(plain)
    assert generate_models(corpus) == in_narrow
    assert any(len(line) > 40 for text in in_narrow.values() for line in text.splitlines())


def test_generated_modules_are_ruff_clean(tmp_path: Path) -> None:
    """Laid out, imports sorted, and no unused import or undefined name (pyflakes), in every module of
    the repository's package: a member rewritten to `NOT_NULL` may leave `Field` unused."""
    files = generated()[1]
    modules = [path for path in files if path.endswith(".py") and not path.endswith("/__init__.py")]  # ours
    assert any(path.endswith("/_strict.py") for path in modules)
    for path in modules:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(files[path], encoding="utf-8")
    settings = ["--isolated", "--no-cache", f"--line-length={LINE_LENGTH}", "--target-version=py311", *modules]
    ruff = models._ruff()
    for command in (["format", "--check"], ["check", "--select=I,F"]):
        result = subprocess.run([ruff, *command, *settings], cwd=tmp_path, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_format_modules_sorts_imports_and_formats_every_folder(tmp_path: Path) -> None:
    # `dist` and `venv` are in ruff's default exclusions; the package's own folders never are.
    source = "from typing import Any\nimport json\nx  =  {'a':json, 'b':Any}\n"
    out = format_modules({("dist", "a.py"): source, ("venv", "b.py"): source, ("c.py",): source}, tmp_path / "out")
    expected = 'import json\nfrom typing import Any\n\nx = {"a": json, "b": Any}\n'
    assert out == {("dist", "a.py"): expected, ("venv", "b.py"): expected, ("c.py",): expected}


def test_format_modules_refuses_code_ruff_cannot_parse(tmp_path: Path) -> None:
    with pytest.raises(ModelsError, match="ruff could not format"):
        format_modules({("a.py",): "def broken(:\n"}, tmp_path / "out")


def test_missing_ruff_is_a_clear_error(make_corpus: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import ruff  # type: ignore[import-untyped]  # the package ships no annotations

    def missing() -> str:
        raise FileNotFoundError("no ruff")

    corpus = load(make_corpus())
    monkeypatch.setattr(ruff, "find_ruff_bin", missing)
    with pytest.raises(ModelsError, match="ruff executable is missing"):
        generate_models(corpus)
    monkeypatch.setitem(sys.modules, "ruff", None)  # not installed at all: the import fails
    with pytest.raises(ModelsError, match="ruff executable is missing"):
        generate_models(corpus)


def test_the_library_package_init_is_not_formatted(make_corpus: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The package's `__init__.py` is wopgen's own, so the library's is dropped before ruff runs."""
    formatted: list[tuple[str, ...]] = []
    real = models.format_modules

    def spy(modules: dict[tuple[str, ...], str], folder: Path) -> dict[tuple[str, ...], str]:
        formatted.extend(modules)
        return real(modules, folder)

    monkeypatch.setattr(models, "format_modules", spy)
    files = generate_models(load(make_corpus()))
    assert formatted and ("__init__.py",) not in formatted
    assert all(f"wop_models/{'/'.join(key)}" in files for key in formatted)
    assert "parse_run_event" in files["wop_models/__init__.py"]


@pytest.mark.parametrize(
    "text",
    [
        "x = 1\n",
        "x = 1",
        "x = 1\n\n\n",
        "",
        f"a\n        {models._MYPY_REPAIRS[0][0]}\nb\n",
        f"        {models._MYPY_REPAIRS[0][0]}   \n\n",
        f"{models._MYPY_REPAIRS[0][0]} and more\n",  # the needle, not at the end of its line
    ],
)
def test_mypy_repair_is_the_line_by_line_repair(text: str) -> None:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        for needle, code in models._MYPY_REPAIRS:
            if line.rstrip().endswith(needle):
                lines[i] = f"{line.rstrip()}  # type: ignore[{code}]"
    assert models._repair_for_mypy(text) == "\n".join(lines).rstrip("\n") + "\n"

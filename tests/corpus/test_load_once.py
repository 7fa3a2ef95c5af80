"""Load once: one `wopgen check` on the repository parses each schema, the API description,
pyproject.toml and the event index once, walks the disk once and runs the schema checks once."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from wopgen.cli import cli

REPO = Path(__file__).resolve().parents[2]


def test_check_on_the_repository_reads_everything_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: Counter[tuple[str, str]] = Counter()

    def count(module_name: str, name: str, key: Callable[..., str] = lambda *a: "") -> None:
        module = importlib.import_module(module_name)
        original = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            calls[(name, key(*args))] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)

    count("wopgen.corpus.load", "parse_json", key=lambda path, raw: path)
    count("wopgen.corpus.load", "listing")
    count("wopgen.corpus.settings", "_parse", key=lambda pyproject: str(pyproject))
    count("wopgen.corpus.api", "_read_api")
    count("wopgen.corpus.events", "_index_of", key=lambda corpus, doc: doc.path)
    count("wopgen.checks.schemas", "_check")
    for method in ("glob", "rglob"):  # any other walk of the disk
        monkeypatch.setattr(Path, method, _refused(method))

    result = CliRunner().invoke(cli, ["--root", str(REPO), "check", "--no-cache"])  # every check runs
    assert result.exit_code == 0, result.output

    schemas = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "schemas").iterdir() if p.is_file())
    parsed = {key: n for (name, key), n in calls.items() if name == "parse_json" and key in schemas}
    assert parsed == dict.fromkeys(schemas, 1)
    assert calls[("listing", "")] == 1
    assert calls[("_parse", str(REPO.resolve() / "pyproject.toml"))] == 1
    assert calls[("_read_api", "")] == 1
    assert calls[("_check", "")] == 1
    index = {key: n for (name, key), n in calls.items() if name == "_index_of"}
    assert index["schemas/run-event-payloads.schema.json"] == 1
    assert set(index.values()) == {1}


def _refused(method: str) -> Callable[..., Any]:
    def walk(self: Path, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"Path.{method}({self}) walks the disk again; ask the corpus listing")

    return walk

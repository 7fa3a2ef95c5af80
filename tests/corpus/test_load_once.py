"""Load once: one `wopgen check` on the repository parses each schema, the API description,
pyproject.toml and the event index once, walks the disk once and runs the schema checks once."""

from __future__ import annotations

import importlib
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.helpers import count_markdown_parses
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
    count("wopgen.generate.api", "_openapi_document")  # the API check and the generated host both need it
    count("wopgen.generate.api", "_asyncapi_document")
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
    assert calls[("_openapi_document", "")] == 1 and calls[("_asyncapi_document", "")] == 1
    index = {key: n for (name, key), n in calls.items() if name == "_index_of"}
    assert index["schemas/run-event-payloads.schema.json"] == 1
    assert set(index.values()) == {1}


def _refused(method: str) -> Callable[..., Any]:
    def walk(self: Path, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"Path.{method}({self}) walks the disk again; ask the corpus listing")

    return walk


def test_schema_and_example_checks_parse_no_markdown(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = count_markdown_parses(monkeypatch)
    runner = CliRunner()
    selected = runner.invoke(
        cli, ["--root", str(REPO), "check", "--no-cache", "--select", "schema-,example-", "--format", "json"]
    )
    assert selected.exit_code == 0, selected.output
    # Schemas name RFCs (`x-wop-rfc`), whose numbers and status are in the header table: that is read
    # from the file's lines, so no RFC is parsed as Markdown either, and nor is the changelog.
    assert not parsed
    # The full check parses every page and RFC, and the changelog, each once.
    parsed.clear()
    full = runner.invoke(cli, ["--root", str(REPO), "check", "--no-cache", "--format", "json"])
    assert full.exit_code == 0, full.output
    pages = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "spec/v1").rglob("*.md"))
    rfcs = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "spec/rfcs").glob("[0-9]*.md"))
    assert {path: parsed[path] for path in [*pages, *rfcs, "CHANGELOG.md"]} == dict.fromkeys(
        [*pages, *rfcs, "CHANGELOG.md"], 1
    )


def test_without_rfc_annotations_no_rfc_is_parsed(
    make_corpus: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def drop_annotations(files: dict[str, Any]) -> None:
        for name, body in files.items():
            if name.endswith(".schema.json"):
                files[name] = json.loads(json.dumps(body).replace('"x-wop-rfc": "0001", ', ""))

    root = make_corpus(drop_annotations)
    assert "x-wop-rfc" not in "".join(p.read_text() for p in (root / "schemas").glob("*.json"))
    parsed = count_markdown_parses(monkeypatch)
    result = CliRunner().invoke(cli, ["--root", str(root), "check", "--select", "schema-,example-"])
    assert result.exit_code == 0, result.output
    assert not parsed  # read with the corpus; the pages, the RFC and the changelog are not parsed


@pytest.mark.parametrize("command", [["models"], ["api"]])
def test_generators_of_schemas_and_api_parse_no_markdown(
    command: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`models` and `api` read no page, RFC or changelog, so none is parsed."""
    parsed = count_markdown_parses(monkeypatch)
    result = CliRunner().invoke(cli, ["--root", str(REPO), *command, "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert not parsed

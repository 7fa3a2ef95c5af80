"""`wopgen models`: the generated package agrees with the schemas on every example, types cleanly,
and is the same byte for byte on every run."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pydantic
import pytest
from click.testing import CliRunner

from support.corpus_factory import schema
from support.generated_models import PAYLOADS, generated, mypy_strict, package, payload_model, repo_corpus, root_model
from wopgen.cli import cli
from wopgen.corpus import Example, load
from wopgen.diagnostics import Diagnostic
from wopgen.generate.models import ModelsError, generate_models
from wopgen.semantics import problems as semantic_problems

EXAMPLES = sorted(repo_corpus().examples, key=lambda e: e.path)


def _model_and_instance(example: Example) -> tuple[Any, Any]:
    if example.schema_name == PAYLOADS:
        cls, _pointer = payload_model(example.doc.data["type"])
        return cls, example.doc.data["payload"]
    return root_model(example.schema_name), example.doc.data


def _rejected_by_semantics_only(example: Example) -> bool:
    """An invalid example the schema accepts and a rule of wopgen.semantics rejects (RFC 0901):
    models mirror the schema, so they accept it too."""
    corpus = repo_corpus()
    schema = corpus.schemas_by_name[example.schema_name]
    return bool(semantic_problems(example.schema_name, example.doc.data)) and corpus.validator(schema.path).is_valid(
        example.doc.data
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.path for e in EXAMPLES])
def test_model_agrees_with_schema_on_example(example: Example) -> None:
    cls, instance = _model_and_instance(example)
    try:
        parsed = cls.model_validate(instance)
    except pydantic.ValidationError as exc:
        assert example.kind == "invalid", f"{example.path}: the schema accepts it, the model rejects it:\n{exc}"
        return
    assert example.kind == "valid" or _rejected_by_semantics_only(example), (
        f"{example.path}: the schema rejects it, the model accepts it"
    )
    dumped = parsed.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert dumped == instance, f"{example.path}: does not dump back to the same JSON"


def test_every_schema_has_examples_of_both_kinds() -> None:
    # The agreement test above is only as good as its inputs.
    kinds = {(e.schema_name, e.kind) for e in EXAMPLES}
    for name in repo_corpus().schemas_by_name:
        assert (name, "valid") in kinds and (name, "invalid") in kinds, name


def _event(event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "eventId": "e-7",
        "runId": "run-1",
        "type": event_type,
        "payload": payload,
        "timestamp": "2026-06-01T10:00:00Z",
        "sequence": 7,
    }


def test_parse_run_event_types_the_payload() -> None:
    wop = package()
    event = wop.parse_run_event(
        _event("agent.verified", {"agentId": "acme.critic", "target": "e-6", "verdict": "fail"})
    )
    assert type(event).__name__ == "AgentVerifiedEvent"
    assert type(event.payload).__name__ == "AgentVerifiedPayload"
    assert event.payload.verdict.value == "fail"
    assert event.type == "agent.verified"


def test_parse_run_event_every_valid_payload_example() -> None:
    wop = package()
    for example in EXAMPLES:
        if example.schema_name == PAYLOADS and example.kind == "valid":
            event = wop.parse_run_event(_event(example.doc.data["type"], example.doc.data["payload"]))
            expected, _ = payload_model(example.doc.data["type"])
            assert isinstance(event.payload, expected), example.path


def test_parse_run_event_keeps_an_unknown_type_instead_of_failing() -> None:
    # Forward compatibility: readers ignore event types they do not know.
    wop = package()
    event = wop.parse_run_event(_event("future.kind", {"anything": [1, 2]}))
    assert isinstance(event, wop.UnknownRunEvent)
    assert event.type == "future.kind"
    assert event.payload == {"anything": [1, 2]}


def test_parse_run_event_rejects_a_bad_payload_of_a_known_type() -> None:
    wop = package()
    with pytest.raises(pydantic.ValidationError):
        wop.parse_run_event(_event("agent.verified", {"agentId": "acme.critic", "target": "e-6", "verdict": "maybe"}))
    with pytest.raises(pydantic.ValidationError):  # the envelope still has to be whole
        wop.parse_run_event({"type": "future.kind", "payload": {}})


def test_closed_and_const_are_carried_into_the_models() -> None:
    out, files = generated()
    payloads = files[f"{repo_corpus().settings.models_package}/run_event_payloads_schema.py"]
    assert 'extra="forbid"' in payloads  # content-free payloads are closed
    assert "Model1" not in "".join(files.values())
    events = files[f"{repo_corpus().settings.models_package}/run_events_schema.py"]
    assert 'type: Literal["agent.verified"]' in events
    assert (out / repo_corpus().settings.models_package / "py.typed").is_file()


def test_output_is_byte_identical_run_to_run() -> None:
    _out, first = generated()
    assert generate_models(load(repo_corpus().root)) == first


def test_generated_package_passes_mypy_strict() -> None:
    out, _files = generated()
    assert mypy_strict(out, repo_corpus().settings.models_package) == ""


def test_package_name_comes_from_settings(make_corpus: Any) -> None:
    def rename(files: dict[str, Any]) -> None:
        files["pyproject.toml"] += 'models-package = "acme_wop"\n'

    files = generate_models(load(make_corpus(rename)))
    assert "acme_wop/__init__.py" in files and "acme_wop/py.typed" in files
    assert not any(p.startswith("wop_models/") for p in files)


def test_bad_package_name_is_an_error(make_corpus: Any) -> None:
    with pytest.raises(ModelsError, match="not a Python package name"):
        generate_models(load(make_corpus()), package="not-a-package")


def _recursive(*names: str) -> Callable[[dict[str, Any]], None]:
    """Schemas read from sub-folders too, with a `Note` schema at each of `names` (below `schemas/`)."""

    def edit(files: dict[str, Any]) -> None:
        files["pyproject.toml"] += "schemas-recursive = true\n"
        for name in names:
            body = schema(name, {"type": "object", "properties": {"text": {"type": "string"}}})
            files[f"schemas/{name}.schema.json"] = {**body, "title": "Note"}

    return edit


def test_a_schema_in_a_sub_folder_has_its_root_class_exported(make_corpus: Any, tmp_path: Path) -> None:
    warnings: list[Diagnostic] = []
    files = generate_models(load(make_corpus(_recursive("envelopes/note"))), package="sub_folder", warnings=warnings)
    assert warnings == []
    assert "from .note_schema import Note\n" in files["sub_folder/__init__.py"]
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        models = importlib.import_module("sub_folder")
    finally:
        sys.path.remove(str(tmp_path))
    assert "Note" in models.__all__ and models.Note(text="x").text == "x"


def test_two_schemas_of_one_file_name_are_refused(make_corpus: Any, tmp_path: Path) -> None:
    """The package has a module per schema file name: the second would have replaced the first unseen."""
    root = make_corpus(_recursive("a/note", "b/note"))
    with pytest.raises(ModelsError, match=r"schemas/a/note.schema.json and schemas/b/note.schema.json share"):
        generate_models(load(root))
    result = CliRunner().invoke(cli, ["--root", str(root), "models", "--out", str(tmp_path / "m")])
    assert result.exit_code != 0 and "share the file name note.schema.json" in result.output
    assert not (tmp_path / "m").exists()


def test_cli_writes_then_checks_then_reports_drift(make_corpus: Any, tmp_path: Path) -> None:
    root = make_corpus()
    out = tmp_path / "models"
    runner = CliRunner()
    wrote = runner.invoke(cli, ["--root", str(root), "models", "--out", str(out)])
    assert wrote.exit_code == 0, wrote.output
    assert (out / "wop_models" / "__init__.py").is_file()
    clean = runner.invoke(cli, ["--root", str(root), "models", "--out", str(out), "--check"])
    assert clean.exit_code == 0, clean.output
    target = out / "wop_models" / "thing_schema.py"
    target.write_text(target.read_text() + "# edited by hand\n")
    stale = runner.invoke(cli, ["--root", str(root), "models", "--out", str(out), "--check"])
    assert stale.exit_code == 1
    assert "changed: wop_models/thing_schema.py" in stale.output
    assert "-# edited by hand" in stale.output


def test_a_schema_its_own_draft_accepts_is_generated_though_2020_12_rejects_it(
    make_corpus: Any, tmp_path: Path
) -> None:
    """A draft-07 list `items` breaks the corpus convention (`check` reports it), not the schema: the models
    read each schema in its draft. The API, read as 2020-12, is still stopped."""

    def tuple_items(files: dict[str, Any]) -> None:
        files["schemas/thing.schema.json"]["$schema"] = "http://json-schema.org/draft-07/schema#"
        files["schemas/thing.schema.json"]["properties"]["pair"] = {"type": "array", "items": [{"type": "string"}]}

    root = make_corpus(tuple_items)
    runner = CliRunner()
    wrote = runner.invoke(cli, ["--root", str(root), "models", "--out", str(tmp_path / "models")])
    assert wrote.exit_code == 0, wrote.output
    refused = runner.invoke(cli, ["--root", str(root), "api", "--out", str(tmp_path / "api")])
    assert refused.exit_code == 1 and "schema-metaschema" in refused.output


def test_cli_refuses_a_corpus_with_broken_refs(make_corpus: Any, tmp_path: Path) -> None:
    def break_ref(files: dict[str, Any]) -> None:
        files["schemas/thing.schema.json"]["properties"]["name"] = {"$ref": "missing.schema.json"}

    root = make_corpus(break_ref)
    out = tmp_path / "models"
    result = CliRunner().invoke(cli, ["--root", str(root), "models", "--out", str(out)])
    assert result.exit_code == 1
    assert "schema-ref-unresolved" in result.output
    assert not out.exists()  # nothing half-written


@pytest.mark.parametrize("name", ["bad-name", "class", "None"])
def test_cli_bad_package_setting_exits_2(make_corpus: Any, tmp_path: Path, name: str) -> None:
    """A keyword matches the pattern of a name, but no `import` of the package it names parses."""

    def rename(files: dict[str, Any]) -> None:
        files["pyproject.toml"] += f'models-package = "{name}"\n'

    result = CliRunner().invoke(cli, ["--root", str(make_corpus(rename)), "models", "--out", str(tmp_path / "m")])
    assert result.exit_code == 2, result.output
    assert "not a Python package name" in result.output
    assert not (tmp_path / "m").exists()


def test_corpus_without_run_events_gets_no_event_helpers(make_corpus: Any) -> None:
    def drop_events(files: dict[str, Any]) -> None:
        for path in list(files):
            if "run-event" in path:
                del files[path]

    files = generate_models(load(make_corpus(drop_events)))
    init = files["wop_models/__init__.py"]
    assert "from .thing_schema import Thing" in init
    assert "parse_run_event" not in init and "wop_models/run_events_schema.py" not in files

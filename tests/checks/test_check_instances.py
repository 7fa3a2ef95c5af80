"""`[tool.wopgen] instances`: files mapped to a schema are validated like examples (rules `instance-*`)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.helpers import hits
from wopgen.checks.validating import MAX_ERRORS
from wopgen.cli import cli
from wopgen.corpus import load
from wopgen.diagnostics import Diagnostic

Files = dict[str, Any]
FIXTURES = "fixtures/things/*.json"
# The appended [tool.wopgen] lines start on line 8 of the fixture corpus's pyproject.toml.
FIRST_SETTING = 8


def instances(files: Files, *entries: str) -> None:
    """Map files to schemas: each entry is the inside of one `{ ... }` table of `instances`."""
    body = "".join(f"  {{ {entry} }},\n" for entry in entries)
    files["pyproject.toml"] += f"instances = [\n{body}]\n"


def things(files: Files, **fixtures: Any) -> None:
    """Fixture files under fixtures/things/, validated against thing.schema.json."""
    instances(files, f'files = "{FIXTURES}", schema = "thing.schema.json"')
    for name, content in fixtures.items():
        files[f"fixtures/things/{name}.json"] = content


def only_instances(found: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in found if d.rule.startswith("instance-")]


def line_of(content: Any, needle: str) -> int:
    text = json.dumps(content, indent=2)  # as the corpus factory writes it
    return next(number for number, line in enumerate(text.splitlines(), 1) if needle in line)


# --- validation ---------------------------------------------------------------------------------


def test_a_valid_instance_passes_and_is_counted(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus(lambda files: things(files, named={"name": "x", "decision": "go"}))
    corpus = load(root)
    assert [i.path for i in corpus.instances] == ["fixtures/things/named.json"]
    assert corpus.checked()["instances"] == 1
    result = CliRunner().invoke(cli, ["--root", str(root), "check", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert ", 1 instance, " in result.output


def test_a_value_of_the_wrong_type_is_reported_at_its_line_and_column(findings) -> None:
    bad = {"name": 5, "decision": "go"}
    found = only_instances(findings(lambda files: things(files, wrong=bad)))
    assert [(d.rule, d.path, d.line, d.col, d.severity.value) for d in found] == [
        ("instance-invalid", "fixtures/things/wrong.json", line_of(bad, '"name"'), 11, "error")
    ]
    assert found[0].message == (
        "does not validate against schemas/thing.schema.json: `type` at $.name: 5 is not of type 'string'"
    )
    assert FIXTURES in found[0].hint


def test_a_missing_required_member_is_reported_at_the_object(findings) -> None:
    found = only_instances(findings(lambda files: things(files, unnamed={"decision": "go"})))
    assert [(d.rule, d.path, d.line, d.col) for d in found] == [
        ("instance-invalid", "fixtures/things/unnamed.json", 1, 1)
    ]
    assert "`required` at $: 'name' is a required property" in found[0].message


def test_every_file_the_glob_matches_is_validated(findings) -> None:
    def edit(files: Files) -> None:
        things(files, good={"name": "x"}, bad={"name": ""})
        files["fixtures/things/deeper/skipped.json"] = {"name": 1}  # `*` stays within its folder
        files["fixtures/things/notes.txt"] = "not JSON, not matched"

    assert hits(only_instances(findings(edit)), "instance-invalid") == [("fixtures/things/bad.json", 2)]


def test_a_double_star_crosses_folders(findings) -> None:
    def edit(files: Files) -> None:
        instances(files, 'files = "fixtures/**/*.json", schema = "thing.schema.json"')
        files["fixtures/a.json"] = {"name": "x"}
        files["fixtures/b/c/d.json"] = {"name": 1}

    assert hits(only_instances(findings(edit)), "instance-invalid") == [("fixtures/b/c/d.json", 2)]


def test_a_pointer_names_the_subschema_to_validate_against(findings) -> None:
    def edit(files: Files) -> None:
        instances(files, 'files = "fixtures/names/*.json", schema = "thing.schema.json#/$defs/name"')
        files["fixtures/names/ok.json"] = '"a name"\n'
        files["fixtures/names/empty.json"] = '""\n'

    found = only_instances(findings(edit))
    assert [(d.rule, d.path, d.line) for d in found] == [("instance-invalid", "fixtures/names/empty.json", 1)]
    assert found[0].message.startswith("does not validate against schemas/thing.schema.json#/$defs/name: `minLength`")


def test_one_file_may_be_checked_against_two_schemas(findings) -> None:
    def edit(files: Files) -> None:
        instances(
            files,
            'files = "fixtures/both.json", schema = "thing.schema.json"',
            'files = "fixtures/both.json", schema = "decision.schema.json"',
        )
        files["fixtures/both.json"] = {"name": "x"}

    found = only_instances(findings(edit))
    assert {d.message.split(":")[0] for d in found} == {"does not validate against schemas/decision.schema.json"}


def test_every_failure_of_a_file_is_a_finding_at_its_own_line(findings) -> None:
    """One finding per failure, so a file wrong in several places is fixed in one pass, not one re-run each."""

    def edit(files: Files) -> None:
        instances(files, 'files = "fixtures/names.json", schema = "thing.schema.json#/$defs/names"')
        files["schemas/thing.schema.json"]["$defs"]["names"] = {"type": "array", "items": {"$ref": "#/$defs/name"}}
        files["fixtures/names.json"] = '[\n  "a",\n  "",\n  "b",\n  ""\n]\n'

    found = only_instances(findings(edit))
    assert [(d.line, d.message.split(": ", 1)[1]) for d in found] == [
        (3, "`minLength` at $[1]: '' should be non-empty"),
        (5, "`minLength` at $[3]: '' should be non-empty"),
    ]


def test_failures_past_the_limit_are_counted_in_the_last_finding(findings) -> None:
    def edit(files: Files) -> None:
        instances(files, 'files = "fixtures/names.json", schema = "thing.schema.json#/$defs/names"')
        files["schemas/thing.schema.json"]["$defs"]["names"] = {"type": "array", "items": {"$ref": "#/$defs/name"}}
        files["fixtures/names.json"] = "[" + ", ".join(['""'] * (MAX_ERRORS + 3)) + "]\n"

    found = only_instances(findings(edit))
    assert len(found) == MAX_ERRORS
    assert found[-1].message.endswith("(3 more failures of this value not reported)")
    assert not any("more failure" in d.message for d in found[:-1])


def test_malformed_json_is_reported_once_at_its_position(findings) -> None:
    found = only_instances(findings(lambda files: things(files, broken='{"name": "x",}')))
    assert [(d.rule, d.path, d.line, d.col) for d in found] == [
        ("instance-invalid-json", "fixtures/things/broken.json", 1, 14)
    ]


def test_a_file_that_is_also_an_example_is_read_and_reported_once(make_corpus: Callable[..., Path]) -> None:
    def edit(files: Files) -> None:
        instances(files, 'files = "schemas/examples/thing/valid/*.json", schema = "thing.schema.json"')
        files["schemas/examples/thing/valid/broken.json"] = '{"name": "x",}'

    corpus = load(make_corpus(edit))
    assert [(d.rule, d.path) for d in corpus.load_diagnostics] == [
        ("example-invalid-json", "schemas/examples/thing/valid/broken.json")
    ]
    [example] = [e for e in corpus.examples if e.path == "schemas/examples/thing/valid/named.json"]
    [instance] = corpus.instances
    assert instance.doc is example.doc  # one document, parsed once


def test_an_invalid_example_mapped_as_an_instance_fails_as_one(findings) -> None:
    def edit(files: Files) -> None:
        instances(files, 'files = "schemas/examples/thing/invalid/*.json", schema = "thing.schema.json"')

    found = only_instances(findings(edit))
    assert [(d.rule, d.path) for d in found] == [("instance-invalid", "schemas/examples/thing/invalid/empty-name.json")]


# --- what the setting names that the corpus lacks ------------------------------------------------


def test_a_glob_that_matches_nothing_is_a_warning_at_its_entry(findings) -> None:
    def edit(files: Files) -> None:
        instances(
            files,
            f'files = "{FIXTURES}", schema = "thing.schema.json"',
            'files = "fixture/things/*.json", schema = "thing.schema.json"',
        )
        files["fixtures/things/named.json"] = {"name": "x"}

    found = only_instances(findings(edit))
    assert [(d.rule, d.severity.value, d.path, d.line, d.col) for d in found] == [
        ("instance-unmatched", "warning", "pyproject.toml", FIRST_SETTING + 2, 5)
    ]
    assert "'fixture/things/*.json' matches no file" in found[0].message


def test_files_in_ignored_folders_are_never_matched(findings) -> None:
    def edit(files: Files) -> None:
        instances(files, 'files = "build/*.json", schema = "thing.schema.json"')
        files["build/generated.json"] = {"name": 1}

    assert [d.rule for d in only_instances(findings(edit))] == ["instance-unmatched"]


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        ("thng.schema.json", "names schemas/thng.schema.json, which does not exist"),
        ("thing.schema.json#/$defs/nome", "points at nothing: schemas/thing.schema.json has no /$defs/nome"),
        ("thing.schema.json#/title", "points at a str value in schemas/thing.schema.json, not at a schema"),
        ("../tests/test_things.py", None),  # leaves the schemas folder: refused with the settings
        ("examples/thing/valid/named.json", "which is not read as a schema"),
    ],
)
def test_a_schema_or_pointer_that_does_not_resolve_is_an_error_at_its_entry(
    make_corpus: Callable[..., Path], schema: str, reason: str | None
) -> None:
    root = make_corpus(
        lambda files: instances(files, f'files = "schemas/examples/thing/valid/*.json", schema = "{schema}"')
    )
    result = CliRunner().invoke(cli, ["--root", str(root), "check", "--format", "json", "--select", "instance-"])
    if reason is None:
        assert result.exit_code == 2 and "is not a path below the schemas folder" in result.output
        return
    assert result.exit_code == 1, result.output
    found = json.loads(result.output)["diagnostics"]
    assert [(d["rule"], d["path"], d["line"]) for d in found] == [
        ("instance-schema-unresolved", "pyproject.toml", FIRST_SETTING + 1)
    ]
    assert reason in found[0]["message"]


def test_a_schema_the_metaschema_rejects_is_reported_once_per_entry(findings) -> None:
    def edit(files: Files) -> None:
        things(files, one={"name": "x"}, two={"name": "y"})
        files["schemas/thing.schema.json"]["properties"]["name"] = {"type": "strng"}

    found = only_instances(findings(edit))
    assert [(d.rule, d.path, d.line) for d in found] == [("instance-unverifiable", "pyproject.toml", FIRST_SETTING + 1)]
    assert "none of the 2 files" in found[0].message


def test_a_settings_file_outside_the_root_is_named_by_its_path(make_corpus, tmp_path: Path) -> None:
    root = make_corpus()
    config = tmp_path / "settings" / "other.toml"
    config.parent.mkdir()
    config.write_text('[tool.wopgen]\ninstances = [{ files = "nowhere/*.json", schema = "thing.schema.json" }]\n')
    result = CliRunner().invoke(
        cli, ["--config", str(config), "--root", str(root), "check", "--format", "json", "--select", "instance-"]
    )
    found = json.loads(result.output)["diagnostics"]
    assert [(d["rule"], d["path"], d["line"], d["col"]) for d in found] == [
        ("instance-unmatched", config.resolve().as_posix(), 2, 16)
    ]


def test_annotations_keep_the_path_of_a_settings_file_outside_the_corpus(make_corpus, tmp_path: Path) -> None:
    """In a corpus below the top of its git work tree, corpus paths gain that folder for GitHub; the
    absolute path of a --config file kept elsewhere is left as it is."""
    root = make_corpus(lambda files: files.update({"fixtures/things/wrong.json": {"name": 5}}))
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    config = tmp_path / "other.toml"
    config.write_text(
        "[tool.wopgen]\ninstances = [\n"
        '  { files = "nowhere/*.json", schema = "thing.schema.json" },\n'
        f'  {{ files = "{FIXTURES}", schema = "thing.schema.json" }},\n'
        "]\n"
    )
    args = ["--config", str(config), "--root", str(root), "check", "--select", "instance-", "--format", "github"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, result.output
    assert f"file={config.resolve().as_posix()},line=3," in result.output
    assert "file=corpus/fixtures/things/wrong.json,line=2," in result.output


# --- reading the files as every corpus file is read ----------------------------------------------


def test_a_file_nested_too_deeply_is_invalid_json(findings) -> None:
    found = only_instances(findings(lambda files: things(files, deep="[" * 10_000 + "]" * 10_000)))
    assert [(d.rule, d.path) for d in found] == [("instance-invalid-json", "fixtures/things/deep.json")]


def test_a_file_over_the_size_limit_is_not_read(findings, monkeypatch) -> None:
    monkeypatch.setattr(importlib.import_module("wopgen.corpus.load"), "MAX_FILE_BYTES", 100)
    found = [
        d for d in findings(lambda files: things(files, large={"name": "x" * 200})) if d.path.startswith("fixtures")
    ]
    assert [(d.rule, d.path) for d in found] == [("corpus-unreadable", "fixtures/things/large.json")]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_link_out_of_the_root_is_not_read(make_corpus, tmp_path: Path) -> None:
    from support.helpers import diagnose

    root = make_corpus(lambda files: things(files, named={"name": "x"}))
    secret = tmp_path / "secret.json"
    secret.write_text('{"name": 1}')
    (root / "fixtures/things/link.json").symlink_to(secret)
    assert [(d.rule, d.path) for d in diagnose(root)] == [("corpus-outside-root", "fixtures/things/link.json")]


@pytest.mark.skipif(sys.platform != "linux", reason="needs file names that are not UTF-8")
def test_a_file_name_that_is_not_utf8_is_reported_not_read(findings) -> None:
    found = findings(lambda files: things(files, **{os.fsdecode(b"x\xff"): {"name": 1}}))
    assert [(d.rule, d.path) for d in found] == [("corpus-unreadable", "fixtures/things/x\\xff.json")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_reported_and_never_opened(make_corpus) -> None:
    root = make_corpus(lambda files: things(files))
    (root / "fixtures/things").mkdir(parents=True)
    os.mkfifo(root / "fixtures/things/pipe.json")
    done = subprocess.run(
        [sys.executable, "-m", "wopgen", "--root", str(root), "check", "--no-cache", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found = json.loads(done.stdout)["diagnostics"]
    assert [(d["rule"], d["path"]) for d in found] == [("corpus-unreadable", "fixtures/things/pipe.json")]


# --- selection and the summary --------------------------------------------------------------------


def test_select_and_ignore_take_the_instance_prefix(make_corpus: Callable[..., Path]) -> None:
    def edit(files: Files) -> None:
        things(files, wrong={"name": 5})
        del files["schemas/decision.schema.json"]["title"]  # a schema-title finding beside it

    root = make_corpus(edit)
    runner = CliRunner()

    def rules(*args: str) -> list[str]:
        result = runner.invoke(cli, ["--root", str(root), "check", "--no-cache", "--format", "json", *args])
        assert result.exit_code == 1, result.output
        return [d["rule"] for d in json.loads(result.output)["diagnostics"]]

    assert rules("--select", "instance-") == ["instance-invalid"]
    assert rules("--select", "instance") == ["instance-invalid"]
    assert rules("--select", "instance-invalid") == ["instance-invalid"]
    assert rules("--ignore", "instance-") == ["schema-title"]


def test_a_corpus_without_instances_reads_as_before(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    assert "instances" not in load(root).checked()
    result = CliRunner().invoke(cli, ["--root", str(root), "check", "--no-cache", "--format", "json"])
    assert "instances" not in json.loads(result.output)["checked"]


def test_no_command_writes_over_an_instance_file(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus(lambda files: things(files, named={"name": "x"}))
    fixture = root / "fixtures/things/named.json"
    before = fixture.read_bytes()
    # --url: no host is generated from this small corpus; the report is refused before any request
    args = ["--root", str(root), "conformance", "--url", "http://127.0.0.1:9", "--api-key", "k"]
    result = CliRunner().invoke(cli, [*args, "--report", str(fixture)])
    assert result.exit_code == 2 and "it is part of the corpus" in result.output, result.output
    assert fixture.read_bytes() == before

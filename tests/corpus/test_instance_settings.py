"""`[tool.wopgen] instances`: how the setting is read, and every malformed value a usage error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.corpus_factory import good_files, write
from wopgen.cli import cli
from wopgen.corpus.settings import InstanceSet, SettingsError, load_settings, setting_values


def settings_with(tmp_path: Path, text: str) -> Path:
    root = write(tmp_path / "corpus", good_files())
    (root / "pyproject.toml").write_text("[tool.wopgen]\n" + text, encoding="utf-8")
    return root


def test_the_default_is_no_instances(tmp_path: Path) -> None:
    assert load_settings(settings_with(tmp_path, "")).instances == ()


def test_entries_are_read_with_their_pointer_and_place(tmp_path: Path) -> None:
    root = settings_with(
        tmp_path,
        "instances = [\n"
        '  { files = "fixtures/*.json", schema = "thing.schema.json" },\n'
        '  { schema = "./thing.schema.json#/$defs/name", files = "names/**/*.json" },\n'
        "]\n",
    )
    settings = load_settings(root)
    assert settings.instances == (
        InstanceSet("fixtures/*.json", "thing.schema.json"),
        InstanceSet("names/**/*.json", "thing.schema.json", "/$defs/name"),
    )
    assert [(e.line, e.col) for e in settings.instances] == [(3, 5), (4, 49)]
    assert setting_values(settings)["instances"] == [
        {"files": "fixtures/*.json", "schema": "thing.schema.json"},
        {"files": "names/**/*.json", "schema": "thing.schema.json#/$defs/name"},
    ]


def test_the_array_of_tables_form_is_read_too(tmp_path: Path) -> None:
    root = settings_with(
        tmp_path,
        'id-base = "https://openwop.dev/spec/v1/"\n\n'
        "[[tool.wopgen.instances]]\n"
        'files = "a/*.json"\n'
        'schema = "thing.schema.json"\n\n'
        "[[tool.wopgen.instances]]\n"
        "files = 'b/*.json'\n"
        'schema = "decision.schema.json"\n',
    )
    settings = load_settings(root)
    assert [(e.files, e.schema, e.line) for e in settings.instances] == [
        ("a/*.json", "thing.schema.json", 5),
        ("b/*.json", "decision.schema.json", 9),
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('"fixtures/*.json"', "instances must be a list of tables"),
        ("{ files = 'a/*.json', schema = 'thing.schema.json' }", "instances must be a list of tables"),
        ('["fixtures/*.json"]', "instances[0] must be a table"),
        ('[{ files = "a/*.json", schema = "thing.schema.json", kind = "valid" }]', "unknown key 'kind' in"),
        ('[{ files = "a/*.json" }]', 'instances[0] needs schema = "..."'),
        ('[{ schema = "thing.schema.json" }]', 'instances[0] needs files = "..."'),
        ('[{ files = "", schema = "thing.schema.json" }]', 'instances[0] needs files = "..."'),
        ('[{ files = 3, schema = "thing.schema.json" }]', 'instances[0] needs files = "..."'),
        ('[{ files = "a/*.json", schema = ["thing.schema.json"] }]', 'instances[0] needs schema = "..."'),
        ('[{ files = "../elsewhere/*.json", schema = "thing.schema.json" }]', "leaves the corpus root"),
        ('[{ files = "fixtures/../../*.json", schema = "thing.schema.json" }]', "leaves the corpus root"),
        ('[{ files = "/etc/*.json", schema = "thing.schema.json" }]', "leaves the corpus root"),
        ('[{ files = "a/*.json", schema = "/srv/thing.schema.json" }]', "is not a path below the schemas folder"),
        ('[{ files = "a/*.json", schema = "../thing.schema.json" }]', "is not a path below the schemas folder"),
        ('[{ files = "a/*.json", schema = "#/$defs/name" }]', "is not a path below the schemas folder"),
        ('[{ files = "a/*.json", schema = "thing.schema.json#name" }]', "must be a JSON pointer"),
        ('[{ files = "a/*.json", schema = "thing.schema.json#/$defs/a~2b" }]', "must be a JSON pointer"),
    ],
)
def test_a_malformed_value_is_a_usage_error(tmp_path: Path, value: str, message: str) -> None:
    root = settings_with(tmp_path, f"instances = {value}\n")
    with pytest.raises(SettingsError, match="instances") as refused:
        load_settings(root)
    assert message in str(refused.value)
    result = CliRunner().invoke(cli, ["--root", str(root), "check"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_glob_through_a_link_out_of_the_root_is_a_usage_error(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.json").write_text("{}")
    root = settings_with(tmp_path, 'instances = [{ files = "linked/*.json", schema = "thing.schema.json" }]\n')
    (root / "linked").symlink_to(outside)
    result = CliRunner().invoke(cli, ["--root", str(root), "check"])
    assert result.exit_code == 2
    assert "files = 'linked/*.json' leaves the corpus root" in result.output


def test_config_documents_the_key(tmp_path: Path) -> None:
    text = CliRunner().invoke(cli, ["config"]).output
    assert "instances" in text and "list of tables, default []" in text
    markdown = CliRunner().invoke(cli, ["config", "--format", "markdown"]).output
    assert "| `instances` | list of tables | `[]` |" in markdown
    root = settings_with(tmp_path, 'instances = [{ files = "a/*.json", schema = "thing.schema.json#/$defs/name" }]\n')
    shown = CliRunner().invoke(cli, ["--root", str(root), "config", "--values"]).output
    assert "value here: [{'files': 'a/*.json', 'schema': 'thing.schema.json#/$defs/name'}]" in shown

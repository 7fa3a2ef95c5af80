"""Settings remember where each [tool.wopgen] key is written, so a finding about a setting points at it."""

from __future__ import annotations

from pathlib import Path

from wopgen.corpus.settings import TABLE, load_settings

PYPROJECT = """\
[project]
name = "x"
baseline = "not ours"

[tool.wopgen]
schemas = "schemas"
"id-base" = "https://example.org/v1/"
baseline   =   "v1"

[tool.wopgen.extra]
api = "nope"
"""


def test_each_key_and_the_table_header_have_their_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT.replace('\n[tool.wopgen.extra]\napi = "nope"\n', ""))
    settings = load_settings(tmp_path)
    assert settings.lines == {TABLE: 5, "schemas": 6, "id-base": 7, "baseline": 8}
    assert settings.line("baseline") == 8
    assert settings.line("api") == 5  # not written: the table header
    assert settings == load_settings(tmp_path)  # the lines take no part in equality


def test_keys_of_a_sub_table_are_not_taken_for_the_table_s_own(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT.replace("[tool.wopgen.extra]\n", "[tool.other]\n"))
    assert load_settings(tmp_path).line("api") == 5


def test_names_answers_for_the_keys_as_written(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT.replace('\n[tool.wopgen.extra]\napi = "nope"\n', ""))
    settings = load_settings(tmp_path)
    assert settings.names("id-base") and settings.names("schemas") and settings.names("baseline")
    assert not settings.names("api") and not settings.names("id_base")

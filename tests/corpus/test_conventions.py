"""Each convention setting of [tool.wopgen]: the default keeps today's strictness (a failing case),
the setting accepts the other corpus's convention (a passing case)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.corpus_factory import plain_json_names, rfc_text, schema
from support.helpers import hits
from wopgen.cli import cli
from wopgen.corpus.conventions import Conventions, default_text, looks_like_path
from wopgen.corpus.settings import SettingsError, load_settings, setting_values, settings_reference
from wopgen.diagnostics import Diagnostic

Files = dict[str, Any]
RFC = "spec/rfcs/0001-things.md"
PAGE = "spec/v1/overview.md"


def configure(files: Files, *lines: str) -> None:
    """Append keys to the [tool.wopgen] table of the corpus's pyproject.toml."""
    files["pyproject.toml"] += "\n".join(lines) + "\n"


def both(findings: Callable[..., list[Diagnostic]], change: Callable[[Files], None], *lines: str):
    """The findings without and with the settings `lines`, for the same corpus change."""

    def plain(files: Files) -> None:
        change(files)

    def configured(files: Files) -> None:
        change(files)
        configure(files, *lines)

    return findings(plain), findings(configured)


def test_direction_required_by_default_and_optional_when_configured(findings):
    def drop(files: Files) -> None:
        del files["schemas/decision.schema.json"]["x-wop-direction"]

    strict, relaxed = both(findings, drop, "direction-required = false")
    assert hits(strict, "schema-direction") == [("schemas/decision.schema.json", 1)]
    assert hits(relaxed, "schema-direction") == []


def test_direction_value_still_checked_when_optional(findings):
    def wrong(files: Files) -> None:
        files["schemas/decision.schema.json"]["x-wop-direction"] = "sideways"
        configure(files, "direction-required = false")

    assert hits(findings(wrong), "schema-direction") == [("schemas/decision.schema.json", 6)]


def test_direction_key_and_values(findings):
    def renamed(files: Files) -> None:
        for path, content in files.items():
            if path.endswith(".schema.json"):
                content["x-direction"] = content.pop("x-wop-direction")

    strict, configured = both(findings, renamed, 'direction-key = "x-direction"')
    assert len(hits(strict, "schema-direction")) == 4
    assert hits(configured, "schema-direction") == []

    def narrower(files: Files) -> None:
        configure(files, 'directions = ["client-sent", "host-emitted"]')

    assert hits(findings(narrower), "schema-direction") == [("schemas/decision.schema.json", 6)]


def _nested_schema(files: Files, body: dict[str, Any]) -> None:
    nested = schema("error", body)
    nested["$id"] = "https://openwop.dev/spec/v1/envelopes/error.schema.json"
    files["schemas/envelopes/error.schema.json"] = nested


def test_schemas_recursive_loads_sub_folders(findings):
    def broken(files: Files) -> None:
        _nested_schema(files, {"type": "object", "properties": {"code": {"type": "strin"}}})
        configure(files, "examples-required = []")

    plain, recursive = both(findings, broken, "schemas-recursive = true")
    assert [d for d in plain if d.path.startswith("schemas/envelopes/")] == []
    assert hits(recursive, "schema-metaschema") == [("schemas/envelopes/error.schema.json", 10)]


@pytest.mark.parametrize("recursive", [False, True])
def test_schema_suffix_reads_a_folder_of_plain_json_schemas(findings, recursive: bool):
    def plain(files: Files) -> None:
        plain_json_names(files, configured=False)
        if recursive:  # the examples below the schemas folder are `.json` too: never schemas
            configure(files, "schemas-recursive = true")

    unread, read = both(findings, plain, 'schema-suffix = ".json"')
    # without it no schema is read: every example folder names a schema that is not there
    assert {d.rule for d in unread if d.severity.value == "error"} == {"example-orphan"}
    assert [d for d in read if d.severity.value == "error"] == []
    assert not [d for d in read if d.path.startswith("schemas/examples/") and d.rule.startswith("schema-")]


def test_schema_suffix_leaves_instance_files_out_of_the_schemas(findings):
    def beside(files: Files) -> None:
        plain_json_names(files)
        files["schemas/fixture.json"] = '"go"\n'  # an instance, in the schemas folder, named as schemas are
        configure(files, 'instances = [{ files = "schemas/fixture.json", schema = "decision.json" }]')

    found = findings(beside)
    assert [d for d in found if d.path == "schemas/fixture.json"] == []


def test_schemas_recursive_id_is_base_plus_path_below_the_folder(findings):
    def good_nested(files: Files) -> None:
        _nested_schema(files, {"type": "object"})
        configure(files, "schemas-recursive = true", "examples-required = []")

    assert [d for d in findings(good_nested) if d.severity.value == "error"] == []

    def flat_id(files: Files) -> None:
        good_nested(files)
        files["schemas/envelopes/error.schema.json"]["$id"] = "https://openwop.dev/spec/v1/error.schema.json"

    assert hits(findings(flat_id), "schema-id") == [("schemas/envelopes/error.schema.json", 3)]


def test_schemas_recursive_examples_folder_keeps_the_sub_folder(findings):
    def nested_examples(files: Files) -> None:
        _nested_schema(files, {"type": "object", "required": ["code"]})
        files["schemas/examples/envelopes/error/valid/coded.json"] = {"code": "x"}
        files["schemas/examples/envelopes/error/invalid/no-code.json"] = {}
        configure(files, "schemas-recursive = true")

    found = findings(nested_examples)
    assert [d for d in found if d.rule.startswith("example-")] == []

    def wrong(files: Files) -> None:
        nested_examples(files)
        files["schemas/examples/envelopes/error/invalid/no-code.json"] = {"code": "y"}

    assert hits(findings(wrong), "example-invalid-passes") == [
        ("schemas/examples/envelopes/error/invalid/no-code.json", 1)
    ]


def test_examples_required(findings):
    def valid_only(files: Files) -> None:
        del files["schemas/examples/decision/invalid/maybe.json"]

    strict, relaxed = both(findings, valid_only, 'examples-required = ["valid"]')
    assert hits(strict, "example-missing") == [("schemas/decision.schema.json", 1)]
    assert hits(relaxed, "example-missing") == []


def _per_def(files: Files) -> None:
    for path in [p for p in files if p.startswith("schemas/examples/")]:
        del files[path]
    files["schemas/schema.json"] = schema(
        "schema",
        {
            "$defs": {
                "Name": {"type": "string", "minLength": 1},
                "Count": {"type": "integer", "minimum": 0},
            }
        },
    )
    files["schemas/schema.json"]["$id"] = "https://openwop.dev/spec/v1/schema.json"
    files["schemas/examples/Name/short.json"] = '"x"\n'
    files["schemas/examples/Count/invalid/negative.json"] = "-1\n"
    files["schemas/examples/Count/zero.json"] = "0\n"
    configure(
        files,
        'examples-layout = "per-def"',
        'examples-schema = "schema.json"',
        'examples-required = ["valid"]',
        "schemas-recursive = true",
    )


def test_examples_per_def_layout_passes(findings):
    found = findings(_per_def)
    assert [d.rule for d in found if d.rule.startswith("example-")] == []


def test_examples_per_def_layout_validates_against_the_def(findings):
    def broken(files: Files) -> None:
        _per_def(files)
        files["schemas/examples/Name/empty.json"] = '""\n'
        files["schemas/examples/Count/invalid/fine.json"] = "3\n"
        files["schemas/examples/Nothing/x.json"] = "1\n"

    found = findings(broken)
    assert hits(found, "example-valid-fails") == [("schemas/examples/Name/empty.json", 1)]
    assert hits(found, "example-invalid-passes") == [("schemas/examples/Count/invalid/fine.json", 1)]
    assert hits(found, "example-orphan") == [("schemas/examples/Nothing/x.json", 1)]


def test_examples_schema_must_name_a_schema_with_defs(findings):
    def elsewhere(files: Files) -> None:
        _per_def(files)
        files["pyproject.toml"] = files["pyproject.toml"].replace(
            'examples-schema = "schema.json"', 'examples-schema = "other.json"'
        )

    assert hits(findings(elsewhere), "example-orphan") == [("schemas/examples", 1)]


def test_examples_per_def_requires_the_listed_kinds(findings):
    def both_kinds(files: Files) -> None:
        _per_def(files)
        configure(files)
        files["pyproject.toml"] = files["pyproject.toml"].replace(
            'examples-required = ["valid"]', 'examples-required = ["valid", "invalid"]'
        )

    assert hits(findings(both_kinds), "example-missing") == [("schemas/examples/Name", 1)]


def test_rfcs_enabled_false_reads_no_rfcs(findings):
    def broken_rfc(files: Files) -> None:
        files[RFC] = "# not an RFC\n"

    strict, off = both(findings, broken_rfc, "rfcs-enabled = false")
    assert hits(strict, "rfc-header-missing") == [(RFC, 1)]
    assert [d for d in off if d.rule.startswith("rfc-")] == []


def test_rfc_exclude_skips_a_template(findings):
    def template(files: Files) -> None:
        files["spec/rfcs/0000-template.md"] = rfc_text(number="NNNN", created="YYYY-MM-DD")

    strict, excluded = both(findings, template, 'rfc-exclude = ["README.md", "0000-template.md"]')
    assert hits(strict, "rfc-number") == [("spec/rfcs/0000-template.md", 5)]
    assert [d for d in excluded if d.path == "spec/rfcs/0000-template.md"] == []


def test_rfc_exclude_takes_globs(findings):
    def companion(files: Files) -> None:
        files["spec/rfcs/0001-things.gaps.md"] = "# Gaps of RFC 0001\n"

    strict, excluded = both(findings, companion, 'rfc-exclude = ["README.md", "*.gaps.md"]')
    assert hits(strict, "rfc-header-missing") == [("spec/rfcs/0001-things.gaps.md", 1)]
    assert [d for d in excluded if d.path.endswith(".gaps.md")] == []


def test_rfc_files_glob(findings):
    def notes(files: Files) -> None:
        files["spec/rfcs/notes.txt.md"] = "# Notes\n"

    strict, narrowed = both(findings, notes, 'rfc-files = "[0-9][0-9][0-9][0-9]-*.md"')
    assert hits(strict, "rfc-filename") == [("spec/rfcs/notes.txt.md", 1)]
    assert hits(narrowed, "rfc-filename") == []


def test_rfc_sections_match_by_prefix(findings):
    def suffixed(files: Files) -> None:
        files[RFC] = files[RFC].replace("## Proposal\n", "## Proposal — Phased\n")

    strict, prefix = both(findings, suffixed, 'rfc-section-match = "prefix"')
    assert hits(strict, "rfc-section-missing") == [(RFC, 1)]
    assert hits(prefix, "rfc-section-missing") == []

    def other_word(files: Files) -> None:
        files[RFC] = files[RFC].replace("## Proposal\n", "## Proposals\n")
        configure(files, 'rfc-section-match = "prefix"')

    assert hits(findings(other_word), "rfc-section-missing") == [(RFC, 1)]


def test_rfc_sections_list(findings):
    def fewer(files: Files) -> None:
        files[RFC] = files[RFC].replace("## Unresolved questions\n", "## Open points\n")

    strict, configured = both(findings, fewer, 'rfc-sections = ["Summary", "Proposal"]')
    assert hits(strict, "rfc-section-missing") == [(RFC, 1)]
    assert hits(configured, "rfc-section-missing") == []


def test_acceptance_section_found_by_prefix(findings):
    def phased(files: Files) -> None:
        files[RFC] = files[RFC].replace("## Acceptance criteria\n", "## Acceptance criteria (Phase 1)\n")
        files[RFC] = files[RFC].replace("- [x] Schema written.", "- [ ] Schema written.")
        configure(files, 'rfc-section-match = "prefix"')

    assert hits(findings(phased), "rfc-acceptance-open") == [(RFC, 46)]


def test_affects_path_like(findings):
    affects = "`agents.evalSuite` · `GET /v1/runs/{runId}` · `version >= 6` · `schemas/thing.schema.json`"

    def tokens(files: Files) -> None:
        files[RFC] = rfc_text(affects=affects)

    strict, path_like = both(findings, tokens, 'affects-paths = "path-like"')
    assert len(hits(strict, "rfc-affects-missing")) == 3
    assert hits(path_like, "rfc-affects-missing") == []

    def missing_path(files: Files) -> None:
        files[RFC] = rfc_text(affects="`schemas/gone.schema.json` · `RFCS.md`")
        configure(files, 'affects-paths = "path-like"')

    assert hits(findings(missing_path), "rfc-affects-missing") == [(RFC, 11), (RFC, 11)]


def test_affects_rfc_folder_shorthand(findings):
    def shorthand(files: Files, number: str) -> None:
        files[RFC] = rfc_text(affects=f"`spec/rfcs/{number}`")
        configure(files, 'affects-paths = "path-like"')

    assert hits(findings(lambda f: shorthand(f, "0001")), "rfc-affects-missing") == []
    assert hits(findings(lambda f: shorthand(f, "0037")), "rfc-affects-missing") == []  # external-rfcs
    assert hits(findings(lambda f: shorthand(f, "0042")), "rfc-affects-missing") == [(RFC, 11)]


@pytest.mark.parametrize(
    ("token", "path"),
    [
        ("schemas/x.schema.json", True),
        ("RFCS/0037", True),
        ("CHANGELOG.md", True),
        ("spec/v1/page.md#anchor", True),
        ("agents.evalSuite", False),
        ("GET /v1/runs/{runId}/eval-summary", False),
        ("/v1/runs", False),
        ("version >= 6", False),
    ],
)
def test_looks_like_path(token: str, path: bool) -> None:
    assert looks_like_path(token) is path


VERSIONED = "> **Status: Draft · v1.x · RFC 0001.** Normative.\n"


def test_banner_pattern(findings):
    def versioned(files: Files) -> None:
        files[PAGE] = "# Overview\n\n" + VERSIONED

    strict, configured = both(findings, versioned, r"banner-pattern = '^>\s*\*\*Status:\s*(?P<level>[A-Za-z]+)\b'")
    assert hits(strict, "doc-banner") == [(PAGE, 3)]
    assert "block quote is not a status banner" in next(d.message for d in strict if d.rule == "doc-banner")
    assert hits(configured, "doc-banner") == []


def test_banner_levels(findings):
    def final(files: Files) -> None:
        files[PAGE] = "# Overview\n\n> **Status: FINAL**\n"

    strict, configured = both(findings, final, 'banner-levels = ["FINAL", "Draft"]')
    assert hits(strict, "doc-banner") == [(PAGE, 3)]
    assert hits(configured, "doc-banner") == []


def test_external_paths(findings):
    def link(files: Files) -> None:
        files[PAGE] += "See [capabilities](capabilities.md).\n"

    strict, declared = both(findings, link, 'external-paths = ["spec/v1/capabilities.md"]')
    assert hits(strict, "doc-link-broken") == [(PAGE, 9)]
    assert hits(declared, "doc-link-broken") == []


def test_external_paths_excuse_a_missing_configured_part(findings):
    def api(files: Files) -> None:
        configure(files, 'api = "api"')

    strict, declared = both(findings, api, 'external-paths = ["api"]')
    assert hits(strict, "corpus-missing") == [("pyproject.toml", 8)]
    assert hits(declared, "corpus-missing") == []


def _other_corpus_inside(files: Files) -> None:
    """A second corpus's schemas in a sub-folder of the schemas folder (`$id`s under another base),
    one of them linked from a page."""
    other = schema("thing", {"type": "object", "$defs": {"unused": {"type": "string"}}})
    other["$id"] = "https://openwop.dev/spec/v2/thing.schema.json"
    files["schemas/v2/thing.schema.json"] = other
    files[PAGE] += "The next version: [thing](../../schemas/v2/thing.schema.json).\n"
    configure(files, "schemas-recursive = true", 'examples-required = ["valid"]')


def test_exclude_leaves_a_sub_folder_unread(findings):
    read, excluded = both(findings, _other_corpus_inside, 'exclude = ["schemas/v2"]')
    assert {d.rule for d in read if d.path == "schemas/v2/thing.schema.json"} >= {"schema-id", "example-missing"}
    assert [d for d in excluded if d.path.startswith("schemas/v2/")] == []
    assert hits(excluded, "doc-link-broken") == []  # the file is still there: a link to it resolves


def test_exclude_takes_globs_from_the_root(findings):
    def by_glob(files: Files) -> None:
        _other_corpus_inside(files)
        configure(files, 'exclude = ["schemas/*/thing.schema.json"]')

    assert [d for d in findings(by_glob) if d.path.startswith("schemas/v2/")] == []

    def by_name_only(files: Files) -> None:
        _other_corpus_inside(files)
        configure(files, 'exclude = ["thing.schema.json"]')  # relative to the root: names no file there

    assert hits(findings(by_name_only), "schema-id") == [("schemas/v2/thing.schema.json", 3)]


def test_exclude_applies_to_instances(findings):
    def fixtures(files: Files) -> None:
        files["fixtures/a.json"] = {"name": "a"}
        files["fixtures/other/b.json"] = {"provider": "b"}
        configure(files, 'instances = [{ files = "fixtures/**/*.json", schema = "thing.schema.json" }]')

    read, excluded = both(findings, fixtures, 'exclude = ["fixtures/other"]')
    assert set(hits(read, "instance-invalid")) == {("fixtures/other/b.json", 1)}  # each of its failures
    assert hits(excluded, "instance-invalid") == []

    def all_excluded(files: Files) -> None:
        fixtures(files)
        configure(files, 'exclude = ["fixtures"]')

    unmatched = [d for d in findings(all_excluded) if d.rule == "instance-unmatched"]
    assert [d.message.split(", so")[0] for d in unmatched] == [
        "[tool.wopgen] instances: files = 'fixtures/**/*.json' matches only files `exclude` names"
    ]


@pytest.mark.parametrize(
    "line",
    [
        "direction-required = 1",
        'examples-layout = "flat"',
        'examples-layout = "per-def"',
        'examples-required = ["maybe"]',
        "rfc-sections = 3",
        "banner-pattern = '(unclosed'",
        "banner-pattern = '^> Status'",
        'rfc-section-match = "fuzzy"',
        'exclude = ["../elsewhere"]',
        'exclude = ["/etc"]',
        'schema-suffix = "schema"',
        'schema-suffix = ".yaml"',
        'schema-suffix = "/x.json"',
    ],
)
def test_bad_convention_values_are_usage_errors(tmp_path: Path, line: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.wopgen]\n{line}\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=line.split(" ")[0]):
        load_settings(tmp_path)
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), "check"])
    assert result.exit_code == 2


def test_defaults_are_todays_conventions(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.wopgen]\n", encoding="utf-8")
    assert load_settings(tmp_path).conventions == Conventions()


def test_every_convention_is_documented() -> None:
    keys = {s.key for s in settings_reference()}
    assert {"direction-required", "examples-layout", "banner-pattern", "external-paths", "site-title"} <= keys
    result = CliRunner().invoke(cli, ["config", "--format", "markdown"])
    assert result.exit_code == 0
    for key in keys:
        assert f"`{key}`" in result.output


def test_every_documented_key_is_read_and_shown(tmp_path: Path) -> None:
    """One table per kind of key: each documented key is accepted in [tool.wopgen], `config --values`
    shows its value, and its documented default is what an empty table gives."""
    (tmp_path / "pyproject.toml").write_text("[tool.wopgen]\n", encoding="utf-8")
    defaults = setting_values(load_settings(tmp_path))
    documented = {s.key: s.default for s in settings_reference()}
    assert set(defaults) == set(documented)
    for key, value in defaults.items():
        assert documented[key] == default_text(tuple(value) if isinstance(value, list) else value), key
    for key in documented:
        text = f"[tool.wopgen]\n{key} = 1\n"  # the wrong type for every key: refused by name, not as unknown
        (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
        with pytest.raises(SettingsError) as refused:
            load_settings(tmp_path)
        table, _, name = key.rpartition(".")  # `rules.select` is `select` of [tool.wopgen.rules]
        named = f"[tool.wopgen.{table}] {name}" if table else key
        assert "unknown" not in str(refused.value) and named in str(refused.value), key


def test_config_file_replaces_pyproject(make_corpus, tmp_path: Path) -> None:
    root = make_corpus(lambda files: files["schemas/decision.schema.json"].pop("x-wop-direction"))
    config = tmp_path / "other.toml"
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    config.write_text(text.split("[tool.wopgen]", 1)[1].join(["[tool.wopgen]", "direction-required = false\n"]))
    runner = CliRunner()
    assert runner.invoke(cli, ["--root", str(root), "check"]).exit_code == 1
    result = runner.invoke(cli, ["--config", str(config), "--root", str(root), "check"])
    assert result.exit_code == 0, result.output
    missing = runner.invoke(cli, ["--config", str(tmp_path / "nope.toml"), "--root", str(root), "check"])
    assert missing.exit_code == 2
    shown = runner.invoke(cli, ["--config", str(config), "--root", str(root), "config", "--values"])
    assert "value here: False" in shown.output

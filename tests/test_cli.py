from __future__ import annotations

import json
import re

from click.testing import CliRunner

from wopgen.cli import cli


def run(*args, cwd=None):
    runner = CliRunner()
    return runner.invoke(cli, list(args), catch_exceptions=False)


def test_clean_corpus_exits_zero(make_corpus):
    root = make_corpus()
    result = run("--root", str(root), "check")
    assert result.exit_code == 0, result.output
    assert "no problems found" in result.output


def test_findings_exit_one_and_are_grouped_by_file(make_corpus):
    def edit(files):
        del files["schemas/thing.schema.json"]["title"]

    result = run("--root", str(make_corpus(edit)), "check")
    assert result.exit_code == 1
    assert "schemas/thing.schema.json\n" in result.output
    assert "[schema-title]" in result.output and "1 error, 0 warnings" in result.output


def test_select_and_ignore_by_id_or_prefix(make_corpus):
    def edit(files):
        del files["schemas/thing.schema.json"]["title"]

    root = str(make_corpus(edit))
    assert run("--root", root, "check", "--ignore", "schema-title").exit_code == 0
    assert run("--root", root, "check", "--select", "rfc-").exit_code == 0
    assert run("--root", root, "check", "--select", "schema").exit_code == 1


def test_warnings_fail_only_when_asked(make_corpus):
    def edit(files):
        files["schemas/thing.schema.json"]["$defs"]["spare"] = {"type": "string"}

    root = str(make_corpus(edit))
    assert run("--root", root, "check").exit_code == 0
    assert run("--root", root, "check", "--fail-on", "warning").exit_code == 1


def test_json_format_shape(make_corpus):
    def edit(files):
        del files["schemas/thing.schema.json"]["title"]

    result = run("--root", str(make_corpus(edit)), "check", "--format", "json")
    doc = json.loads(result.output)
    assert doc["version"] == 1 and doc["summary"]["error"] == 1
    assert doc["diagnostics"][0]["rule"] == "schema-title"
    assert set(doc["diagnostics"][0]) == {"rule", "severity", "path", "line", "col", "message", "hint"}


def test_github_format(make_corpus):
    def edit(files):
        del files["schemas/thing.schema.json"]["title"]

    result = run("--root", str(make_corpus(edit)), "check", "--format", "github")
    assert re.match(r"^::error file=schemas/thing.schema.json,line=\d+,col=\d+,title=schema-title::", result.output)


def test_sarif_format(make_corpus):
    def edit(files):
        del files["schemas/thing.schema.json"]["title"]

    doc = json.loads(run("--root", str(make_corpus(edit)), "check", "--format", "sarif").output)
    assert doc["version"] == "2.1.0"
    result = doc["runs"][0]["results"][0]
    assert result["ruleId"] == "schema-title" and result["level"] == "error"
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == "schema-title"


def test_missing_settings_is_a_usage_error(tmp_path):
    result = run("--root", str(tmp_path), "check")
    assert result.exit_code == 2 and "[tool.wopgen]" in result.output


def test_unknown_setting_is_a_usage_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.wopgen]\nschemaz = 'x'\n")
    result = run("--root", str(tmp_path), "check")
    assert result.exit_code == 2 and "schemaz" in result.output


def test_root_is_found_by_walking_up(make_corpus, monkeypatch):
    root = make_corpus()
    monkeypatch.chdir(root / "spec" / "v1")
    assert run("check").exit_code == 0


def test_rules_lists_the_catalogue():
    result = run("rules")
    assert result.exit_code == 0
    assert re.search(r"^schema-ref-unresolved\s+error\s+", result.output, re.M)
    doc = json.loads(run("rules", "--format", "json").output)
    assert {"id", "severity", "summary"} <= set(doc[0])


def test_rfc_new_and_list(make_corpus):
    root = make_corpus()
    result = run("--root", str(root), "rfc", "new", "Verification gates and findings", "--author", "Q (@q)")
    assert result.exit_code == 0
    # external RFC 0037 is the highest known number, so the next is 0038
    assert result.output.strip() == "spec/rfcs/0038-verification-gates-and-findings.md"
    text = (root / result.output.strip()).read_text()
    assert "| **Status** | `Draft` |" in text and "| **Author(s)** | Q (@q) |" in text
    listing = run("--root", str(root), "rfc", "list").output
    assert "0038  Draft" in listing and "Verification gates and findings" in listing
    # the new RFC passes the RFC rules except Affects, which it asks the author to fill
    check = json.loads(run("--root", str(root), "check", "--format", "json").output)
    assert [d["rule"] for d in check["diagnostics"]] == []


def test_rfc_new_refuses_what_it_cannot_write_and_leaves_nothing(make_corpus, tmp_path):
    root = make_corpus()
    rfcs = root / "spec/rfcs"
    before = sorted(p.name for p in rfcs.iterdir())
    for title in ("two\nlines", "not \udcff UTF-8"):  # the shell passes undecodable bytes as surrogates
        result = run("--root", str(root), "rfc", "new", title)
        assert result.exit_code == 2 and "one line of UTF-8 text" in result.output
    (rfcs / "0038-hello.md").symlink_to(tmp_path / "outside.md")  # a link where the new RFC would go
    result = run("--root", str(root), "rfc", "new", "Hello")
    assert result.exit_code == 2 and "already has 0038-hello.md" in result.output
    assert not (tmp_path / "outside.md").exists()
    (rfcs / "0038-hello.md").unlink()
    assert sorted(p.name for p in rfcs.iterdir()) == before
    long = run("--root", str(root), "rfc", "new", "y" * 5000)  # a file name the file system would refuse
    assert long.exit_code == 0 and long.output.strip() == "spec/rfcs/0038-" + "y" * 60 + ".md"


def test_rfc_new_and_list_refuse_a_corpus_without_rfcs(make_corpus):
    def edit(files):
        files["pyproject.toml"] += "rfcs-enabled = false\n"

    root = make_corpus(edit)
    before = sorted(p.name for p in (root / "spec/rfcs").iterdir())
    for command in (["rfc", "new", "Hello"], ["rfc", "list"]):
        result = run("--root", str(root), *command)
        assert result.exit_code == 2, result.output
        assert "pyproject.toml:8: RFCs are disabled in this corpus (rfcs-enabled = false)" in result.output
    assert sorted(p.name for p in (root / "spec/rfcs").iterdir()) == before


def test_findings_about_settings_name_the_config_file_they_come_from(make_corpus, tmp_path):
    """With --config, a setting that names no folder, the empty corpus and an unknown rule id point at
    that file and its line, not at a pyproject.toml that may not exist."""
    root = make_corpus()
    config = root / "ci.toml"
    config.write_text('[tool.wopgen]\nschemas = "nothere"\nrfcs = "gone"\ndocs = "none"\n')
    result = run("--config", str(config), "--root", str(root), "check", "--format", "json", "--select", "corpus-")
    found = {(d["rule"], d["path"], d["line"]) for d in json.loads(result.output)["diagnostics"]}
    assert found == {
        ("corpus-empty", "ci.toml", 2),
        ("corpus-missing", "ci.toml", 2),
        ("corpus-missing", "ci.toml", 3),
        ("corpus-missing", "ci.toml", 4),
    }
    config.write_text('[tool.wopgen]\nschemas = "schemas"\n\n[tool.wopgen.rules]\nignore = ["no-such-rule"]\n')
    result = run("--config", str(config), "--root", str(root), "check")
    assert result.exit_code == 2
    assert "ci.toml:4: [tool.wopgen.rules] names no rule 'no-such-rule'" in result.output

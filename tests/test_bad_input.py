"""Bad input is a diagnostic, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

THING = "schemas/thing.schema.json"
VALID = "schemas/examples/thing/valid/named.json"


def rules_at(found, path):
    return [d.rule for d in found if d.path == path]


def test_byte_order_mark(findings):
    def edit(files):
        files[VALID] = b'\xef\xbb\xbf{"name": "x"}'

    found = findings(edit)
    assert rules_at(found, VALID) == ["example-invalid-json"]
    assert "byte-order mark" in next(d.message for d in found if d.path == VALID)


def test_invalid_utf8_reports_line_and_column(findings):
    def edit(files):
        files[THING] = b'{\n  "title": "caf\xe9"\n}'

    found = [d for d in findings(edit) if d.path == THING]
    assert [(d.rule, d.line, d.col) for d in found] == [("schema-invalid-json", 2, 16)]


def test_invalid_utf8_in_markdown(findings):
    def edit(files):
        files["spec/v1/broken.md"] = b"# Broken\n\n\xff\xfe\n"

    found = [d for d in findings(edit) if d.path == "spec/v1/broken.md"]
    assert [(d.rule, d.line) for d in found] == [("corpus-unreadable", 3)]


def test_a_number_out_of_range_is_a_parse_error_at_its_place(findings):
    """1e400 would be read as infinity, which no JSON or YAML writer gives back as a number."""

    def edit(files):
        files[THING] = '{\n  "x-wop-note": 1e400,\n  "title": "Thing"\n}'
        files[VALID] = '{"name": "1e400",\n "size": -1E+400}'

    found = [d for d in findings(edit) if d.path in (THING, VALID)]
    assert [(d.path, d.rule, d.line, d.col) for d in found] == [
        (VALID, "example-invalid-json", 2, 10),
        (THING, "schema-invalid-json", 2, 17),
    ]
    assert found[1].message == "invalid JSON: the number 1e400 is out of range (it would be read as infinity)"


def test_ten_thousand_deep_nesting(findings):
    deep = "[" * 10_000 + "]" * 10_000

    def edit(files):
        files[VALID] = deep
        files[THING] = '{"title": ' + deep + "}"

    found = findings(edit)
    assert "example-invalid-json" in rules_at(found, VALID)
    assert "schema-invalid-json" in rules_at(found, THING)


def test_deep_but_parseable_schema_does_not_crash(findings):
    nested: dict = {"type": "object"}
    for _ in range(300):
        nested = {"type": "object", "properties": {"x": nested}}

    def edit(files):
        files["schemas/deep.schema.json"] = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://openwop.dev/spec/v1/deep.schema.json",
            "title": "Deep",
            "x-wop-direction": "artifact",
            **nested,
        }

    findings(edit)  # must not raise


# Linux file names are bytes; macOS and Windows refuse a name that is not Unicode.
bytes_names = pytest.mark.skipif(sys.platform != "linux", reason="needs file names that are not UTF-8")


@bytes_names
def test_a_file_name_that_is_not_utf8(findings):
    """Such a name in a part of the corpus is reported as a printable name, elsewhere it is left out."""

    def edit(files):
        files[os.fsdecode(b"schemas/x\xff.schema.json")] = "{}"
        files[os.fsdecode(b"spec/v1/\xfe/page.md")] = "# Page\n"
        files[os.fsdecode(b"notes-\xff.txt")] = ""

    found = findings(edit)
    assert sorted((d.rule, d.path, d.message) for d in found) == [
        ("corpus-unreadable", "schemas/x\\xff.schema.json", "the file name is not valid UTF-8; not read"),
        ("corpus-unreadable", "spec/v1/\\xfe/page.md", "the file name is not valid UTF-8; not read"),
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_reported_and_never_opened(make_corpus):
    """Reading a pipe would wait for a writer for ever: `check` runs apart, so a hang fails the test."""
    root = make_corpus()
    pipes = ["CHANGELOG.md", "schemas/examples/thing/valid/pipe.json", "schemas/pipe.schema.json", "spec/v1/notes.md"]
    for relative in pipes:
        (root / relative).unlink(missing_ok=True)
        os.mkfifo(root / relative)
    done = subprocess.run(
        [sys.executable, "-m", "wopgen", "--root", str(root), "check", "--select", "corpus-", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    found = json.loads(done.stdout)["diagnostics"]
    assert [(d["rule"], d["path"]) for d in found] == [("corpus-unreadable", path) for path in pipes]
    assert all(d["message"].startswith("not a regular file") for d in found)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlink_leaving_the_root(make_corpus, tmp_path):
    from support.helpers import diagnose

    root = make_corpus()
    secret = tmp_path / "secret.json"
    secret.write_text('{"name": "outside"}')
    (root / "schemas/examples/thing/valid/link.json").symlink_to(secret)
    found = diagnose(root)
    assert [(d.rule, d.path) for d in found] == [("corpus-outside-root", "schemas/examples/thing/valid/link.json")]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_part_reached_through_a_link_to_a_folder_is_a_finding(make_corpus, tmp_path):
    """The walk does not enter links to folders, so a linked pages folder checked no page and passed."""
    from support.helpers import diagnose

    root = make_corpus()
    (root / "spec/v1").rename(root / "pages")
    (root / "pages/broken.md").write_text("no banner, a [dead link](nowhere.md)\n")
    (root / "spec/v1").symlink_to("../pages")
    assert [(d.rule, d.path) for d in diagnose(root)] == [("corpus-unreadable", "spec/v1")]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_link_to_a_folder_below_a_recursive_part_is_a_finding(make_corpus, tmp_path):
    from support.helpers import diagnose

    root = make_corpus()
    (root / "more").mkdir()
    (root / "more/page.md").write_text("# Page\n")
    (tmp_path / "outside/deep").mkdir(parents=True)
    (tmp_path / "outside/deep/far.md").write_text("# Far\n")
    (root / "spec/v1/more").symlink_to("../../more")
    (root / "spec/v1/far").symlink_to(tmp_path / "outside")
    # A link to a folder holding nothing the part reads (images), or one named like a folder the walk
    # never enters, leaves nothing out either.
    (tmp_path / "img").mkdir()
    (tmp_path / "img/logo.png").write_bytes(b"\x89PNG")
    (root / "spec/v1/img").symlink_to(tmp_path / "img")
    (root / "spec/v1/node_modules").symlink_to("../../more")
    # A loop, or a second name for a folder already read, leaves nothing out.
    (root / "spec/v1/self").symlink_to(".")
    (root / "schemas/examples/thing/valid/up").symlink_to("..")
    (root / "spec/v1/loop-a").symlink_to("loop-b")  # links that lead nowhere are no folders
    (root / "spec/v1/loop-b").symlink_to("loop-a")
    assert sorted((d.rule, d.path) for d in diagnose(root)) == [
        ("corpus-outside-root", "spec/v1/far"),
        ("corpus-unreadable", "spec/v1/more"),
    ]


def test_malformed_yaml_and_non_mapping_invariants(findings):
    def edit(files):
        files["spec/security/invariants.yaml"] = "- just\n- a list\n"

    found = findings(edit)
    assert [d.rule for d in found] == ["invariant-shape"]


def test_schema_that_is_not_an_object(findings):
    def edit(files):
        files[THING] = "[1, 2]"
        del files["schemas/examples/thing/valid/named.json"]
        del files["schemas/examples/thing/invalid/empty-name.json"]

    found = findings(edit)
    assert "schema-metaschema" in rules_at(found, THING)


def test_a_folder_named_like_a_file_a_part_reads_is_a_finding(make_corpus):
    """`x.schema.json/` or `page.md/` was skipped without a word: only files are read."""
    from support.helpers import diagnose

    root = make_corpus()
    (root / "schemas/odd.schema.json").mkdir()
    (root / "spec/v1/odd.md").mkdir()
    (root / "schemas/examples/thing/valid/nested.json").mkdir()  # examples are read by folder: not reported
    found = [(d.rule, d.path) for d in diagnose(root) if d.rule == "corpus-unreadable"]
    assert found == [("corpus-unreadable", "schemas/odd.schema.json"), ("corpus-unreadable", "spec/v1/odd.md")]

from __future__ import annotations

import pytest

from wopgen.generate.writer import MANIFEST, WriteError, drift, file_refusal, read_manifest, write_file, write_tree


def test_write_then_no_drift(tmp_path):
    out = tmp_path / "build" / "models"
    files = {"a.py": "x = 1\n", "pkg/b.txt": "b\n", "bin.dat": b"\x00\x01"}
    write_tree(files, out)
    assert (out / "pkg/b.txt").read_text() == "b\n"
    assert drift(files, out).clean


def test_drift_reports_missing_extra_and_changed(tmp_path):
    out = tmp_path / "out"
    write_tree({"a.py": "x = 1\n", "old.py": "gone\n"}, out)
    report = drift({"a.py": "x = 2\n", "new.py": "n\n"}, out)
    assert report.missing == ["new.py"] and report.extra == ["old.py"]
    assert "-x = 1" in report.changed["a.py"] and "+x = 2" in report.changed["a.py"]
    assert not report.clean


def test_rewrite_replaces_every_file_it_wrote(tmp_path):
    out = tmp_path / "out"
    write_tree({"a": "1", "b": "2"}, out)
    write_tree({"a": "3"}, out)
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "a"]


def test_a_failed_write_leaves_the_previous_tree_untouched(tmp_path):
    out = tmp_path / "out"
    write_tree({"keep.txt": "keep\n"}, out)
    with pytest.raises(WriteError):
        write_tree({"ok.txt": "x", "../escape.txt": "y"}, out)
    assert (out / "keep.txt").read_text() == "keep\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_write_file_replaces_the_file_a_symlink_points_at_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old\n")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_file("new\n", link)
    assert link.is_symlink() and real.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_write_file_into_a_missing_folder_is_a_write_error(tmp_path):
    with pytest.raises(WriteError, match="cannot write"):
        write_file("x", tmp_path / "missing" / "report.json")
    assert list(tmp_path.iterdir()) == []


def test_file_refusal_sees_a_corpus_folder_however_it_is_spelt(tmp_path):
    schemas = tmp_path / "corpus" / "schemas"
    schemas.mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    assert file_refusal(tmp_path / "elsewhere" / ".." / "corpus" / "schemas" / "a.json", [schemas])
    assert file_refusal(tmp_path / "corpus" / "report.json", [schemas]) is None


def test_any_failure_while_writing_leaves_no_staging_folder(tmp_path):
    out = tmp_path / "out"
    write_tree({"keep.txt": "keep\n"}, out)
    with pytest.raises(UnicodeEncodeError):  # not an OSError: a generator's own mistake
        write_tree({"a.txt": "fine", "b.txt": "\udcff"}, out)
    assert (out / "keep.txt").read_text() == "keep\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def _listing(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


def test_force_never_overwrites_a_foreign_file_with_a_generated_one(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("my hand-written page")
    (out / "notes.txt").write_text("notes")
    before = _listing(out)
    with pytest.raises(WriteError, match=r"1 file in it that wopgen did not write .*: index\.html; move it out"):
        write_tree({"index.html": "generated", "about.html": "generated"}, out, force=True)
    assert _listing(out) == before  # nothing written, not even the files that clash with nothing
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # and no staging folder left


def test_a_foreign_folder_or_link_of_a_generated_name_is_refused_too(tmp_path):
    out = tmp_path / "api"
    (out / "openapi.yaml").mkdir(parents=True)
    (out / "openapi.yaml/draft.yaml").write_text("mine")
    (out / "asyncapi.yaml").symlink_to("openapi.yaml/draft.yaml")
    with pytest.raises(WriteError, match=r"2 files .*: asyncapi\.yaml, openapi\.yaml; move them out"):
        write_tree({"openapi.yaml": "a", "asyncapi.yaml": "b"}, out, force=True)
    assert (out / "openapi.yaml/draft.yaml").read_text() == "mine" and (out / "asyncapi.yaml").is_symlink()


def test_a_foreign_file_added_to_an_output_is_not_overwritten_by_a_new_generated_one(tmp_path):
    out = tmp_path / "out"
    write_tree({"a.py": "1\n"}, out)
    (out / "b.py").write_text("hand\n")  # later, the corpus grows a file of that name
    with pytest.raises(WriteError, match=r"b\.py"):
        write_tree({"a.py": "2\n", "b.py": "generated\n"}, out)
    assert (out / "b.py").read_text() == "hand\n" and (out / "a.py").read_text() == "1\n"
    assert read_manifest(out) == {"a.py"}


def test_the_refusal_names_the_first_clashes_and_counts_them_all(tmp_path):
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    names = ["sub/f.txt", "a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "g.txt"]
    for name in names:
        (out / name).write_text("mine")
    with pytest.raises(WriteError) as refused:
        write_tree(dict.fromkeys([*names, "new.txt"], "generated"), out, force=True)
    message = str(refused.value)
    assert "7 files in it that wopgen did not write" in message
    assert ": a.txt, b.txt, c.txt, d.txt, e.txt and 2 more;" in message
    assert all((out / name).read_text() == "mine" for name in names) and not (out / "new.txt").exists()


def test_files_wopgen_wrote_are_still_replaced_beside_foreign_ones(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "CNAME").write_text("docs.example\n")
    write_tree({"index.html": "1", "pkg/a.py": "1"}, out, force=True)
    (out / "pkg/mine.py").write_text("hand\n")
    write_tree({"index.html": "2", "pkg/a.py": "2"}, out)  # its own files, by its manifest
    assert (out / "index.html").read_text() == "2" and (out / "pkg/a.py").read_text() == "2"
    assert (out / "CNAME").read_text() == "docs.example\n" and (out / "pkg/mine.py").read_text() == "hand\n"

from __future__ import annotations

import pytest

from wopgen.generate.writer import MANIFEST, WriteError, drift, file_refusal, write_file, write_tree


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

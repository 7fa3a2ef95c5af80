from __future__ import annotations

import pytest

from wopgen.generate.writer import MANIFEST, WriteError, drift, write_tree


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

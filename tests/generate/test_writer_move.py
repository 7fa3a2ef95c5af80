"""`move_tree` turns a built folder into the output: the same result as copying it with `write_tree`
(files, folders, modes, manifest, what is carried over and what is refused), without the copy."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from wopgen.generate import writer
from wopgen.generate.writer import MANIFEST, FolderFiles, WriteError, move_tree, read_manifest, write_tree

Setup = Callable[[Path], None]


def state(folder: Path) -> dict[str, tuple[str, bytes]]:
    """Every entry below `folder`: its kind and mode, and a file's bytes (the manifest's too)."""
    found: dict[str, tuple[str, bytes]] = {}
    for path in sorted(folder.rglob("*")):
        info = os.lstat(path)
        kind = "link" if path.is_symlink() else "dir" if path.is_dir() else "file"
        data = path.read_bytes() if kind == "file" else os.readlink(path).encode() if kind == "link" else b""
        found[path.relative_to(folder).as_posix()] = (f"{kind} {stat.S_IMODE(info.st_mode):o}", data)
    return found


def built(folder: Path) -> None:
    """A built site as mkdocs leaves it, with an empty folder the writer never writes."""
    for relative, text in {
        "index.html": "home",
        "assets/app.js": "js",
        "assets/deep/x.css": "css",
        "notes/index.html": "generated notes",
        "CNAME": "generated cname",
    }.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text)
    (folder / "empty/inner").mkdir(parents=True)


def nothing(out: Path) -> None:
    pass


def earlier_output(out: Path) -> None:
    write_tree({"index.html": "old home", "gone.html": "dropped", "assets/old.js": "old"}, out)
    (out / "assets/mine.txt").write_text("a file of mine beside the generated ones")
    (out / "extra").mkdir()
    (out / "extra/keep.md").write_text("kept")
    os.chmod(out / "extra", 0o750)
    (out / "link").symlink_to("extra/keep.md")


def foreign_folder(out: Path) -> None:
    """A folder wopgen did not write where the built site has a folder of the same name."""
    out.mkdir()
    (out / "notes").mkdir()  # merged with the generated folder
    (out / "notes/todo.md").write_text("mine")
    os.chmod(out / "notes", 0o700)


def foreign_files(out: Path) -> None:
    """Besides that folder, a file and a folder wopgen did not write where the built site has files
    of the same names: neither may be replaced."""
    foreign_folder(out)
    (out / "CNAME").write_text("mine")
    (out / "index.html").mkdir()
    (out / "index.html/x").write_text("x")


def both_ways(tmp_path: Path, setup: Setup, *, force: bool = False) -> tuple[object, object]:
    """What `write_tree` of the built folder's files and `move_tree` of it each leave (the outputs'
    states, or the refusal's message)."""
    results: list[object] = []
    for way in ("copy", "move"):
        root = tmp_path / way
        root.mkdir()
        out, folder = root / "out", root / "built"
        setup(out)
        folder.mkdir()
        built(folder)
        try:
            if way == "copy":
                write_tree(FolderFiles(folder), out, force=force)
            else:
                assert move_tree(folder, out, force=force) == 5
        except WriteError as exc:
            results.append(str(exc).replace(str(root), "ROOT"))
            continue
        results.append(state(out))
        assert sorted(p.name for p in root.iterdir() if p.name != "built") == ["out"]  # nothing left beside
    return results[0], results[1]


@pytest.mark.parametrize("setup", [nothing, earlier_output])
def test_moving_leaves_what_copying_leaves(tmp_path: Path, setup: Setup) -> None:
    copied, moved = both_ways(tmp_path, setup)
    assert isinstance(moved, dict) and moved == copied
    assert "empty" not in moved and "gone.html" not in moved
    assert read_manifest(tmp_path / "move/out") == {
        "index.html",
        "assets/app.js",
        "assets/deep/x.css",
        "notes/index.html",
        "CNAME",
    }
    if setup is earlier_output:
        assert moved["extra"][0] == "dir 750" and moved["link"] == ("link 777", b"extra/keep.md")
        assert moved["assets/mine.txt"][1].startswith(b"a file of mine")


def test_moving_beside_foreign_files_with_force_leaves_what_copying_leaves(tmp_path: Path) -> None:
    copied, moved = both_ways(tmp_path, foreign_folder, force=True)
    assert isinstance(moved, dict) and moved == copied
    assert moved["CNAME"][1] == b"generated cname" and moved["index.html"][1] == b"home"
    assert moved["notes/todo.md"][1] == b"mine" and moved["notes"][0] == "dir 700"


def test_force_never_moves_the_site_over_foreign_files_of_its_names(tmp_path: Path) -> None:
    """`--force` keeps the files beside the output: a file or folder of someone else's where a built
    file goes stops the run before anything is written, rather than being replaced."""
    copied, moved = both_ways(tmp_path, foreign_files, force=True)
    assert isinstance(moved, str) and moved == copied
    assert "2 files in it that wopgen did not write" in moved and ": CNAME, index.html;" in moved
    assert "choose another --out" in moved
    for way in ("copy", "move"):
        root = tmp_path / way
        assert sorted(p.name for p in root.iterdir()) == ["built", "out"]  # nothing left beside
        assert (root / "out/CNAME").read_text() == "mine" and (root / "out/index.html/x").read_text() == "x"
        assert not (root / "out" / MANIFEST).exists()
    assert (tmp_path / "move/built/index.html").read_text() == "home"  # the caller's folder, untouched


def test_moving_is_refused_where_copying_is(tmp_path: Path) -> None:
    copied, moved = both_ways(tmp_path, foreign_files)  # no manifest, no force
    assert isinstance(moved, str) and moved == copied and "no .wopgen-output" in moved
    assert (tmp_path / "move/built/index.html").read_text() == "home"  # the caller's folder, untouched


def test_a_foreign_file_where_the_site_has_a_folder_fails_and_changes_nothing(tmp_path: Path) -> None:
    def in_the_way(out: Path) -> None:
        out.mkdir()
        (out / "assets").write_text("a file where a folder goes")

    copied, moved = both_ways(tmp_path, in_the_way, force=True)
    assert isinstance(moved, str) and moved == copied and moved.endswith("File exists")
    assert (tmp_path / "move/out/assets").read_text() == "a file where a folder goes"


def test_a_link_where_the_site_has_a_folder_fails_and_writes_nothing_through_it(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "app.js").write_text("a file outside the output")

    def linked(out: Path) -> None:
        write_tree({"index.html": "old home"}, out)
        (out / "assets").symlink_to(elsewhere)

    copied, moved = both_ways(tmp_path, linked, force=True)
    assert isinstance(moved, str) and moved == copied and moved.endswith("File exists")
    assert sorted(p.name for p in elsewhere.iterdir()) == ["app.js"]
    assert (elsewhere / "app.js").read_text() == "a file outside the output"
    assert (tmp_path / "copy/out/index.html").read_text() == "old home"


def test_a_manifest_among_the_built_files_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "built"
    folder.mkdir()
    (folder / MANIFEST).write_text("forged")
    with pytest.raises(WriteError, match="must stay inside"):
        move_tree(folder, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_output_holding_the_corpus_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "corpus/built"
    folder.mkdir(parents=True)
    built(folder)
    with pytest.raises(WriteError, match="holds corpus files"):
        move_tree(folder, tmp_path / "corpus", protected=[tmp_path / "corpus/schemas"])


def test_a_folder_holding_a_link_or_on_another_disk_is_copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "built"
    folder.mkdir()
    built(folder)
    (tmp_path / "elsewhere.txt").write_text("linked")
    (folder / "linked.txt").symlink_to(tmp_path / "elsewhere.txt")
    assert move_tree(folder, tmp_path / "out") == 6
    assert not (tmp_path / "out/linked.txt").is_symlink() and (tmp_path / "out/linked.txt").read_text() == "linked"
    assert (folder / "index.html").exists()  # copied, not moved
    plain = tmp_path / "plain"
    plain.mkdir()
    built(plain)
    monkeypatch.setattr(writer, "_same_disk", lambda a, b: False)
    assert move_tree(plain, tmp_path / "out2") == 5
    assert (plain / "index.html").exists() and (tmp_path / "out2/index.html").read_text() == "home"

"""A seeded, bounded fuzzer: mutate a copy of a corpus and run every command on it.

Every run must end with exit 0, 1 or 2, print no traceback, finish before its deadline and write
nothing outside its `--out` folder. The budget is about a minute (WOPGEN_FUZZ_SECONDS for a longer
run); the figures are printed at the end (`pytest -s tests/test_fuzz.py`).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from support.api_corpus import api_files
from support.corpus_factory import write
from wopgen.cli import cli

BUDGET = float(os.environ.get("WOPGEN_FUZZ_SECONDS", "60"))
RUN_DEADLINE = 120  # seconds one command may take before it counts as a hang

Mutation = Callable[[Path, random.Random], None]


def _files(root: Path) -> list[Path]:
    """Every regular file below `root`, never following a link (the fuzzer plants link loops)."""
    return sorted(Path(d, name) for d, _, names in os.walk(root) for name in names if not Path(d, name).is_symlink())


def _pick(root: Path, rnd: random.Random, *suffixes: str) -> Path:
    return rnd.choice([p for p in _files(root) if p.name.endswith(suffixes)] or _files(root))


def _edit(path: Path, change: Callable[[bytes], bytes]) -> None:
    path.write_bytes(change(path.read_bytes()))


def truncate(root: Path, rnd: random.Random) -> None:
    _edit(_pick(root, rnd, ".json", ".yaml", ".md"), lambda b: b[: rnd.randrange(max(1, len(b)))])


def wrong_keyword_type(root: Path, rnd: random.Random) -> None:
    keyword = rnd.choice(['"type"', '"required"', '"properties"', '"enum"', '"minItems"', '"$ref"', '"items"'])
    value = rnd.choice(["5", "true", "null", '"x"', "[]", "{}", "-1"])

    def change(b: bytes) -> bytes:
        text = b.decode()
        at = text.find(keyword + ":")
        if at < 0:
            return b
        end = text.find("\n", at)
        line = text[at:end]
        return (text[:at] + keyword + ": " + value + ("," if line.rstrip().endswith(",") else "") + text[end:]).encode()

    _edit(_pick(root, rnd, ".schema.json"), change)


def deep_nesting(root: Path, rnd: random.Random) -> None:
    depth = rnd.choice([50, 300, 600, 950, 3000])
    deep = '{"allOf": [' * depth + '{"type": "string"}' + "]}" * depth
    _edit(_pick(root, rnd, ".json"), lambda b: b.replace(b"{", b'{"zz": ' + deep.encode() + b", ", 1))


def huge_number(root: Path, rnd: random.Random) -> None:
    number = rnd.choice([b"1e999", b"9" * 5000, b"-1e400", b"0.0000000000000000000000001", b"1" * 400])
    _edit(
        _pick(root, rnd, ".json"),
        lambda b: b.replace(b": 1", b": " + number, 1).replace(
            b'"minItems": ', b'"minItems": ' + number + b', "x": ', 1
        ),
    )


def nan(root: Path, rnd: random.Random) -> None:
    _edit(_pick(root, rnd, ".json"), lambda b: b.replace(b"{", b'{"n": NaN, ', 1))


def bom(root: Path, rnd: random.Random) -> None:
    _edit(_pick(root, rnd, ".json", ".yaml", ".md", ".toml"), lambda b: b"\xef\xbb\xbf" + b)


def utf16(root: Path, rnd: random.Random) -> None:
    _edit(_pick(root, rnd, ".json", ".yaml", ".md"), lambda b: b.decode("utf-8", "replace").encode("utf-16"))


def nul_byte(root: Path, rnd: random.Random) -> None:
    def change(b: bytes) -> bytes:
        at = rnd.randrange(max(1, len(b)))
        return b[:at] + b"\x00" + b[at:]

    _edit(_pick(root, rnd, ".json", ".yaml", ".md", ".toml"), change)


def duplicate_key(root: Path, rnd: random.Random) -> None:
    _edit(_pick(root, rnd, ".json"), lambda b: b.replace(b"{", b'{"type": "string", "type": "object", ', 1))
    _edit(_pick(root, rnd, ".yaml"), lambda b: b + b"\nrepeated: 1\nrepeated: 2\n")


def symlink_loop(root: Path, rnd: random.Random) -> None:
    folder = rnd.choice(["schemas", "spec/v1", "spec/rfcs", "spec/api", "schemas/examples/thing/valid"])
    target = root / folder
    links = {"loop-a.md": "loop-b.md", "loop-b.md": "loop-a.md", "up": "..", "self.schema.json": "self.schema.json"}
    for name, points_at in links.items():
        if target.is_dir() and not (target / name).is_symlink():
            (target / name).symlink_to(points_at)


def unreadable(root: Path, rnd: random.Random) -> None:
    _pick(root, rnd, ".json", ".yaml", ".md").chmod(0)


def odd_rfc_table(root: Path, rnd: random.Random) -> None:
    swaps = [
        (b"| **Status** |", b"| **Status** | | |"),
        (b"|---|---|", b"|---|"),
        (b"| **RFC** | 0001 |", b"| **RFC** | 99999999999999999999 |"),
        (b"Accepted", b"<script>"),
        (b"2026-05-01", b"2026-13-45"),
    ]
    old, new = rnd.choice(swaps)
    _edit(_pick(root, rnd, ".md"), lambda b: b.replace(old, new))


def yaml_bomb(root: Path, rnd: random.Random) -> None:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]" for n in range(1, 10)]
    odd = rnd.choice(["\n".join(lines), "d: 2026-13-45", "n: !!int abc", "? [a]\n: 1", "n: " + "7" * 5000])
    _edit(_pick(root, rnd, ".yaml"), lambda b: b + b"\n" + odd.encode() + b"\n")


MUTATIONS: tuple[Mutation, ...] = (
    truncate, wrong_keyword_type, deep_nesting, huge_number, nan, bom, utf16, nul_byte, duplicate_key,
    symlink_loop, unreadable, odd_rfc_table, yaml_bomb,
)  # fmt: skip


class Hang(Exception):
    pass


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def snapshot(folder: Path, skip: set[str]) -> dict[str, tuple[int, int]]:
    """Every path under `folder` but the output folders, with size and mtime (links not followed)."""
    out: dict[str, tuple[int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if d not in skip]
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            info = path.lstat()
            is_folder = name in dirnames  # a folder's own times change when an allowed child appears
            out[path.relative_to(folder).as_posix()] = (0, 0) if is_folder else (info.st_size, info.st_mtime_ns)
    return out


# Where a run may write: its --out folder, and build/ under the corpus root (the check cache).
OWN_FOLDERS = {"out", "build"}
FIGURES = {"mutations": 0, "runs": 0, "seconds": 0.0}
_START: list[float] = []
GENERATORS = (
    ("models", "--out", "{out}"),
    ("api", "--out", "{out}"),
    ("site", "build", "--out", "{out}"),
    ("host", "generate", "--out", "{out}"),
)


@seed(20261122)
@settings(
    max_examples=max(5, int(BUDGET)),  # a mutated corpus takes a second or more; the clock also stops it
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(st.lists(st.tuples(st.sampled_from(MUTATIONS), st.integers(0, 2**32)), min_size=1, max_size=3))
def test_every_command_survives_a_mutated_corpus(edits: list[tuple[Mutation, int]]) -> None:
    if not _START:
        _START.append(time.monotonic())
    if time.monotonic() - _START[0] > BUDGET:
        return  # the budget is spent; the remaining examples are no-ops
    work = Path(os.environ.get("TMPDIR", "/tmp")) / f"wopgen-fuzz-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    try:
        base = write(work / "base", api_files())
        root = write(work / "corpus", api_files())
        for mutation, number in edits:
            mutation(root, random.Random(number))
        FIGURES["mutations"] += 1
        number = FIGURES["mutations"]
        commands = [
            ("check",),
            ("check", "--format", "json"),
            ("compat", "--against", str(base)),
            *(
                tuple(a.format(out=str(work / "out")) for a in command)
                for command in (GENERATORS[number % len(GENERATORS)],)
            ),
        ]
        for command in commands:
            before = snapshot(work, OWN_FOLDERS)
            started = time.monotonic()
            with deadline(RUN_DEADLINE):
                result = CliRunner().invoke(cli, ["--root", str(root), *command])
            FIGURES["runs"] += 1
            FIGURES["seconds"] += time.monotonic() - started
            what = f"{[m.__name__ for m, _ in edits]} then wopgen {' '.join(command)}"
            assert not isinstance(result.exception, Hang), what
            assert result.exit_code in (0, 1, 2), f"{what}: exit {result.exit_code}\n{result.output[-3000:]}"
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise AssertionError(f"{what}: {result.exception!r}") from result.exception
            assert "Traceback" not in result.output, what
            assert snapshot(work, OWN_FOLDERS) == before, f"{what} wrote outside --out"
    finally:
        for path in _files(work) if work.exists() else []:
            path.chmod(0o644)
        shutil.rmtree(work, ignore_errors=True)


def test_fuzz_figures() -> None:
    """Prints what the fuzz run above did (run with -s to see it)."""
    if FIGURES["mutations"]:
        print(
            f"\nfuzz: {FIGURES['mutations']} mutated corpora, {FIGURES['runs']} runs, "
            f"{FIGURES['seconds']:.0f} s in commands, budget {BUDGET:.0f} s"
        )
        assert FIGURES["runs"] >= FIGURES["mutations"]

"""Build or preview the docs site: stage the rendered tree, run mkdocs on it, put the site in place.

The staging tree goes through the one writer into a private temporary folder. mkdocs builds it with
`--strict`, so a broken link, a missing anchor or any other warning fails the build. The built site
then replaces the output folder through the writer, so a failed build never leaves a half-written
one. The site is byte-identical for the same corpus: mkdocs takes its only date (the sitemap's
`lastmod` and the gzip header of `sitemap.xml.gz`) from SOURCE_DATE_EPOCH, which is set to the
newest date the corpus states.
"""

from __future__ import annotations

import calendar
import datetime as dt
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cached_property
from pathlib import Path

from wopgen.corpus import Corpus
from wopgen.diagnostics import Rule
from wopgen.generate import site
from wopgen.generate.writer import WriteError, clean_leftovers, prepare, scratch_beside, write_tree

PROGRESS_HOOK = Path(__file__).resolve().with_name("progress_hook.py")


class SiteBuildError(Exception):
    """mkdocs refused the site; the message is what mkdocs said."""


def mkdocs_env(corpus: Corpus) -> dict[str, str]:
    day = dt.date.fromisoformat(site.build_date(corpus))
    env = dict(os.environ)
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["SOURCE_DATE_EPOCH"] = str(calendar.timegm(day.timetuple()))
    return env


def _problems(output: str) -> str:
    """The lines of mkdocs' output that say what is wrong (all of it when none stands out)."""
    keep = [line for line in output.splitlines() if line.startswith(("WARNING", "ERROR", "Aborted", "Error"))]
    return "\n".join(keep or output.strip().splitlines()[-20:])


class _Folder(Mapping[str, bytes]):
    """The files of a folder as a tree for the writer, read from disk only when asked for, so the
    built site is never held in memory as a whole."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.paths = [p.relative_to(folder).as_posix() for p in sorted(folder.rglob("*")) if p.is_file()]

    def __getitem__(self, relative: str) -> bytes:
        if relative not in self._known:
            raise KeyError(relative)
        return (self.folder / relative).read_bytes()

    @cached_property
    def _known(self) -> set[str]:
        return set(self.paths)

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def build(
    corpus: Corpus,
    out: Path,
    on_page: Callable[[int, int], None] | None = None,
    *,
    force: bool = False,
    protected: tuple[Path, ...] = (),
    rules: Sequence[Rule],
) -> int:
    """Build the site for `corpus` into `out`, listing `rules` (the rule catalogue) on the reference
    page; returns the number of files written.

    `on_page(done, total)`, when given, is called each time mkdocs has written a page (for a
    progress bar; `total` is the number of Markdown pages staged). The writer's refusals are
    checked before mkdocs runs; mkdocs works in a folder beside `out`, which the next run removes
    if this one is killed.
    """
    out = prepare(out, force=force, protected=protected)
    tree = site.render(corpus, hooks=(PROGRESS_HOOK,) if on_page is not None else (), rules=rules)
    total = sum(1 for path in tree if path.endswith(".md"))
    scratch = _work_beside(out)
    try:
        staging = scratch / "staging"
        write_tree(tree, staging)
        built = scratch / "site"
        command = [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(staging / "mkdocs.yml"),
            "--site-dir",
            str(built),
        ]
        if on_page is None:
            result = subprocess.run(command, env=mkdocs_env(corpus), capture_output=True, text=True, check=False)
            code, said = result.returncode, result.stderr + result.stdout
        else:
            code, said = _run_counting(command, mkdocs_env(corpus), scratch / "mkdocs.log", on_page, total)
        if code != 0:
            raise SiteBuildError(_problems(said))
        files = _Folder(built)
        write_tree(files, out, force=force, protected=protected)
        return len(files)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _work_beside(out: Path) -> Path:
    """mkdocs' working folder, beside `out` (on the same disk) under a name of its own: writing `out`
    clears away what killed runs left beside `out`, and must not take this folder while the built
    site is copied out of it. The next build removes it if this one is killed."""
    own = out.with_name(out.name + ".mkdocs")
    clean_leftovers(own)
    return scratch_beside(own)


def _run_counting(
    command: list[str], env: dict[str, str], log: Path, on_page: Callable[[int, int], None], total: int
) -> tuple[int, str]:
    """Run mkdocs, calling `on_page(done, total)` for every page mark the progress hook prints."""
    from wopgen.generate.site.progress_hook import MARK

    other: list[str] = []
    done = 0
    on_page(done, total)
    with log.open("w+", encoding="utf-8") as errors:
        with subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=errors, text=True) as process:
            assert process.stdout is not None
            for line in process.stdout:
                if line.strip() == MARK:
                    done += 1
                    on_page(done, total)
                else:
                    other.append(line)
        errors.seek(0)
        return process.returncode, errors.read() + "".join(other)


def serve(corpus: Corpus, port: int, *, rules: Sequence[Rule], hook: Path) -> None:
    """Preview the site on 127.0.0.1:`port` with live reload, until interrupted.

    mkdocs runs in this process (so stopping it stops everything) and watches the staging tree and
    the corpus folders; `hook` (the CLI's `wopgen.cli.site_hook`) renders the corpus again before
    every rebuild, so an edit to a schema, an RFC or a prose page shows up in the browser without a
    restart.
    """
    from mkdocs.commands.serve import serve as mkdocs_serve

    scratch = Path(tempfile.mkdtemp(prefix="wopgen-site-serve-"))
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        staging = scratch / "staging"
        write_tree(site.render(corpus, hooks=(hook,), rules=rules), staging)
        os.environ.update(mkdocs_env(corpus))
        os.environ["WOPGEN_SITE_ROOT"] = str(corpus.root)
        if corpus.settings.source is not None:
            os.environ["WOPGEN_SITE_CONFIG"] = str(corpus.settings.source)
        _log_like_mkdocs()
        mkdocs_serve(
            config_file=str(staging / "mkdocs.yml"),
            livereload=True,
            dev_addr=f"127.0.0.1:{port}",
            watch=[str(p) for p in watched(corpus)],
        )
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        shutil.rmtree(scratch, ignore_errors=True)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _log_like_mkdocs() -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def watched(corpus: Corpus) -> list[Path]:
    """Every part of the corpus the settings name (schemas, examples, docs, RFCs, API, invariants,
    changelog) and pyproject.toml, so an edit to any of them re-renders the site."""
    from wopgen.corpus.settings import PARTS, PYPROJECT

    settings = corpus.settings
    paths = [settings.path(getattr(settings, part)) for part in PARTS] + [settings.path(PYPROJECT)]
    return sorted({p for p in paths if p.exists()})


__all__ = ["SiteBuildError", "WriteError", "build", "serve"]

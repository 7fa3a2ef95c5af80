"""Build or preview the docs site: stage the rendered tree, run mkdocs on it, put the site in place.

The staging tree goes through the one writer into a private temporary folder. mkdocs builds it in
this process (not a second Python that would import it all again) with `--strict`, so a broken
link, a missing anchor or any other warning fails the build; what mkdocs logs is kept for the
error, never printed. The built site then replaces the output folder through the writer (moved
into place, not copied), so a failed build never leaves a half-written one. The site is byte-identical for the same corpus:
mkdocs takes its only date (the sitemap's `lastmod` and the gzip header of `sitemap.xml.gz`) from
SOURCE_DATE_EPOCH, set for the build to the newest date the corpus states.
"""

from __future__ import annotations

import calendar
import datetime as dt
import logging
import os
import shutil
import signal
import socket
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mkdocs.config.base import LegacyConfig
from mkdocs.plugins import BasePlugin

from wopgen.corpus import Corpus
from wopgen.diagnostics import Rule
from wopgen.generate import site
from wopgen.generate.site.converted import PageCache, corpus_file
from wopgen.generate.site.markdown_once import OneConverter
from wopgen.generate.site.search_entries import SearchEntries
from wopgen.generate.site.template_cache import attach
from wopgen.generate.site.template_cache import kept as template_cache_kept
from wopgen.generate.site.theme_files import hide_dotted
from wopgen.generate.writer import WriteError, clean_leftovers, move_tree, prepare, scratch_beside, write_tree
from wopgen.templates import environment

SITE_COMMAND = "site build"  # what the built site's manifest says wrote it


class SiteBuildError(Exception):
    """mkdocs refused the site; the message is what mkdocs said."""


def mkdocs_env(corpus: Corpus) -> dict[str, str]:
    """The environment variables mkdocs runs with: its only date is the corpus's."""
    day = dt.date.fromisoformat(site.build_date(corpus))
    return {"NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": str(calendar.timegm(day.timetuple()))}


def _problems(output: str) -> str:
    """The lines of mkdocs' output that say what is wrong (all of it when none stands out)."""
    keep = [line for line in output.splitlines() if line.startswith(("WARNING", "ERROR", "Aborted", "Error"))]
    return "\n".join(keep or output.strip().splitlines()[-20:])


def build(
    corpus: Corpus,
    out: Path,
    on_page: Callable[[int, int], None] | None = None,
    *,
    force: bool = False,
    protected: tuple[Path, ...] = (),
    rules: Sequence[Rule],
    template_cache: Path | None = None,
    page_cache: Path | None = None,
) -> int:
    """Build the site for `corpus` into `out`, listing `rules` (the rule catalogue) on the reference
    page; returns the number of files written.

    `template_cache`, when given, is a folder where the compiled templates (the theme's and the
    pages') are kept between builds (see `wopgen.generate.site.template_cache`); `page_cache`, when
    given, a folder where what a build made and the next may reuse (the pages mkdocs converted,
    their search entries, the pieces of HTML the rendering made) is kept, one file per corpus (see
    `wopgen.generate.site.converted`). The site is the same with or without them.

    `on_page(done, total)`, when given, is called each time mkdocs has written a page (for a
    progress bar; `total` is the number of Markdown pages staged). The writer's refusals are
    checked before mkdocs runs; mkdocs works in a folder beside `out`, which the next run removes
    if this one is killed.
    """
    out = prepare(out, force=force, protected=protected, command=SITE_COMMAND)
    pages = None if page_cache is None else PageCache(page_cache / corpus_file(corpus.root))
    pieces: dict[str, str] = {}
    with template_cache_kept(environment("site"), template_cache):  # wopgen's page templates
        tree = site.render(corpus, rules=rules, known=None if pages is None else pages.pieces(), used=pieces)
    if pages is not None:
        pages.keep_pieces(pieces)
    total = sum(1 for path in tree if path.endswith(".md"))
    scratch = _work_beside(out)
    try:
        staging = scratch / "staging"
        write_tree(tree, staging)
        del tree  # mkdocs reads the pages from the staging tree
        built = scratch / "site"
        with _environment(mkdocs_env(corpus)):
            try:
                _run_mkdocs(staging / "mkdocs.yml", built, on_page, total, template_cache, pages)
            finally:  # what the pages that were built made is kept, even when mkdocs refused the site
                if pages is not None:
                    pages.save()
        return move_tree(built, out, force=force, protected=protected, command=SITE_COMMAND)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _work_beside(out: Path) -> Path:
    """mkdocs' working folder, beside `out` (on the same disk) under a name of its own: writing `out`
    clears away what killed runs left beside `out`, and must not take this folder while the built
    site in it is made the output. The next build removes it if this one is killed."""
    own = out.with_name(out.name + ".mkdocs")
    clean_leftovers(own)
    return scratch_beside(own)


@contextmanager
def _environment(values: Mapping[str, str]) -> Iterator[None]:
    """`values` set in this process's environment for the block, as they were afterwards."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class _Said(logging.Handler):
    """What mkdocs and its plugins log at WARNING and above, one line per record, as mkdocs prints it."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@contextmanager
def _mkdocs_log() -> Iterator[_Said]:
    """mkdocs' log kept in a `_Said` for the block, away from this process's own logging."""
    logger = logging.getLogger("mkdocs")
    said = _Said()
    saved = (logger.level, logger.propagate)
    logger.addHandler(said)
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    try:
        yield said
    finally:
        logger.removeHandler(said)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]


def _run_mkdocs(
    config_file: Path,
    site_dir: Path,
    on_page: Callable[[int, int], None] | None,
    total: int,
    template_cache: Path | None = None,
    page_cache: PageCache | None = None,
) -> None:
    """`mkdocs build --strict` of `config_file` into `site_dir`, in this process; raises SiteBuildError
    with what mkdocs said when it refuses the site. `on_page(done, total)` follows the written pages;
    the theme's compiled templates are kept in `template_cache`, and converted pages and their search
    entries in `page_cache`, when given."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, MkDocsException

    with _mkdocs_log() as said:
        try:
            config = load_config(config_file=str(config_file), site_dir=str(site_dir), strict=True)
            if on_page is not None:
                config.plugins["wopgen-progress"] = _Progress(on_page, total)
            if template_cache is not None:
                config.plugins["wopgen-template-cache"] = _TemplateCache(template_cache)
            config.plugins["wopgen-one-converter"] = OneConverter(page_cache)
            if page_cache is not None:
                config.plugins["wopgen-search-entries"] = SearchEntries(page_cache)
            hide_dotted(config.theme)  # the theme's ~14,000 hidden icon files are never copied: not walked
            config.plugins.on_startup(command="build", dirty=False)
            try:
                mkdocs_build(config)
            finally:
                config.plugins.on_shutdown()
        except Abort as exc:  # strict mode's count of warnings, or a BuildError
            raise SiteBuildError(_problems("\n".join([*said.lines, exc.format_message()]))) from None
        except MkDocsException as exc:
            raise SiteBuildError(_problems("\n".join([*said.lines, f"Error: {exc.format_message()}"]))) from None
        except Exception as exc:  # a plugin or Markdown extension that fails on this content
            raise SiteBuildError(_problems("\n".join([*said.lines, f"Error: {type(exc).__name__}: {exc}"]))) from None


class _Progress(BasePlugin[LegacyConfig]):  # type: ignore[no-untyped-call]  # mkdocs leaves __init_subclass__ untyped
    """An mkdocs plugin (added to the loaded configuration, not named in it) that reports each page
    written."""

    def __init__(self, on_page: Callable[[int, int], None], total: int) -> None:
        super().__init__()
        self.report, self.total, self.done = on_page, total, 0  # (mkdocs takes every `on_*` for an event)
        on_page(0, total)

    def on_post_page(self, output: str, page: Any, config: Any) -> str:
        self.done += 1
        self.report(self.done, self.total)
        return output


class _TemplateCache(BasePlugin[LegacyConfig]):  # type: ignore[no-untyped-call]  # as _Progress
    """An mkdocs plugin (added to the loaded configuration) that keeps the theme's compiled templates
    in a folder between builds."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def on_env(self, env: Any, config: Any, files: Any) -> Any:
        return attach(env, self.folder)


class ServeError(Exception):
    """The preview cannot start (its port cannot be listened on); nothing was built or served."""


def _can_listen(port: int) -> None:
    """Raise ServeError unless 127.0.0.1:`port` can be bound as mkdocs' server binds it (address reuse
    on): mkdocs builds the whole site first and then fails on the bind with a bare OSError."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            raise ServeError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None


def serve(corpus: Corpus, port: int, *, rules: Sequence[Rule], hook: Path) -> None:
    """Preview the site on 127.0.0.1:`port` with live reload, until interrupted; ServeError when the
    port cannot be listened on.

    mkdocs runs in this process (so stopping it stops everything) and watches the staging tree and
    the corpus folders; `hook` (the CLI's `wopgen.cli.site_hook`) renders the corpus again before
    every rebuild, so an edit to a schema, an RFC or a prose page shows up in the browser without a
    restart.
    """
    from mkdocs.commands.serve import serve as mkdocs_serve

    _can_listen(port)
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
    changelog) and the settings file, so an edit to any of them re-renders the site."""
    from wopgen.corpus.settings import PARTS

    settings = corpus.settings
    paths = [settings.path(getattr(settings, part)) for part in PARTS]
    if settings.source is not None:
        paths.append(settings.source)
    return sorted({p for p in paths if p.exists()})


__all__ = ["ServeError", "SiteBuildError", "WriteError", "build", "serve"]

"""`wopgen site build` and `wopgen site serve`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from wopgen.cli.app import EXIT_FINDINGS, Context, cli, force_option, gated_corpus, pass_context, protected_paths
from wopgen.diagnostics import plural


@cli.group()
def site() -> None:
    """Build or preview the docs site (mkdocs-material), rendered from the corpus.

    \b
    Examples:
      wopgen site build                  # into build/site
      wopgen site build --out public     # into ./public
      wopgen site serve --port 8001      # preview on http://127.0.0.1:8001 with live reload
    """


@site.command("build")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder, replaced atomically (default: build/site under the corpus root).",
)
@force_option
@click.option(
    "--no-cache",
    is_flag=True,
    help="Parse, convert and compile everything from source, instead of reusing the pages an earlier "
    "check or build parsed (build/.cache/check under the corpus root), and the pages, search entries "
    "and code blocks an earlier build made and the theme code it compiled (the user's cache folder, wopgen/site-pages and "
    "wopgen/site-templates); all are safe to delete.",
)
@pass_context
def site_build(obj: Context, out: Path | None, force: bool, no_cache: bool) -> None:
    """Render every page from the corpus and build the site with `mkdocs build --strict`.

    \b
    What refuses a corpus (exit 1 with the findings, nothing written) is an error of one of
    these rules, and nothing else:
      corpus-unreadable, corpus-invalid-yaml,   a corpus file that cannot be read or parsed
      schema-invalid-json
      corpus-outside-root                       a corpus path that leads out of the root
      corpus-missing                            a part [tool.wopgen] names is not there
      schema-metaschema, schema-id-duplicate    a schema its metaschema rejects; an $id used twice
      schema-ref-unresolved, schema-ref-external,
      schema-ref-cycle                          a schema's $ref leads nowhere, out of the corpus
                                                or round a loop
      schema-event-index                        the event index out of step with RunEventType
      api-shape, api-format                     an API folder that cannot be read
      doc-front-matter-invalid,                 page front matter the site would show as text,
      doc-front-matter-implicit                 or first lines it would take off the page unasked
      doc-front-matter-template,                a template, or a value of a key the site reads,
      doc-front-matter-value                    that the site would fail on or misuse
    Other findings (`wopgen check` reports them) do not stop the build: among them a $ref of an
    OpenAPI or AsyncAPI document that leads nowhere (api-ref-unresolved), which the API page
    shows as written and names as unresolved in the published file, and a document its standard
    validator rejects (api-openapi, api-asyncapi).
    \b
    Every OpenAPI and AsyncAPI document of the API folder gets its page (the first of each kind
    api/index.md or api/events.md, the others one named after their file) and is published next
    to it, with the corpus schemas its $refs name bundled in, so the file works on its own.
    \b
    A broken link, a missing #anchor or any other mkdocs warning fails the build (exit 1) and
    prints what mkdocs said; the output folder is then left as it was. The same corpus always
    gives a byte-identical site, with or without the caches (parsed, converted and indexed
    pages, code blocks, compiled theme templates).
    \b
    Examples:
      wopgen site build
      wopgen --root ../other-corpus site build --out /tmp/other-site
    """
    from wopgen.cli.check import CACHE_FOLDER
    from wopgen.generate.site import converted, template_cache

    build_site(
        obj,
        out,
        force=force,
        memo=None if no_cache else obj.root() / CACHE_FOLDER,
        templates=None if no_cache else template_cache.folder(),
        converted=None if no_cache else converted.folder(),
    )


def build_site(
    obj: Context,
    out: Path | None,
    *,
    force: bool,
    memo: Path | None,
    templates: Path | None,
    converted: Path | None,
) -> None:
    """What `wopgen site build` does, with its caches in the folders given (None: not used): the
    parsed Markdown pages in `memo` (the folder `wopgen check` keeps them in, read and updated),
    the theme's compiled templates in `templates`, the pages mkdocs converted in `converted`."""
    from wopgen.catalogue import catalogue
    from wopgen.checks.gate import API_RULES, FRONT_MATTER_RULES
    from wopgen.cli import progress
    from wopgen.cli.check_cache import keep_memo, read_memo
    from wopgen.generate.site.build import SiteBuildError, WriteError, build

    pages = None if memo is None else read_memo(memo)
    corpus = gated_corpus(obj, "site build", API_RULES + FRONT_MATTER_RULES, pages)
    target = out if out is not None else corpus.root / "build" / "site"
    try:
        with progress.counting("building the site") as report:
            count = build(
                corpus,
                target,
                on_page=report if progress.wanted() else None,
                force=force,
                protected=protected_paths(corpus),
                rules=catalogue(),
                template_cache=templates,
                page_cache=converted,
            )
    except SiteBuildError as exc:
        click.echo(f"wopgen site build: mkdocs refused the site:\n{exc}", err=True)
        sys.exit(EXIT_FINDINGS)
    except WriteError as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        if memo is not None and pages is not None:
            keep_memo(memo, pages, corpus)
    click.echo(f"built {plural(count, 'file')} into {target}")


@site.command("serve")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port on 127.0.0.1.")
@pass_context
def site_serve(obj: Context, port: int) -> None:
    """Preview the site on 127.0.0.1 with live reload (mkdocs serve); edits to the corpus re-render.

    \b
    Example:
      wopgen site serve --port 8001      # then open http://127.0.0.1:8001/
    """
    from wopgen.catalogue import catalogue
    from wopgen.checks.gate import API_RULES, FRONT_MATTER_RULES
    from wopgen.cli import site_hook
    from wopgen.generate.site.build import ServeError, serve

    corpus = gated_corpus(obj, "site serve", API_RULES + FRONT_MATTER_RULES)
    try:
        serve(corpus, port, rules=catalogue(), hook=Path(site_hook.__file__).resolve())
    except ServeError as exc:
        raise click.UsageError(str(exc)) from None

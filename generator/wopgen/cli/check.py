"""`wopgen check` and `wopgen rules`."""

from __future__ import annotations

import sys
from functools import partial
from typing import TYPE_CHECKING

import click

from wopgen.catalogue import configure, listing, unknown_patterns
from wopgen.cli.app import EXIT_CLEAN, EXIT_FINDINGS, Context, _split, cli, emit, pass_context
from wopgen.cli.compat import _compat_findings
from wopgen.diagnostics import Severity, fails, select

if TYPE_CHECKING:
    from wopgen.corpus import Corpus

CACHE_FOLDER = "build/.cache/check"


@cli.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github", "sarif"]),
    default="text",
    show_default=True,
    help="How to print the findings.",
)
@click.option(
    "--select",
    "include",
    multiple=True,
    metavar="IDS",
    help="Only report these rule ids or prefixes (comma-separated or repeated), e.g. schema-,rfc-status.",
)
@click.option(
    "--ignore",
    "exclude",
    multiple=True,
    metavar="IDS",
    help="Do not report these rule ids or prefixes, e.g. schema-defs-unused.",
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info"]),
    default="error",
    show_default=True,
    help="Lowest severity that makes the exit code 1.",
)
@click.option(
    "--against",
    metavar="REF|DIR",
    default=None,
    help="Also run `wopgen compat` against this git ref or corpus folder (default: [tool.wopgen] baseline).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Render the API documents, run the conformance suite and parse every Markdown page even when "
    "build/.cache/check holds their results for this very corpus and toolchain (the cache is safe to delete).",
)
@pass_context
def check(
    obj: Context,
    fmt: str,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    fail_on: str,
    against: str | None,
    no_cache: bool,
) -> None:
    """Check the whole corpus: schemas, examples, RFCs, prose, changelog, invariants.

    \b
    Examples:
      wopgen check
      wopgen check --format github          # annotations in a GitHub Actions log
      wopgen check --select schema-,example- --ignore schema-defs-unused
      wopgen check --against main           # and prove every change since main is additive
    """
    from wopgen.checks import run_all, wanted
    from wopgen.cli.check_cache import CheckCache, corpus_key, keep_memo, read_memo

    include, exclude = _split(include), _split(exclude)
    _known_rules(include, "--select")
    _known_rules(exclude, "--ignore")
    folder = obj.root() / CACHE_FOLDER
    memo = None if no_cache else read_memo(folder)
    corpus = obj.corpus(memo)
    include, exclude = _configured_selection(corpus, include, exclude)
    cache = None if no_cache else CheckCache(folder, partial(corpus_key, corpus))
    found = list(run_all(corpus, include=include, exclude=exclude, cache=cache))
    if memo is not None:
        keep_memo(folder, memo, corpus)
    if against is not None or wanted(("compat-",), include, exclude):  # an explicit --against is always read
        found.extend(_compat_findings(corpus, against))
    diagnostics = select(configure(found, corpus.settings.rules), include, exclude)
    emit(diagnostics, fmt, corpus.root, checked=corpus.checked())
    sys.exit(EXIT_FINDINGS if fails(diagnostics, Severity(fail_on)) else EXIT_CLEAN)


def _configured_selection(
    corpus: Corpus, include: tuple[str, ...], exclude: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """--select replaces `[tool.wopgen.rules] select`; --ignore adds to its `ignore`. Every id the
    table names must be a rule or a prefix of one (a typo would silently switch nothing off)."""
    rules = corpus.settings.rules
    named = [*rules.select, *rules.ignore, *(p for p, _ in rules.severity)]
    named += [rule for _, ids in rules.per_path_ignores for rule in ids]
    unknown = unknown_patterns(named)
    if unknown:
        line = corpus.settings.line("rules")
        raise click.UsageError(
            f"{corpus.settings.source_path()}:{line}: [tool.wopgen.rules] names no rule {', '.join(map(repr, unknown))}; "
            "`wopgen rules` lists them"
        )
    return include or rules.select, exclude + rules.ignore


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules(fmt: str) -> None:
    """List every rule id with its default severity and what it means."""
    items = listing()
    if fmt == "json":
        import json

        click.echo(
            json.dumps(
                [{"id": r.id, "severity": r.severity.value, "summary": r.summary, "example": r.example} for r in items],
                indent=2,
            )
        )
    elif fmt == "markdown":
        click.echo("| Rule | Severity | Meaning |\n|---|---|---|")
        for r in items:
            click.echo(f"| `{r.id}` | {r.severity.value} | {r.summary} |")
    else:
        width = max(len(r.id) for r in items)
        for r in items:
            click.echo(f"{r.id.ljust(width)}  {r.severity.value:<7}  {r.summary}")


def _known_rules(patterns: tuple[str, ...], option: str) -> None:
    """A --select/--ignore pattern that matches no rule is a typo that would pass in silence."""
    import difflib

    ids = [rule.id for rule in listing()]
    families = sorted({rule_id.split("-", 1)[0] + "-" for rule_id in ids})
    for pattern in unknown_patterns(list(patterns)):
        close = difflib.get_close_matches(pattern, families + ids, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(close)}?" if close else "; `wopgen rules` lists them"
        raise click.UsageError(f"{option} {pattern!r} matches no rule id or prefix{hint}")

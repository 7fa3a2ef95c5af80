"""`wopgen compat`, and the comparison `wopgen check --against` runs."""

from __future__ import annotations

import sys

import click

from wopgen.cli.app import EXIT_CLEAN, EXIT_FINDINGS, Context, cli, pass_context
from wopgen.corpus import Corpus
from wopgen.corpus.settings import SettingsError
from wopgen.diagnostics import Diagnostic, Severity


def _compat_findings(corpus: Corpus, against: str | None) -> list[Diagnostic]:
    """The compat findings for `check`: against --against, else the configured baseline if present."""
    from wopgen.compat import compare_against
    from wopgen.compat.source import SourceError, baseline_available

    if against is None:
        baseline = corpus.settings.baseline
        if not baseline:
            return []
        if not baseline_available(corpus.root, baseline):
            from wopgen.compat.rules import BASELINE_UNAVAILABLE

            click.echo(f"note: baseline {baseline!r} is not in this checkout's git history; compat skipped", err=True)
            line = corpus.settings.line("baseline")
            message = f"baseline {baseline!r} is not in this checkout's git history; the compat comparison was skipped"
            hint = "fetch it (git fetch origin <ref>, or a deeper clone) or change [tool.wopgen] baseline"
            return [BASELINE_UNAVAILABLE.at("pyproject.toml", line, message, hint)]
        folder = corpus.root / baseline
        against = str(folder) if folder.is_dir() else baseline
    try:
        return [c.to_diagnostic() for c in compare_against(against, corpus)]
    except SourceError as exc:
        raise click.UsageError(str(exc)) from None


@cli.command()
@click.option(
    "--against", required=True, metavar="REF|DIR", help="The base: a git ref (branch, tag, commit) or a corpus folder."
)
@click.option("--head", default=None, metavar="REF|DIR", help="The head (default: the corpus in the work tree).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="text (grouped by file), json (documented shape), markdown (pull-request comment / changelog draft).",
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning"]),
    default="error",
    show_default=True,
    help="Lowest severity that makes the exit code 1.",
)
@pass_context
def compat(obj: Context, against: str, head: str | None, fmt: str, fail_on: str) -> None:
    """Prove that every change from a base version of the corpus to the head is additive.

    Schemas are compared by meaning ($refs resolved, key order and $def names ignored) and by the
    direction each declares in x-wop-direction; error codes, spec/api operations and RFC metadata
    are compared too. A breaking change is an error unless an Active or Accepted RFC with
    Compatibility `breaking` or `safety-fix` names the file in Affects. A git ref is read with
    `git archive`, never by checking it out. `wopgen rules` lists every compat- rule.

    \b
    Examples:
      wopgen compat --against main
      wopgen compat --against v1.0.0 --head HEAD --format markdown > compat.md
      wopgen compat --against ../old-corpus --format json
      wopgen compat --against origin/main --fail-on warning
    """
    from wopgen.compat import compare_against, compare_specs
    from wopgen.compat.report import RENDERERS
    from wopgen.compat.source import SourceError

    try:
        if head is None:
            corpus = obj.corpus()
            changes = compare_against(against, corpus)
        else:
            settings = obj.settings()
            changes = compare_specs(against, head, settings.root, settings)
    except SourceError as exc:
        raise click.UsageError(str(exc)) from None
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(RENDERERS[fmt](changes, against, head or "work tree"), nl=False)
    failing = Severity(fail_on)
    sys.exit(EXIT_FINDINGS if any(c.severity.rank >= failing.rank for c in changes) else EXIT_CLEAN)

"""`wopgen compat`, and the comparison `wopgen check --against` runs."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from wopgen.cli.app import EXIT_CLEAN, EXIT_FINDINGS, Context, cli, pass_context, render_for_tools
from wopgen.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from wopgen.corpus import Corpus

# The roles of wopgen.compat.rules.DIRECTIONS, spelt out so that `wopgen --help` need not import the
# compat engine to build this option (a test holds the two equal); the last is the default.
DIRECTIONS = ("client-sent", "host-emitted", "artifact")


def _compat_findings(corpus: Corpus, against: str | None) -> list[Diagnostic]:
    """The compat findings for `check`: against --against, else the configured baseline if present."""
    from wopgen.compat import compare_against
    from wopgen.compat.source import SourceError, baseline_available

    if against is not None and not against.strip():
        raise click.UsageError("--against is empty: name a git ref or a corpus folder")
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
            return [BASELINE_UNAVAILABLE.at(corpus.settings.source_path(), line, message, hint)]
        folder = corpus.root / baseline
        against = str(folder) if folder.is_dir() else baseline
    try:
        return [c.to_diagnostic() for c in compare_against(against, corpus)]
    except SourceError as exc:
        raise click.UsageError(str(exc)) from None


@cli.command()
@click.option(
    "--against",
    required=True,
    metavar="REF|DIR|FILE",
    help="The base: a git ref (branch, tag, commit), a corpus folder, or one schema file (then --head is one too).",
)
@click.option("--head", default=None, metavar="REF|DIR|FILE", help="The head (default: the corpus in the work tree).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown", "github", "sarif"]),
    default="text",
    show_default=True,
    help="text (grouped by file), json (documented shape), markdown (pull-request comment / changelog draft), "
    "github (workflow annotations), sarif (2.1.0, for code scanning).",
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning"]),
    default="error",
    show_default=True,
    help="Lowest severity that makes the exit code 1.",
)
@click.option(
    "--direction",
    type=click.Choice(list(DIRECTIONS)),
    default=DIRECTIONS[-1],
    show_default=True,
    help="The role of a schema that declares none in x-wop-direction (for plain schema files: all of them).",
)
@click.option(
    "--client-root",
    "client_roots",
    multiple=True,
    metavar="NAME",
    help="A $defs/definitions entry a client sends; everything it reaches by $ref is client-sent. Repeatable.",
)
@click.option(
    "--server-root",
    "server_roots",
    multiple=True,
    metavar="NAME",
    help="A $defs/definitions entry a host (server) emits; everything it reaches is host-emitted. Repeatable.",
)
@click.option(
    "--accepted",
    "accepted_file",
    default=None,
    metavar="FILE",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A TOML file of breaking changes accepted on purpose (rule, location, reason, optional expires).",
)
@pass_context
def compat(
    obj: Context,
    against: str,
    head: str | None,
    fmt: str,
    fail_on: str,
    direction: str,
    client_roots: tuple[str, ...],
    server_roots: tuple[str, ...],
    accepted_file: Path | None,
) -> None:
    """Prove that every change from a base version of the corpus to the head is additive.

    Schemas are compared by meaning ($refs resolved, no-op keywords and key order ignored, union
    branches paired by $ref target, discriminating const, then similarity) and by the direction
    each declares in x-wop-direction; error codes, spec/api operations and RFC metadata are
    compared too. A breaking change is an error unless an Active or Accepted RFC with
    Compatibility `breaking` or `safety-fix` names the file in Affects, or an entry of the
    --accepted file matches it. A git ref is streamed out of `git archive`, never checked out.
    Two plain schema files (draft-07 `definitions` or 2020-12 `$defs`) compare with --against
    OLD.json --head NEW.json; --client-root/--server-root then give each definition its role by
    what reaches it. `wopgen rules` lists every compat- rule.

    \b
    Examples:
      wopgen compat --against main
      wopgen compat --against v1.0.0 --head HEAD --format markdown > compat.md
      wopgen compat --against ../old-corpus --format json
      wopgen compat --against origin/main --fail-on warning --format github
      wopgen compat --against old/schema.json --head new/schema.json \\
          --client-root ClientRequest --server-root ServerResult --accepted compat-accepted.toml
    """
    from wopgen.cli import progress
    from wopgen.compat import Plan, PlanError, compare_against, compare_specs
    from wopgen.compat.accepted import AcceptedError, apply, read_accepted
    from wopgen.compat.report import RENDERERS
    from wopgen.compat.source import SourceError, is_schema_file
    from wopgen.corpus.settings import Settings, SettingsError

    if not against.strip():
        raise click.UsageError("--against is empty: name a git ref, a corpus folder or a schema file")
    if head is not None and not head.strip():
        raise click.UsageError("--head is empty: name a git ref, a corpus folder or a schema file, or leave it out")
    plan = Plan(direction=direction, client_roots=client_roots, server_roots=server_roots)
    try:
        entries = read_accepted(accepted_file) if accepted_file is not None else None
        if head is None:
            with progress.stepping("wopgen compat", ("work tree", "comparing")) as begin:
                begin("reading the work tree")
                corpus = obj.corpus()
                begin(f"reading {against} and comparing")
                changes = compare_against(against, corpus, plan)
        elif is_schema_file(against) and is_schema_file(head):  # two plain files need no corpus around them
            changes = compare_specs(against, head, Path.cwd(), Settings(root=Path.cwd()), plan)
        else:
            settings = obj.settings()
            changes = compare_specs(against, head, settings.root, settings, plan)
    except (SourceError, SettingsError, PlanError, AcceptedError) as exc:
        raise click.UsageError(str(exc)) from None
    if entries is not None:
        changes = sorted(apply(changes, *entries), key=lambda c: c.sort_key())
    if fmt in ("github", "sarif"):
        click.echo(render_for_tools(fmt, [c.to_diagnostic() for c in changes]), nl=False)
    else:
        click.echo(RENDERERS[fmt](changes, against, head or "work tree"), nl=False)
    failing = Severity(fail_on)
    sys.exit(EXIT_FINDINGS if any(c.severity.rank >= failing.rank for c in changes) else EXIT_CLEAN)

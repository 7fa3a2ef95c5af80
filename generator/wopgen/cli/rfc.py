"""`wopgen rfc new` and `wopgen rfc list`."""

from __future__ import annotations

import datetime as dt
import getpass

import click

from wopgen.cli.app import Context, cli, pass_context


@cli.group()
def rfc() -> None:
    """Create and list RFCs."""


@rfc.command("new")
@click.argument("title")
@click.option("--author", default=None, help="Author(s) cell (default: the current user).")
@pass_context
def rfc_new(obj: Context, title: str, author: str | None) -> None:
    """Write the next-numbered Draft RFC from the template, dated today.

    \b
    Example:
      wopgen rfc new "Verification gates and structured findings"
    """
    from wopgen.generate.rfc import new_rfc

    if not title.strip():
        raise click.UsageError("the title must not be empty")
    corpus = obj.corpus()
    relative, text = new_rfc(corpus, title, author or _current_user(), dt.date.today())
    target = corpus.root / relative
    if target.exists():
        raise click.UsageError(f"{relative} already exists")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    click.echo(relative)


def _current_user() -> str:
    """The login name, or a placeholder where there is none (a container user without a passwd entry)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "Unknown author (pass --author)"


@rfc.command("list")
@pass_context
def rfc_list(obj: Context) -> None:
    """Print number, status, compatibility and title of every RFC."""
    from wopgen.generate.rfc import rfc_rows

    for number, status, compat, title in rfc_rows(obj.corpus()):
        click.echo(f"{number}  {status:<10}  {compat:<11}  {title}")

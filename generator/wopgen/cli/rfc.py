"""`wopgen rfc new` and `wopgen rfc list`."""

from __future__ import annotations

import datetime as dt
import getpass
import posixpath
from typing import TYPE_CHECKING

import click

from wopgen.cli.app import Context, cli, pass_context

if TYPE_CHECKING:
    from wopgen.corpus import Corpus


@cli.group()
def rfc() -> None:
    """Create and list RFCs."""


@rfc.command("new")
@click.argument("title")
@click.option("--author", default=None, help="Author(s) cell (default: the current user).")
@pass_context
def rfc_new(obj: Context, title: str, author: str | None) -> None:
    """Write the next-numbered Draft RFC from the template, dated today.

    The number follows the highest RFC of the corpus or of external-rfcs and skips the numbers
    reserved-rfcs lists; when no four-digit number is left, nothing is written (exit 2).

    \b
    Example:
      wopgen rfc new "Verification gates and structured findings"
    """
    from wopgen.generate.rfc import NoNumberLeft, new_rfc
    from wopgen.generate.writer import WriteError, create_tree

    if not title.strip():
        raise click.UsageError("the title must not be empty")
    _one_line(title, "the title")
    if author is not None:
        _one_line(author, "--author")
    corpus = _rfc_corpus(obj)
    try:
        relative, text = new_rfc(corpus, title, author or _current_user(), dt.date.today())
    except NoNumberLeft as exc:
        raise click.UsageError(str(exc)) from None
    folder, name = posixpath.split(relative)
    try:  # only ever a new file, never through a link, and nothing left behind when it fails
        create_tree({name: text}, corpus.root / folder)
    except WriteError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(relative)


def _rfc_corpus(obj: Context) -> Corpus:
    """The corpus, refused when its settings say it has no RFCs: the RFC folder is then not read, so
    `rfc new` would number from nothing and `rfc list` would list nothing, both without saying why."""
    settings = obj.settings()
    if not settings.conventions.rfcs_enabled:
        raise click.UsageError(
            f"{settings.source_path()}:{settings.line('rfcs-enabled')}: RFCs are disabled in this corpus "
            "(rfcs-enabled = false); remove that line to use RFCs"
        )
    return obj.corpus()


def _one_line(value: str, what: str) -> None:
    from wopgen.generate.rfc import one_line

    if not one_line(value):
        raise click.UsageError(f"{what} must be one line of UTF-8 text, without control characters")


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

    for number, status, compat, title in rfc_rows(_rfc_corpus(obj)):
        click.echo(f"{number}  {status:<10}  {compat:<11}  {title}")

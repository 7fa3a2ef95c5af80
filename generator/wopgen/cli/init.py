"""`wopgen init [DIR]`: start a corpus."""

from __future__ import annotations

import datetime as dt
import getpass
from pathlib import Path

import click

from wopgen.cli.app import cli


@cli.command("init")
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path), default=Path("."))
@click.option("--title", default="My Specification", show_default=True, help="Site title (setting site-title).")
@click.option(
    "--id-base",
    default="https://example.com/spec/v1/",
    show_default=True,
    help="Base of every schema's $id (setting id-base); ends with '/'.",
)
@click.option("--repository-url", default="", help="URL of the corpus's repository (setting repository-url).")
@click.option("--author", default=None, help="Author(s) of the first RFC (default: the current user).")
def init(directory: Path, title: str, id_base: str, repository_url: str, author: str | None) -> None:
    """Write a minimal corpus into DIRECTORY (default: here) that `wopgen check` passes at once.

    \b
    It holds pyproject.toml with [tool.wopgen] settings, one schema with a valid and an invalid
    example, one RFC from the template, one prose page and a changelog. Only new files are written:
    when any of them already exists in DIRECTORY, nothing is written and the exit code is 2; other
    files there (a README, a fresh git repository) are left as they are. A run that fails part-way
    leaves nothing behind.
    \b
    Examples:
      wopgen init my-spec --title "Acme Protocol" --id-base https://acme.example/spec/v1/
      cd my-spec && wopgen check
    """
    from wopgen.generate.starter import StarterError, starter_files
    from wopgen.generate.writer import WriteError, create_tree

    try:
        files = starter_files(title, id_base, repository_url, author or getpass.getuser(), dt.date.today())
    except StarterError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        create_tree(files, directory)
    except WriteError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"wrote {len(files)} files into {directory}; next: cd {directory} && wopgen check")

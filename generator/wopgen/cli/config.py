"""`wopgen config`: every key of `[tool.wopgen]`, its default and meaning, and the values in force."""

from __future__ import annotations

import click

from wopgen.cli.app import Context, cli, pass_context


@cli.command("config")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "markdown"]), default="text", show_default=True, help="Output form."
)
@click.option(
    "--values", "show_values", is_flag=True, help="Also show the value each key has for this corpus (reads settings)."
)
@click.option(
    "--reference",
    is_flag=True,
    help="Print the corpus format reference instead (layout, schemas, examples, prose, RFCs, API, changelog).",
)
@pass_context
def config(obj: Context, fmt: str, show_values: bool, reference: bool) -> None:
    """List every setting of [tool.wopgen] with its default and meaning.

    \b
    Settings live in the corpus's pyproject.toml under [tool.wopgen], or in any TOML file with that
    table given by --config FILE (paths stay relative to the corpus root). A key left out keeps its
    default, and the defaults are the conventions of the OpenWOP v1 slice this tool ships with.
    \b
    Examples:
      wopgen config                                   # the reference
      wopgen config --format markdown > settings.md   # the same, as a page
      wopgen config --reference                       # the corpus format reference
      wopgen --config examples/openwop-v1.toml --root ../openwop config --values
    """
    from wopgen.corpus.settings import settings_reference

    if reference:
        from wopgen.reference import format_reference

        text = format_reference()
        if text is None:
            raise click.UsageError("this installation carries no format reference (CONTRIBUTING.md)")
        click.echo(text, nl=False)
        return
    current = _current_values(obj) if show_values else {}
    items = settings_reference()
    if fmt == "markdown":
        click.echo("# Settings of `[tool.wopgen]`\n")
        click.echo(
            "Every key is optional; its default keeps the conventions of the OpenWOP v1 slice. "
            "Paths are relative to the corpus root.\n"
        )
        click.echo("| Key | Kind | Default | Meaning |\n|---|---|---|---|")
        for s in items:
            click.echo(f"| `{s.key}` | {s.kind} | `{s.default}` | {s.meaning} |")
        return
    width = max(len(s.key) for s in items)
    for s in items:
        click.echo(f"{s.key.ljust(width)}  {s.kind}, default {s.default}")
        if s.key in current:
            click.echo(f"{' ' * width}  value here: {current[s.key]}")
        click.echo(f"{' ' * width}  {s.meaning}")


def _current_values(obj: Context) -> dict[str, str]:
    from wopgen.corpus.settings import setting_values

    return {key: repr(value) for key, value in setting_values(obj.settings()).items()}

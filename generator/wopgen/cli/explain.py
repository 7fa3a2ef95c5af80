"""`wopgen explain RULE`: one rule in full."""

from __future__ import annotations

import difflib

import click

from wopgen.cli.app import cli, colour_wanted


@cli.command()
@click.argument("rule_id", metavar="RULE")
def explain(rule_id: str) -> None:
    """Explain one rule: what it means, why it matters, a failing and a passing example, how to fix it.

    \b
    Examples:
      wopgen explain schema-ref-unresolved
      wopgen explain compat-required-added
    """
    from wopgen.catalogue import catalogue

    rules = {r.id: r for r in catalogue()}
    found = rules.get(rule_id.strip())
    if found is None:
        close = difflib.get_close_matches(rule_id, rules, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `wopgen rules` lists them"
        raise click.BadParameter(f"no rule {rule_id!r}{hint}", param_hint="RULE")
    colour = colour_wanted()

    def heading(text: str) -> str:
        return click.style(text, bold=True) if colour else text

    lines = [
        f"{heading(found.id)}  ({found.severity.value})",
        "",
        found.summary,
        "",
        heading("Why it matters"),
        f"  {found.why}",
        "",
        heading("Fails"),
        f"  {found.bad}",
        "",
        heading("Passes"),
        f"  {found.good}",
        "",
        heading("How to fix"),
        f"  {found.fix}",
    ]
    click.echo("\n".join(lines), color=colour)

"""Every `wopgen` command the README shows in a shell block parses as written: the command exists,
its options exist and take the values given, and a git ref it compares against exists."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import click
import pytest

from wopgen.cli import cli

REPO = Path(__file__).resolve().parents[1]
_BLOCK = re.compile(r"```sh\n(.*?)```", re.S)
_OPERATORS = {"&&", "||", "|", ";", "&", ">", ">>", "<", "2>"}


def _commands() -> list[tuple[str, list[str]]]:
    """(the block's text, the arguments after `wopgen`) for every wopgen command in a sh block."""
    found = []
    for block in _BLOCK.findall((REPO / "README.md").read_text(encoding="utf-8")):
        text = block.replace("\\\n", " ")
        pending = ""
        for line in text.splitlines():
            pending += line + "\n"
            try:
                tokens = _tokens(pending)
            except ValueError:  # a quotation that goes on on the next line
                continue
            pending = ""
            segment: list[str] = []
            for token in [*tokens, ";"]:
                if token in _OPERATORS:
                    if segment and segment[0] in ("wopgen", ".venv/bin/wopgen"):
                        found.append((block, segment[1:]))
                    segment = []
                else:
                    segment.append(token)
    return found


def _tokens(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


COMMANDS = _commands()


def _parse(args: list[str]) -> click.Context:
    ctx = cli.make_context("wopgen", list(args))
    command: click.Command = cli
    while isinstance(command, click.Group):
        rest = [*(ctx._protected_args if hasattr(ctx, "_protected_args") else ctx.protected_args), *ctx.args]
        name, sub, rest = command.resolve_command(ctx, rest)
        assert sub is not None and name is not None
        ctx = sub.make_context(name, rest, parent=ctx)
        command = sub
    return ctx


def test_the_readme_shows_commands() -> None:
    assert len(COMMANDS) >= 6


@pytest.mark.parametrize("block, args", COMMANDS, ids=[" ".join(a) for _, a in COMMANDS])
def test_every_readme_command_parses_and_names_refs_that_exist(block: str, args: list[str]) -> None:
    ctx = _parse(args)
    for option in ("against", "head"):
        value = ctx.params.get(option)
        if not value or value in block.split(f"--{option} {value}", 1)[0]:  # a folder the block creates first
            continue
        done = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", f"{value}^{{commit}}"], cwd=REPO, capture_output=True
        )
        assert done.returncode == 0 or (REPO / value).is_dir(), f"--{option} {value} is neither a ref nor a folder"


def test_the_readme_counts_the_mutants_the_host_has() -> None:
    from wopgen.generate.host_profiles import MUTANTS

    text = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert f"every one of the {len(MUTANTS)} mutants to be killed" in text

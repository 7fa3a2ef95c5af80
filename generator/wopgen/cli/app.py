"""The command group, the shared context (corpus root, loading) and the diagnostic printer.

Every command module imports this one, and `wopgen --help` imports every command module: so this
module and the command modules import only click at their top, and the corpus, the checks and the
renderers inside the functions that use them.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from wopgen.diagnostics import Diagnostic, plural

if TYPE_CHECKING:
    from wopgen.corpus import Corpus
    from wopgen.corpus.markdown_memo import MarkdownMemo
    from wopgen.corpus.settings import Settings

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class Context:
    def __init__(self, root: Path | None, config: Path | None = None, color: str = "auto") -> None:
        self.explicit_root = root
        self.config = config
        self.color = color
        self._settings: Settings | None = None
        self._shipped = False

    def allow_shipped(self) -> None:
        """Let a command that executes the spec (`conformance`, `host`) run outside any corpus: with
        no --root, no --config and no corpus around the working folder, it reads the OpenWOP v1 slice
        wopgen ships with, and says so on stderr."""
        self._shipped = True

    def settings(self) -> Settings:
        """The corpus settings, read once per command: the corpus's pyproject.toml, or the --config file."""
        if self._settings is None:
            from wopgen.corpus.settings import SettingsError, find_settings, load_settings

            try:
                if self.config is not None:
                    root = self.explicit_root or _nearest_root(Path.cwd())
                    self._settings = load_settings(root, self.config)
                elif self.explicit_root is not None:
                    self._settings = load_settings(self.explicit_root)
                else:
                    self._settings = self._around_or_shipped(find_settings)
            except SettingsError as exc:
                raise click.UsageError(str(exc)) from None
        return self._settings

    def _around_or_shipped(self, find: Callable[[Path], Settings]) -> Settings:
        from wopgen.corpus.settings import SettingsError, load_settings
        from wopgen.reference import shipped_root

        try:
            return find(Path.cwd())
        except SettingsError:
            shipped = shipped_root() if self._shipped else None
            if shipped is None:
                raise
        click.echo(
            f"note: no corpus in or above {Path.cwd()}; using the OpenWOP v1 slice shipped with wopgen ({shipped}). "
            "Pass --root to use another corpus.",
            err=True,
        )
        return load_settings(shipped)

    def root(self) -> Path:
        return self.settings().root

    def corpus(self, memo: MarkdownMemo | None = None) -> Corpus:
        from wopgen.corpus import load
        from wopgen.corpus.settings import SettingsError

        settings = self.settings()
        try:
            return load(settings.root, settings, memo=memo)
        except SettingsError as exc:
            raise click.UsageError(str(exc)) from None


def _nearest_root(start: Path) -> Path:
    """With --config and no --root: the enclosing corpus if there is one, else the working folder."""
    from wopgen.corpus.settings import SettingsError, find_settings

    try:
        return find_settings(start).root
    except SettingsError:
        return start


pass_context = click.make_pass_decorator(Context)


class FiniteFloatRange(click.FloatRange):
    """click's FloatRange refusing nan and inf as well. float() reads both, and nan passes every
    bound (each comparison with it is false), so `--timeout nan` reached the HTTP client and
    `--max-seconds nan` lifted the run's budget; every float option uses this type instead."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return float(super().convert(number, param, ctx))


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def colour_wanted(stream: object = None) -> bool:
    """--color always/never decide; `auto` colours a terminal unless NO_COLOR is set (no-color.org)."""
    context = click.get_current_context(silent=True)
    obj = context.find_object(Context) if context is not None else None
    choice = obj.color if obj is not None else "auto"
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    target = stream if stream is not None else sys.stdout
    return bool(getattr(target, "isatty", lambda: False)())


def repository_prefix(root: Path) -> str:
    """The corpus root relative to the enclosing git work tree (`specs/wop/`), or "" at its top.

    GitHub annotations and SARIF results name files relative to the repository root, so a corpus
    in a subfolder must prefix its own paths with that folder to land on the right file.
    """
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=root, capture_output=True, text=True, check=False, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    if done.returncode != 0 or not done.stdout.strip():
        return ""
    try:
        relative = root.resolve().relative_to(Path(done.stdout.strip()).resolve())
    except ValueError:
        return ""
    return "" if relative == Path(".") else relative.as_posix() + "/"


def emit(
    diagnostics: list[Diagnostic],
    fmt: str,
    root: Path | None = None,
    err: bool = False,
    checked: dict[str, int] | None = None,
) -> None:
    """Print findings (on stderr with `err`); for github and sarif, paths are made relative to the git
    work tree of `root`. `checked` (how much of each part was read) goes into the text summary and
    the JSON report."""
    from wopgen.report import render_json, render_text

    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    if fmt == "text":
        colour = colour_wanted(sys.stderr if err else sys.stdout)
        click.echo(render_text(ordered, colour=colour, checked=checked), nl=False, color=colour, err=err)
        return
    if fmt == "json":
        click.echo(render_json(ordered, checked=checked), nl=False, err=err)
        return
    prefix = repository_prefix(root) if root is not None and fmt in ("github", "sarif") else ""
    if prefix:
        from dataclasses import replace

        # a settings file outside the corpus (--config) is named by its absolute path: no prefix for it
        ordered = [d if d.path.startswith("/") else replace(d, path=prefix + d.path) for d in ordered]
    click.echo(render_for_tools(fmt, ordered), nl=False, err=err)


def render_for_tools(fmt: str, diagnostics: list[Diagnostic]) -> str:
    """Findings as `json`, `github` workflow commands or `sarif` (whose rule list is the catalogue)."""
    from wopgen.report import RENDERERS, render_sarif

    if fmt == "sarif":
        from wopgen.catalogue import catalogue

        return render_sarif(diagnostics, catalogue())
    return RENDERERS[fmt](diagnostics)


class GlobalOptionsGroup(click.Group):
    """A group whose own options (--root, --config, --color, ...) may also follow the command.

    `wopgen check --root DIR` is read as `wopgen --root DIR check`: before parsing, every option
    of this group found after the command name (up to a `--`) moves in front of it.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self._hoist(ctx, args))

    def _hoist(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes_value: dict[str, bool] = {}
        for param in self.get_params(ctx):
            if isinstance(param, click.Option) and param.expose_value:
                for name in param.opts:
                    takes_value[name] = not param.is_flag and not param.count
        command_at = self._command_index(args, takes_value)
        if command_at is None:
            return args
        head, tail = args[: command_at + 1], args[command_at + 1 :]
        hoisted: list[str] = []
        rest: list[str] = []
        index = 0
        while index < len(tail):
            token = tail[index]
            if token == "--":
                rest.extend(tail[index:])
                break
            name = token.split("=", 1)[0]
            if name in takes_value:
                hoisted.append(token)
                if takes_value[name] and "=" not in token and index + 1 < len(tail):
                    hoisted.append(tail[index + 1])
                    index += 1
            else:
                rest.append(token)
            index += 1
        return hoisted + head + rest

    def _command_index(self, args: list[str], takes_value: dict[str, bool]) -> int | None:
        index = 0
        while index < len(args):
            token = args[index]
            if token == "--":
                return None
            if token.startswith("-"):
                name = token.split("=", 1)[0]
                if takes_value.get(name) and "=" not in token:
                    index += 1
            elif token in self.commands:
                return index
            else:
                return None
            index += 1
        return None


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """--version, as click's own option prints it; the version is looked up only when asked for."""
    if not value or ctx.resilient_parsing:
        return
    from wopgen import __version__

    click.echo(f"wopgen, version {__version__}", color=ctx.color)
    ctx.exit()


@click.group(cls=GlobalOptionsGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    help="Corpus root (default: the nearest parent folder whose pyproject.toml has [tool.wopgen]).",
)
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Read the [tool.wopgen] table from this TOML file instead of the corpus's pyproject.toml "
    "(paths in it stay relative to the corpus root); `wopgen config` lists every setting.",
)
@click.option(
    "--color",
    "color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour the output; auto colours a terminal unless NO_COLOR is set.",
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
@click.pass_context
def cli(ctx: click.Context, root: Path | None, config: Path | None, color: str) -> None:
    """Check, generate from and execute the OpenWOP v1 specification corpus.

    \b
    Global options (--root, --config, --color) may come before or after the command:
    `wopgen --root DIR check` and `wopgen check --root DIR` are the same.
    Exit codes: 0 clean, 1 findings at or above the failing severity, 2 usage or configuration error.
    Start with `wopgen check`; `wopgen rules` lists every rule, `wopgen explain RULE` explains one.
    Shell completion: eval "$(_WOPGEN_COMPLETE=bash_source wopgen)" (zsh_source, fish_source).
    """
    ctx.obj = Context(root, config, color)


def gated_corpus(
    obj: Context, what: str, also: tuple[str, ...] = (), memo: MarkdownMemo | None = None, own_drafts: bool = False
) -> Corpus:
    """The corpus (its pages parsed through `memo` when given), or exit 1 with the findings that stop
    `what` (see `wopgen.checks.gate`)."""
    from wopgen.checks.gate import blocking

    corpus = obj.corpus(memo)
    problems = blocking(corpus, also, own_drafts)
    if problems:
        emit(problems, "text")
        click.echo(f"error: the corpus has problems that stop {what}; fix them first", err=True)
        sys.exit(EXIT_FINDINGS)
    return corpus


force_option = click.option(
    "--force",
    is_flag=True,
    help="Write into a folder that holds other files and no .wopgen-output manifest (they are kept, never "
    "overwritten: if one has the name of a generated file, the run stops before writing anything, exit 2, "
    "naming it). Never allowed for the corpus root, a folder holding corpus files or a .git, or a folder "
    "inside a part of the corpus.",
)


def corpus_parts(corpus: Corpus) -> tuple[Path, ...]:
    """Every folder and file the settings name: the schemas, examples, pages, RFCs, API, invariants
    and changelog (where they are set), and each file an `instances` glob matched."""
    from wopgen.corpus.settings import PARTS

    settings = corpus.settings
    parts = (settings.path(getattr(settings, part)) for part in PARTS if isinstance(getattr(settings, part), str))
    return (*parts, *(settings.path(instance.path) for instance in corpus.instances))


def protected_paths(corpus: Corpus) -> tuple[Path, ...]:
    """What an output folder may never hold: the corpus root and every part the settings name
    (so `--out .`, `--out schemas` or `--out ..` is refused however it is spelt)."""
    return (corpus.root, *corpus_parts(corpus))


def generated_tree(
    obj: Context,
    what: str,
    render: Callable[[Corpus], dict[str, str]],
    out: Path | None,
    check_only: bool,
    also: tuple[str, ...] = (),
    force: bool = False,
    command: str = "",
    own_drafts: bool = False,
) -> None:
    """Shared body of the generating commands: refuse a broken corpus, then write or compare. The
    output's manifest names `command` (default: `what`) as the command that wrote it; `own_drafts`: the
    generator reads each schema in its own draft (see `blocking`)."""
    from wopgen.cli import progress
    from wopgen.generate.writer import WriteError, drift, write_tree

    with progress.stepping(f"wopgen {what}", ("reading the corpus", "generating")) as begin:
        begin("reading the corpus")
        corpus = gated_corpus(obj, what, also, own_drafts=own_drafts)
        begin("generating")
        files = render(corpus)
    target = out if out is not None else corpus.root / "build" / what
    if check_only:
        try:
            difference = drift(files, target, command=command or what)
        except WriteError as exc:
            raise click.UsageError(str(exc)) from None
        if difference.clean:
            click.echo(f"{target}: up to date ({plural(len(files), 'file')})")
            sys.exit(EXIT_CLEAN)
        click.echo(difference.report(), nl=False)
        if difference.foreign:
            click.echo(
                f"{target}: stale, and `wopgen {what}` would refuse to write it: move the files wopgen did not "
                "write out of the folder first",
                err=True,
            )
        else:
            click.echo(f"{target}: stale; run `wopgen {what}` to regenerate", err=True)
        sys.exit(EXIT_FINDINGS)
    try:
        write_tree(files, target, force=force, protected=protected_paths(corpus), command=command or what)
    except WriteError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"wrote {plural(len(files), 'file')} to {target}")

"""The command group, the shared context (corpus root, loading) and the diagnostic printer."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from wopgen import __version__
from wopgen.corpus import Corpus, load
from wopgen.corpus.settings import Settings, SettingsError, find_settings, load_settings
from wopgen.diagnostics import Diagnostic
from wopgen.report import RENDERERS, render_json, render_text

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class Context:
    def __init__(self, root: Path | None) -> None:
        self.explicit_root = root
        self._settings: Settings | None = None

    def settings(self) -> Settings:
        """The corpus settings, read once per command (pyproject.toml is parsed once)."""
        if self._settings is None:
            try:
                if self.explicit_root is not None:
                    self._settings = load_settings(self.explicit_root)
                else:
                    self._settings = find_settings(Path.cwd())
            except SettingsError as exc:
                raise click.UsageError(str(exc)) from None
        return self._settings

    def root(self) -> Path:
        return self.settings().root

    def corpus(self) -> Corpus:
        settings = self.settings()
        try:
            return load(settings.root, settings)
        except SettingsError as exc:
            raise click.UsageError(str(exc)) from None


pass_context = click.make_pass_decorator(Context)


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def emit(diagnostics: list[Diagnostic], fmt: str, checked: dict[str, int] | None = None) -> None:
    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    if fmt == "text":
        click.echo(render_text(ordered, colour=sys.stdout.isatty(), checked=checked), nl=False)
    elif fmt == "json":
        click.echo(render_json(ordered, checked=checked), nl=False)
    else:
        click.echo(RENDERERS[fmt](ordered), nl=False)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    help="Corpus root (default: the nearest parent folder whose pyproject.toml has [tool.wopgen]).",
)
@click.version_option(__version__, prog_name="wopgen")
@click.pass_context
def cli(ctx: click.Context, root: Path | None) -> None:
    """Check, generate from and execute the OpenWOP v1 specification corpus.

    \b
    Exit codes: 0 clean, 1 findings at or above the failing severity, 2 usage or configuration error.
    Start with `wopgen check`; `wopgen rules` lists every rule it can report.
    """
    ctx.obj = Context(root)


def gated_corpus(obj: Context, what: str, also: tuple[str, ...] = ()) -> Corpus:
    """The corpus, or exit 1 with the findings that stop `what` (see `wopgen.checks.gate`)."""
    from wopgen.checks.gate import blocking

    corpus = obj.corpus()
    problems = blocking(corpus, also)
    if problems:
        emit(problems, "text")
        click.echo(f"error: the corpus has problems that stop {what}; fix them first", err=True)
        sys.exit(EXIT_FINDINGS)
    return corpus


force_option = click.option(
    "--force",
    is_flag=True,
    help="Write into a folder that holds other files and no .wopgen-output manifest (they are kept). "
    "Never allowed for the corpus root, a folder holding corpus files or a .git.",
)


def protected_paths(corpus: Corpus) -> tuple[Path, ...]:
    """What an output folder may never hold: the corpus root and every folder the settings name
    (so `--out .`, `--out schemas` or `--out ..` is refused however it is spelt)."""
    from wopgen.corpus.settings import PARTS

    settings = corpus.settings
    named = [settings.path(getattr(settings, part)) for part in PARTS if isinstance(getattr(settings, part), str)]
    return (corpus.root, *named)


def generated_tree(
    obj: Context,
    what: str,
    render: Callable[[Corpus], dict[str, str]],
    out: Path | None,
    check_only: bool,
    also: tuple[str, ...] = (),
    force: bool = False,
) -> None:
    """Shared body of the generating commands: refuse a broken corpus, then write or compare."""
    from wopgen.generate.writer import WriteError, drift, write_tree

    corpus = gated_corpus(obj, what, also)
    files = render(corpus)
    target = out if out is not None else corpus.root / "build" / what
    if check_only:
        difference = drift(files, target)
        if difference.clean:
            click.echo(f"{target}: up to date ({len(files)} files)")
            sys.exit(EXIT_CLEAN)
        click.echo(difference.report(), nl=False)
        click.echo(f"{target}: stale; run `wopgen {what}` to regenerate", err=True)
        sys.exit(EXIT_FINDINGS)
    try:
        write_tree(files, target, force=force, protected=protected_paths(corpus))
    except WriteError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"wrote {len(files)} files to {target}")

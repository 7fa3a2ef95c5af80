"""`wopgen host generate` and `wopgen host serve`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from wopgen.cli.app import EXIT_FINDINGS, Context, cli, emit, force_option, generated_tree, pass_context

if TYPE_CHECKING:
    from wopgen.corpus import Corpus


@cli.group()
def host() -> None:
    """Generate the in-memory OpenWOP host from the corpus, or serve it over HTTP."""


def _render_host(corpus: Corpus) -> dict[str, str]:
    from wopgen.generate.host import HostGenerationError, generate

    try:
        return generate(corpus)
    except HostGenerationError as exc:
        emit(exc.diagnostics, "text")
        click.echo("error: no host can be generated from this corpus; fix the findings first", err=True)
        sys.exit(EXIT_FINDINGS)


def host_files(obj: Context) -> tuple[Corpus, dict[str, str]]:
    """The corpus and the generated host package, or exit 1 with the findings that prevent it."""
    from wopgen.checks.gate import blocking

    corpus = obj.corpus()
    problems = blocking(corpus)
    if problems:
        emit(problems, "text")
        sys.exit(EXIT_FINDINGS)
    return corpus, _render_host(corpus)


@host.command("generate")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Output folder (default: build/host).")
@click.option("--check", "check_only", is_flag=True, help="Write nothing; exit 1 when the folder is out of date.")
@force_option
@pass_context
def host_generate(obj: Context, out: Path | None, check_only: bool, force: bool) -> None:
    """Render the host package (wop_host) from templates/host/ and the corpus.

    \b
    Examples:
      wopgen host generate                    # build/host/wop_host/...
      wopgen host generate --out /tmp/host && PYTHONPATH=/tmp/host python -c "import wop_host"
      wopgen host generate --check            # CI: is build/host up to date?
    """
    generated_tree(obj, "host", _render_host, out, check_only, force=force, command="host generate")


def profile_names(module: object, mutants: bool = False) -> list[str]:
    """The host's profile names; the `mutant-*` test profiles only when asked for."""
    table = module.profiles()  # type: ignore[attr-defined]
    return sorted(name for name, entry in table.items() if mutants or not entry.mutant)


def public_profiles() -> list[str]:
    from wopgen.generate.host_profiles import HONEST

    return [spec.name for spec in HONEST]


def _complete_profile(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return [name for name in public_profiles() if name.startswith(incomplete)]


class _ProfileOption(click.Option):
    """--profile, whose help names the profiles only when it is read: listing them imports the host's
    profile table (and the corpus package), which building the command line for `wopgen --help` or
    any other command must not pay for."""

    def __init__(self, *args: Any, lead: str = "", **kwargs: Any) -> None:
        self.lead = lead
        super().__init__(*args, **kwargs)

    @property
    def help(self) -> str:
        return f"{self.lead} One of: {', '.join(public_profiles())}."

    @help.setter
    def help(self, _value: str | None) -> None:
        """click sets the help text once; this option words its own."""


def profile_option(help_text: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """--profile NAME: its help lists the user-facing profiles; the mutant-* test ones stay out of sight."""
    return click.option(
        "--profile",
        cls=_ProfileOption,
        lead=help_text,
        default="full",
        show_default=True,
        metavar="NAME",
        shell_complete=_complete_profile,
    )


def unknown_profile(module: object) -> click.BadParameter:
    return click.BadParameter(
        f"choose one of {', '.join(profile_names(module))} "
        "(`wopgen host profiles --mutants` also lists the mutant-* profiles the tests use)",
        param_hint="--profile",
    )


@host.command("profiles")
@click.option("--mutants", is_flag=True, help="Also list the mutant-* profiles, which break one promise each.")
def host_profiles(mutants: bool) -> None:
    """List the host profiles: what each advertises (and, with --mutants, the test-only defects)."""
    from wopgen.generate.host_profiles import PROFILES

    for spec in PROFILES:
        if mutants or not spec.mutant:
            click.echo(f"{spec.name:<34}  {spec.description}")


def _suites(folder: Path | None) -> dict[str, str]:
    if folder is None:
        return {}
    try:
        return {str(p): p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.json"))}
    except (OSError, UnicodeDecodeError) as exc:
        raise click.UsageError(f"cannot read the suites in {folder}: {exc}") from None


@host.command("serve")
@click.option("--host", "bind", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8737, show_default=True, type=click.IntRange(0, 65535), help="Port (0: any free).")
@click.option("--api-key", envvar="WOPGEN_API_KEY", help="Bearer key clients must send [env: WOPGEN_API_KEY].")
@profile_option("What the host advertises and implements.")
@click.option(
    "--suites", type=click.Path(file_okay=False, exists=True, path_type=Path), help="Folder of extra eval suites."
)
@click.option(
    "--second-api-key",
    envvar="WOPGEN_SECOND_API_KEY",
    help=(
        "A key of another owner scope: it may start runs, and its reads of the first key's runs are answered"
        " 404, as for an unknown run."
    ),
)
@click.option(
    "--max-runs", type=click.IntRange(1), help="Runs kept before the oldest finished ones are evicted [default: 1000]."
)
@click.option(
    "--max-run-bytes",
    type=click.IntRange(1),
    help="Bytes the kept runs may weigh, about as serialised (an event: its payload + 128) [default: 32 MiB].",
)
@click.option("--max-streams", type=click.IntRange(1), help="Event streams open at once [default: 64].")
@click.option(
    "--fixtures",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="Folder of fixture workflows (one workflow definition per *.json) to load beside the built-in catalogue.",
)
@click.option("--quiet", is_flag=True, help="Do not log requests.")
@pass_context
def host_serve(
    obj: Context,
    bind: str,
    port: int,
    api_key: str | None,
    profile: str,
    suites: Path | None,
    second_api_key: str | None,
    max_runs: int | None,
    max_run_bytes: int | None,
    max_streams: int | None,
    fixtures: Path | None,
    quiet: bool,
) -> None:
    """Serve the generated host over HTTP until interrupted.

    The host is that of the corpus around the working folder (or --root / --config); outside any
    corpus, that of the OpenWOP v1 slice shipped with wopgen. Discovery (GET /.well-known/openwop) is public; every other operation needs
    `Authorization: Bearer <key>`. Without --api-key or WOPGEN_API_KEY a key is generated and printed.
    The run store, stream and per-request CPU limits are advertised under `extensions.wopgen` of the
    discovery document. The internal test doubles (`wopgen host profiles --mutants`) bind 127.0.0.1 only.

    \b
    Examples:
      wopgen host serve --port 8737 --api-key dev-key
      wopgen host serve --profile v4-only             # advertise and implement rungs 1-4 only
      wopgen host serve --suites ./my-suites          # more eval suites, one *.json each
      wopgen host serve --fixtures ./catalogue        # more fixture workflows, one *.json each
      wopgen host serve --api-key a --second-api-key b   # two owner scopes (404 across them)
      wopgen host serve --max-runs 200 --max-run-bytes 8000000   # a smaller run store
      curl -s localhost:8737/.well-known/openwop
    """
    import secrets

    from wopgen.conformance.inprocess import load_package
    from wopgen.generate.host import PACKAGE

    obj.allow_shipped()
    _, files = host_files(obj)
    module = load_package(files, PACKAGE)
    if profile not in module.profiles():
        raise unknown_profile(module)
    key = api_key or secrets.token_urlsafe(24)
    try:
        others = [second_api_key] if second_api_key else []
        limits = {"max_runs": max_runs, "max_run_bytes": max_run_bytes, "max_streams": max_streams}
        chosen = {name: value for name, value in limits.items() if value is not None}
        instance = module.Host(profile, api_key=key, suites=_suites(suites), other_keys=others, **chosen)
        if fixtures is not None:
            instance.load_fixtures(fixtures)
        server = module.make_server(instance, bind, port, quiet=quiet)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        raise click.UsageError(f"cannot listen on {bind}:{port}: {exc.strerror or exc}") from None
    address, bound_port = server.server_address[:2]
    click.echo(f"serving profile {profile} at http://{address}:{bound_port}")
    if not api_key:
        click.echo(f"api key: {key}")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()

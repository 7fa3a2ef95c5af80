"""The `wopgen` command line: parse options, call a function, render the result. Nothing more."""

from __future__ import annotations

import datetime as dt
import getpass
import sys
from collections.abc import Callable
from pathlib import Path

import click

from wopgen import __version__
from wopgen.corpus import Corpus, load
from wopgen.diagnostics import Diagnostic, Severity, fails, select
from wopgen.render import RENDERERS, render_text
from wopgen.settings import SettingsError, find_root, load_settings

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class Context:
    def __init__(self, root: Path | None) -> None:
        self.explicit_root = root

    def root(self) -> Path:
        try:
            if self.explicit_root is not None:
                load_settings(self.explicit_root)  # fail early with a clear message
                return self.explicit_root.resolve()
            return find_root(Path.cwd())
        except SettingsError as exc:
            raise click.UsageError(str(exc)) from None

    def corpus(self) -> Corpus:
        root = self.root()
        try:
            return load(root)
        except SettingsError as exc:
            raise click.UsageError(str(exc)) from None


pass_context = click.make_pass_decorator(Context)


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def emit(diagnostics: list[Diagnostic], fmt: str) -> None:
    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    if fmt == "text":
        click.echo(render_text(ordered, colour=sys.stdout.isatty()), nl=False)
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


@cli.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github", "sarif"]),
    default="text",
    show_default=True,
    help="How to print the findings.",
)
@click.option(
    "--select",
    "include",
    multiple=True,
    metavar="IDS",
    help="Only report these rule ids or prefixes (comma-separated or repeated), e.g. schema-,rfc-status.",
)
@click.option(
    "--ignore",
    "exclude",
    multiple=True,
    metavar="IDS",
    help="Do not report these rule ids or prefixes, e.g. schema-defs-unused.",
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info"]),
    default="error",
    show_default=True,
    help="Lowest severity that makes the exit code 1.",
)
@click.option(
    "--against",
    metavar="REF|DIR",
    default=None,
    help="Also run `wopgen compat` against this git ref or corpus folder (default: [tool.wopgen] baseline).",
)
@pass_context
def check(
    obj: Context, fmt: str, include: tuple[str, ...], exclude: tuple[str, ...], fail_on: str, against: str | None
) -> None:
    """Check the whole corpus: schemas, examples, RFCs, prose, changelog, invariants.

    \b
    Examples:
      wopgen check
      wopgen check --format github          # annotations in a GitHub Actions log
      wopgen check --select schema-,example- --ignore schema-defs-unused
      wopgen check --against main           # and prove every change since main is additive
    """
    from wopgen.checks import run_all

    corpus = obj.corpus()
    found = list(run_all(corpus))
    found.extend(_compat_findings(corpus, against))
    diagnostics = select(found, _split(include), _split(exclude))
    emit(diagnostics, fmt)
    sys.exit(EXIT_FINDINGS if fails(diagnostics, Severity(fail_on)) else EXIT_CLEAN)


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules(fmt: str) -> None:
    """List every rule id with its default severity and what it means."""
    from wopgen.rules import catalogue

    items = catalogue()
    if fmt == "json":
        import json

        click.echo(
            json.dumps(
                [{"id": r.id, "severity": r.severity.value, "summary": r.summary, "example": r.example} for r in items],
                indent=2,
            )
        )
    elif fmt == "markdown":
        click.echo("| Rule | Severity | Meaning |\n|---|---|---|")
        for r in items:
            click.echo(f"| `{r.id}` | {r.severity.value} | {r.summary} |")
    else:
        width = max(len(r.id) for r in items)
        for r in items:
            click.echo(f"{r.id.ljust(width)}  {r.severity.value:<7}  {r.summary}")


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
    from wopgen.rfctool import new_rfc

    if not title.strip():
        raise click.UsageError("the title must not be empty")
    corpus = obj.corpus()
    relative, text = new_rfc(corpus, title, author or getpass.getuser(), dt.date.today())
    target = corpus.root / relative
    if target.exists():
        raise click.UsageError(f"{relative} already exists")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    click.echo(relative)


@rfc.command("list")
@pass_context
def rfc_list(obj: Context) -> None:
    """Print number, status, compatibility and title of every RFC."""
    from wopgen.rfctool import rfc_rows

    for number, status, compat, title in rfc_rows(obj.corpus()):
        click.echo(f"{number}  {status:<10}  {compat:<11}  {title}")


# --- wopgen compat -----------------------------------------------------------------------------


def _compat_findings(corpus: Corpus, against: str | None) -> list[Diagnostic]:
    """The compat findings for `check`: against --against, else the configured baseline if present."""
    from wopgen.compat import compare_against
    from wopgen.compat.source import SourceError, baseline_available

    if against is None:
        baseline = corpus.settings.baseline
        if not baseline:
            return []
        if not baseline_available(corpus.root, baseline):
            from wopgen.compat.rules import BASELINE_UNAVAILABLE

            click.echo(f"note: baseline {baseline!r} is not in this checkout's git history; compat skipped", err=True)
            line = _setting_line(corpus.root / "pyproject.toml", "baseline")
            message = f"baseline {baseline!r} is not in this checkout's git history; the compat comparison was skipped"
            hint = "fetch it (git fetch origin <ref>, or a deeper clone) or change [tool.wopgen] baseline"
            return [BASELINE_UNAVAILABLE.at("pyproject.toml", line, message, hint)]
        folder = corpus.root / baseline
        against = str(folder) if folder.is_dir() else baseline
    try:
        return [c.to_diagnostic() for c in compare_against(against, corpus)]
    except SourceError as exc:
        raise click.UsageError(str(exc)) from None


def _setting_line(pyproject: Path, key: str) -> int:
    try:
        lines = pyproject.read_text(encoding="utf-8").splitlines()
    except OSError:
        return 1
    return next((n for n, text in enumerate(lines, 1) if text.strip().startswith(f"{key} ")), 1)


@cli.command()
@click.option(
    "--against", required=True, metavar="REF|DIR", help="The base: a git ref (branch, tag, commit) or a corpus folder."
)
@click.option("--head", default=None, metavar="REF|DIR", help="The head (default: the corpus in the work tree).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="text (grouped by file), json (documented shape), markdown (pull-request comment / changelog draft).",
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning"]),
    default="error",
    show_default=True,
    help="Lowest severity that makes the exit code 1.",
)
@pass_context
def compat(obj: Context, against: str, head: str | None, fmt: str, fail_on: str) -> None:
    """Prove that every change from a base version of the corpus to the head is additive.

    Schemas are compared by meaning ($refs resolved, key order and $def names ignored) and by the
    direction each declares in x-wop-direction; error codes, spec/api operations and RFC metadata
    are compared too. A breaking change is an error unless an Active or Accepted RFC with
    Compatibility `breaking` or `safety-fix` names the file in Affects. A git ref is read with
    `git archive`, never by checking it out. `wopgen rules` lists every compat- rule.

    \b
    Examples:
      wopgen compat --against main
      wopgen compat --against v1.0.0 --head HEAD --format markdown > compat.md
      wopgen compat --against ../old-corpus --format json
      wopgen compat --against origin/main --fail-on warning
    """
    from wopgen.compat import compare_against, compare_specs
    from wopgen.compat.report import RENDERERS
    from wopgen.compat.source import SourceError

    try:
        if head is None:
            corpus = obj.corpus()
            changes = compare_against(against, corpus)
        else:
            root = obj.root()
            changes = compare_specs(against, head, root, load_settings(root))
    except SourceError as exc:
        raise click.UsageError(str(exc)) from None
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(RENDERERS[fmt](changes, against, head or "work tree"), nl=False)
    failing = Severity(fail_on)
    sys.exit(EXIT_FINDINGS if any(c.severity.rank >= failing.rank for c in changes) else EXIT_CLEAN)


# --- models and api (generated trees) -----------------------------------------------------------


def _generated_tree(
    obj: Context, what: str, render: Callable[[Corpus], dict[str, str]], out: Path | None, check_only: bool
) -> None:
    """Shared body of the generating commands: refuse a broken corpus, then write or compare."""
    from wopgen.generate.gate import blocking
    from wopgen.generate.writer import WriteError, drift, write_tree

    corpus = obj.corpus()
    problems = blocking(corpus)
    if problems:
        emit(problems, "text")
        click.echo(f"error: the corpus has problems that stop {what}; fix them first", err=True)
        sys.exit(EXIT_FINDINGS)
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
        write_tree(files, target)
    except WriteError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"wrote {len(files)} files to {target}")


@cli.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Output folder (default: build/models).")
@click.option("--check", "check_only", is_flag=True, help="Write nothing; exit 1 and show the diff if --out is stale.")
@pass_context
def models(obj: Context, out: Path | None, check_only: bool) -> None:
    """Generate typed Pydantic v2 models from the schemas.

    One importable package (name from `[tool.wopgen] models-package`, default `wop_models`) with a
    module per schema, `py.typed`, and `parse_run_event(obj)`, which returns a run event with the
    payload typed for its `type` (an unknown type gives `UnknownRunEvent`, never an error).
    Generated by datamodel-code-generator; the output is the same byte for byte on every run.

    \b
    Examples:
      wopgen models                        # writes build/models/wop_models/
      wopgen models --out sdk/src          # writes sdk/src/wop_models/
      wopgen models --out sdk/src --check  # CI: exit 1 and print the diff when stale
      PYTHONPATH=build/models python -c "import wop_models; print(wop_models.__all__)"
    """
    from wopgen.generate.models import ModelsError, ModelsSettingsError, generate_models

    def render(corpus: Corpus) -> dict[str, str]:
        try:
            return generate_models(corpus)
        except ModelsSettingsError as exc:
            raise click.UsageError(str(exc)) from None
        except ModelsError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_FINDINGS)

    _generated_tree(obj, "models", render, out, check_only)


@cli.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Output folder (default: build/api).")
@click.option("--check", "check_only", is_flag=True, help="Write nothing; exit 1 and show the diff if --out is stale.")
@pass_context
def api(obj: Context, out: Path | None, check_only: bool) -> None:
    """Generate openapi.yaml (OpenAPI 3.1) and asyncapi.yaml (AsyncAPI 3.0) from spec/api/.

    Both files are bundled: the schemas they use are copied into `components/schemas`, so each
    file works on its own in standard tools. `wopgen check` validates them (rules `api-*`).

    \b
    Examples:
      wopgen api                          # writes build/api/openapi.yaml and build/api/asyncapi.yaml
      wopgen api --out docs/api           # somewhere else
      wopgen api --out docs/api --check   # CI: exit 1 and print the diff when stale
      wopgen check --select api-          # only the API description rules
    """
    from wopgen.generate.api import ApiError, generate_api

    def render(corpus: Corpus) -> dict[str, str]:
        try:
            return generate_api(corpus)
        except ApiError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_FINDINGS)

    _generated_tree(obj, "api", render, out, check_only)


# --- host and conformance (the spec, executed) -------------------------------------------------


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


def _host_files(obj: Context) -> tuple[Corpus, dict[str, str]]:
    """The corpus and the generated host package, or exit 1 with the findings that prevent it."""
    from wopgen.generate.gate import blocking

    corpus = obj.corpus()
    problems = blocking(corpus)
    if problems:
        emit(problems, "text")
        sys.exit(EXIT_FINDINGS)
    return corpus, _render_host(corpus)


@host.command("generate")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Output folder (default: build/host).")
@click.option("--check", "check_only", is_flag=True, help="Write nothing; exit 1 when the folder is out of date.")
@pass_context
def host_generate(obj: Context, out: Path | None, check_only: bool) -> None:
    """Render the host package (wop_host) from templates/host/ and the corpus.

    \b
    Examples:
      wopgen host generate                    # build/host/wop_host/...
      wopgen host generate --out /tmp/host && PYTHONPATH=/tmp/host python -c "import wop_host"
      wopgen host generate --check            # CI: is build/host up to date?
    """
    _generated_tree(obj, "host", _render_host, out, check_only)


def _profile_names(module: object) -> list[str]:
    return sorted(module.profiles())  # type: ignore[attr-defined]


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
@click.option("--profile", default="full", show_default=True, help="What the host advertises and implements.")
@click.option(
    "--suites", type=click.Path(file_okay=False, exists=True, path_type=Path), help="Folder of extra eval suites."
)
@click.option("--quiet", is_flag=True, help="Do not log requests.")
@pass_context
def host_serve(
    obj: Context, bind: str, port: int, api_key: str | None, profile: str, suites: Path | None, quiet: bool
) -> None:
    """Serve the generated host over HTTP until interrupted.

    Discovery (GET /.well-known/openwop) is public; every other operation needs
    `Authorization: Bearer <key>`. Without --api-key or WOPGEN_API_KEY a key is generated and printed.

    \b
    Examples:
      wopgen host serve --port 8737 --api-key dev-key
      wopgen host serve --profile v4-only             # advertise and implement rungs 1-4 only
      wopgen host serve --suites ./my-suites          # more eval suites, one *.json each
      curl -s localhost:8737/.well-known/openwop
    """
    import secrets

    from wopgen.conformance.inprocess import load_package
    from wopgen.generate.host import PACKAGE

    _, files = _host_files(obj)
    module = load_package(files, PACKAGE)
    if profile not in module.profiles():
        raise click.BadParameter(f"choose one of {', '.join(_profile_names(module))}", param_hint="--profile")
    key = api_key or secrets.token_urlsafe(24)
    try:
        instance = module.Host(profile, api_key=key, suites=_suites(suites))
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


@cli.command()
@click.option("--url", help="Base URL of a running host (default: a freshly generated host, in-process).")
@click.option("--api-key", envvar="WOPGEN_API_KEY", help="Bearer key for --url [env: WOPGEN_API_KEY].")
@click.option("--profile", default="full", show_default=True, help="Profile of the in-process host.")
@click.option(
    "--strict",
    is_flag=True,
    envvar="OPENWOP_REQUIRE_BEHAVIOR",
    help="A skipped scenario fails [env: OPENWOP_REQUIRE_BEHAVIOR=true].",
)
@click.option(
    "--opt-out",
    "opt_out",
    multiple=True,
    envvar="OPENWOP_OPTED_OUT_PROFILES",
    metavar="NAMES",
    help="Scenarios that may skip even in strict mode [env: OPENWOP_OPTED_OUT_PROFILES].",
)
@click.option("--select", "only", multiple=True, metavar="NAMES", help="Run only these scenarios.")
@click.option(
    "--report", type=click.Path(dir_okay=False, path_type=Path), help="Also write FILE.json or FILE.xml (JUnit)."
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@pass_context
def conformance(
    obj: Context,
    url: str | None,
    api_key: str | None,
    profile: str,
    strict: bool,
    opt_out: tuple[str, ...],
    only: tuple[str, ...],
    report: Path | None,
    fmt: str,
) -> None:
    """Run the spec's conformance scenarios against a host.

    Shape scenarios always run; behaviour scenarios run when the host advertises what they need
    (read from the root of its discovery document) and skip with the reason otherwise.

    \b
    Examples:
      wopgen conformance                                   # the generated host, in-process
      wopgen conformance --profile v4-only                 # rungs 5-6 and evaluation skip
      wopgen conformance --url http://127.0.0.1:8737 --api-key dev-key --strict
      wopgen conformance --report conformance.xml          # JUnit for CI
    Exit codes: 0 no scenario failed, 1 a scenario failed, 2 usage error (bad option, unreachable host).
    """
    from wopgen.conformance import report as reports
    from wopgen.conformance.inprocess import in_process, load_package
    from wopgen.conformance.runner import DiscoveryError, run
    from wopgen.conformance.scenarios import BY_NAME, SCENARIOS
    from wopgen.conformance.transport import Http, Transport

    if report is not None and report.suffix not in (".json", ".xml"):
        raise click.BadParameter("the report file must end in .json or .xml", param_hint="--report")
    names = _split(only)
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        raise click.BadParameter(f"unknown scenario {', '.join(unknown)}", param_hint="--select")
    scenarios = [s for s in SCENARIOS if not names or s.name in names]
    transport: Transport
    if url:
        if not url.startswith(("http://", "https://")):
            raise click.BadParameter("give an http:// or https:// URL", param_hint="--url")
        if not api_key:
            raise click.UsageError("--url needs --api-key (or WOPGEN_API_KEY)")
        corpus = obj.corpus()
        transport = Http(url, api_key)
    else:
        corpus, files = _host_files(obj)
        from wopgen.generate.host import PACKAGE

        module = load_package(files, PACKAGE)
        if profile not in module.profiles():
            raise click.BadParameter(f"choose one of {', '.join(_profile_names(module))}", param_hint="--profile")
        transport = in_process(module, profile)
    try:
        results = run(scenarios, transport, corpus, strict=strict, opted_out=frozenset(_split(opt_out)))
    except DiscoveryError as exc:
        raise click.UsageError(str(exc)) from None
    target = transport.description
    click.echo(reports.as_json(results, target, strict) if fmt == "json" else reports.text(results, target), nl=False)
    if report is not None:
        body = reports.as_json(results, target, strict) if report.suffix == ".json" else reports.junit(results, target)
        try:
            report.write_text(body, encoding="utf-8")
        except OSError as exc:
            raise click.UsageError(f"cannot write {report}: {exc.strerror or exc}") from None
    sys.exit(EXIT_FINDINGS if any(r.status == "failed" for r in results) else EXIT_CLEAN)


# --- site (docs site) --------------------------------------------------------------------------


@cli.group()
def site() -> None:
    """Build or preview the docs site (mkdocs-material), rendered from the corpus.

    \b
    Examples:
      wopgen site build                  # into build/site
      wopgen site build --out public     # into ./public
      wopgen site serve --port 8001      # preview on http://127.0.0.1:8001 with live reload
    """


@site.command("build")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder, replaced atomically (default: build/site under the corpus root).",
)
@pass_context
def site_build(obj: Context, out: Path | None) -> None:
    """Render every page from the corpus and build the site with `mkdocs build --strict`.

    \b
    A broken link, a missing #anchor or any other mkdocs warning fails the build (exit 1) and
    prints what mkdocs said; the output folder is then left as it was. The same corpus always
    gives a byte-identical site.
    \b
    Examples:
      wopgen site build
      wopgen --root ../other-corpus site build --out /tmp/other-site
    """
    from wopgen.sitebuild import SiteBuildError, WriteError, build

    corpus = obj.corpus()
    target = out if out is not None else corpus.root / "build" / "site"
    try:
        count = build(corpus, target)
    except SiteBuildError as exc:
        click.echo(f"wopgen site build: mkdocs refused the site:\n{exc}", err=True)
        sys.exit(EXIT_FINDINGS)
    except WriteError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"built {count} files into {target}")


@site.command("serve")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port on 127.0.0.1.")
@pass_context
def site_serve(obj: Context, port: int) -> None:
    """Preview the site on 127.0.0.1 with live reload (mkdocs serve); edits to the corpus re-render.

    \b
    Example:
      wopgen site serve --port 8001      # then open http://127.0.0.1:8001/
    """
    from wopgen.sitebuild import serve

    serve(obj.corpus(), port)


def main() -> None:
    try:
        cli.main(standalone_mode=True)
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()

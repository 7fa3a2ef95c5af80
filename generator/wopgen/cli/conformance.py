"""`wopgen conformance`: run the scenarios in-process or against a host over HTTP."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import click
from click.core import ParameterSource

from wopgen.cli.app import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    Context,
    FiniteFloatRange,
    _split,
    cli,
    corpus_parts,
    pass_context,
)
from wopgen.cli.host import host_files, profile_option, unknown_profile

if TYPE_CHECKING:
    from wopgen.corpus import Corpus


def _scenario_names(values: tuple[str, ...], known: Mapping[str, object], option: str) -> tuple[str, ...]:
    """The scenario names given to --select or --opt-out; an unknown one is a usage error (exit 2)."""
    names = _split(values)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise click.BadParameter(
            f"unknown scenario {', '.join(unknown)}; the names are the ones `wopgen conformance` prints",
            param_hint=option,
        )
    return names


def _check_url(url: str) -> None:
    """Refuse a --url the HTTP client could not even try: a scheme other than http(s), no host, a bad port."""
    parts = None
    problem = "give an http:// or https:// URL"
    if not url:  # an unset variable in `--url "$HOST"` must not quietly test the in-process host instead
        problem = "the URL is empty; give an http:// or https:// URL, or leave --url out to test the in-process host"
    elif url.startswith(("http://", "https://")):
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - raises ValueError on a port that is not a number in 0-65535
        except ValueError as exc:
            problem = f"{url!r} is not a valid URL ({exc})"
            parts = None
        else:
            if not parts.hostname:
                problem = f"{url!r} names no host"
                parts = None
    if parts is None:
        raise click.BadParameter(problem, param_hint="--url")


def _check_spec(corpus: Corpus) -> None:
    """Refuse, before any request, a corpus that lacks the schemas the scenarios hold a host to (one
    `wopgen init` wrote, say): the run would stop on what the spec lacks and blame the host for it."""
    from wopgen.generate.host import missing_schemas

    missing = missing_schemas(corpus)
    if missing:
        raise click.UsageError(
            f"the corpus at {corpus.root} cannot be the spec a host is tested against: "
            + "; ".join(d.message for d in missing)
            + ". Run `wopgen conformance` outside any corpus to test against the OpenWOP v1 slice shipped "
            "with wopgen, or pass --root to name a corpus that has them"
        )


def _check_report_folder(report: Path) -> None:
    """Refuse a --report whose folder is missing, is not a folder or cannot be written, before anything
    runs: the report is written last, so otherwise a whole run is spent before the path is refused.
    The folder is the one the writer writes into, the real one a symlinked --report points into."""
    folder = os.path.dirname(os.path.realpath(report))
    problem = None
    if not os.path.exists(folder):  # no OSError, unlike Path.exists
        problem = f"its folder {folder} does not exist; create it or choose another path"
    elif not os.path.isdir(folder):
        problem = f"{folder} is not a folder; choose another path"
    elif not os.access(folder, os.W_OK | os.X_OK):
        problem = f"its folder {folder} cannot be written; choose another path"
    if problem is not None:
        raise click.BadParameter(f"cannot write {report}: {problem}", param_hint="--report")


def _check_report(report: Path, corpus: Corpus) -> None:
    """Refuse a --report that is a corpus file or lies in a corpus folder, or that would replace a file
    other than an earlier report: checked before the run, so no run is spent on a report never written."""
    from wopgen.conformance.report import is_report
    from wopgen.generate.writer import file_refusal

    problem = file_refusal(report, corpus_parts(corpus))
    if problem is None and os.path.exists(report) and not is_report(report):  # no OSError, unlike Path.exists
        problem = (
            f"refusing to replace {report}: it is not a report of `wopgen conformance`; "
            "remove it or choose another file"
        )
    if problem is not None:
        raise click.BadParameter(problem, param_hint="--report")


@cli.command()
@click.option("--url", help="Base URL of a running host (default: a freshly generated host, in-process).")
@click.option("--api-key", envvar="WOPGEN_API_KEY", help="Bearer key for --url [env: WOPGEN_API_KEY].")
@click.option(
    "--second-api-key",
    envvar="WOPGEN_SECOND_API_KEY",
    help=(
        "For --url: a key of another owner scope, to check that runs it does not own are refused (403 or 404)"
        " [env: WOPGEN_SECOND_API_KEY]."
    ),
)
@profile_option("Profile of the in-process host.")
@click.option(
    "--strict",
    is_flag=True,
    envvar="OPENWOP_REQUIRE_BEHAVIOR",
    help=(
        "A skipped scenario fails, unless --opt-out names it or it checks how a host refuses what it does not"
        " offer and the host offers it [env: OPENWOP_REQUIRE_BEHAVIOR=true]."
    ),
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
    "--report",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write FILE.json or FILE.xml (JUnit); replaces only an earlier report, never a corpus file.",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option(
    "--timeout",
    type=FiniteFloatRange(min=0.1, max=300),
    default=5.0,
    show_default=True,
    help="For --url: seconds each request and each event-stream read may take.",
)
@click.option(
    "--max-seconds",
    type=FiniteFloatRange(min=1, max=86400),
    default=300.0,
    show_default=True,
    help="For --url: seconds the whole run may take; scenarios not started by then are reported as not run.",
)
@pass_context
def conformance(
    obj: Context,
    url: str | None,
    api_key: str | None,
    second_api_key: str | None,
    profile: str,
    strict: bool,
    opt_out: tuple[str, ...],
    only: tuple[str, ...],
    report: Path | None,
    fmt: str,
    timeout: float,
    max_seconds: float,
) -> None:
    """Run the spec's conformance scenarios against a host.

    Core scenarios (the run surface, cancel, workflows) always run; behaviour scenarios run when the
    host advertises what they need (read from the root of its discovery document) and skip with the
    reason otherwise, and a scenario about refusing what a host does not offer skips a host that
    offers it.

    \b
    Examples:
      wopgen conformance                                   # the generated host, in-process
      wopgen conformance --profile v4-only                 # rungs 5-6 and evaluation skip
      wopgen conformance --url http://127.0.0.1:8737 --api-key dev-key --strict
      wopgen conformance --url URL --api-key a --second-api-key b   # also check runs across owners
      wopgen conformance --report conformance.xml          # JUnit for CI

    The spec is the corpus around the working folder (or --root / --config); outside any corpus
    it is the OpenWOP v1 slice shipped with wopgen, so a host implementer needs no checkout.
    Corpus scenarios check the corpus's schemas and never talk to the host: they are
    reported apart and never count as host passes. Every failed assertion is listed with the
    spec clause it enforces, the request, the status and an excerpt of the body. Over --url,
    each request and stream read is bounded by --timeout and the run by --max-seconds; a
    redirect to another origin is refused (the key is never sent there) and reported.
    --report is written atomically and replaces only an earlier report: a corpus file, or any
    other file already at that path, is refused before the run starts, and so is a path whose
    folder is missing or cannot be written.

    Exit codes: 0 no scenario failed, 1 a scenario failed, 2 usage error (bad option, a
    refused --report, unreachable host, an --api-key or --second-api-key the host refuses with 401,
    a corpus around the working folder that lacks the schemas the scenarios hold a host to).
    """
    from wopgen.conformance import report as reports
    from wopgen.conformance.inprocess import in_process, load_package
    from wopgen.conformance.runner import DiscoveryError, KeyRefused, check_key, discover, run
    from wopgen.conformance.scenarios import BY_NAME, SCENARIOS
    from wopgen.conformance.transport import Http, Transport

    obj.allow_shipped()
    if report is not None and report.suffix not in (".json", ".xml"):
        raise click.BadParameter("the report file must end in .json or .xml", param_hint="--report")
    if report is not None:
        _check_report_folder(report)
    names = _scenario_names(only, BY_NAME, "--select")
    opted_out = _scenario_names(opt_out, BY_NAME, "--opt-out")
    scenarios = [s for s in SCENARIOS if not names or s.name in names]
    transport: Transport
    deadline: float | None = None
    if url is not None:
        _check_url(url)
        if click.get_current_context().get_parameter_source("profile") is not ParameterSource.DEFAULT:
            raise click.UsageError(
                "--profile chooses a profile of the in-process host; with --url the host at that URL is tested "
                "as it advertises itself"
            )
        if not api_key:
            raise click.UsageError("--url needs --api-key (or WOPGEN_API_KEY)")
        if second_api_key == api_key:  # one scope: its runs are readable, and that is no owner-scope breach
            raise click.BadParameter(
                "it is the --api-key; give a key of another owner scope", param_hint="--second-api-key"
            )
        corpus = obj.corpus()
        deadline = time.monotonic() + max_seconds
        transport = Http(url, api_key, timeout=timeout, second_key=second_api_key, deadline=deadline)
    else:
        corpus, files = host_files(obj)
        from wopgen.generate.host import PACKAGE

        module = load_package(files, PACKAGE)
        if profile not in module.profiles():
            raise unknown_profile(module)
        transport = in_process(module, profile)
    if report is not None:
        _check_report(report, corpus)
    if url is not None:
        _check_spec(corpus)
    from wopgen.cli import progress

    try:
        if url is not None:
            discover(transport)
            check_key(transport)
        with progress.counting("conformance") as tick:
            results = run(
                scenarios,
                transport,
                corpus,
                strict=strict,
                opted_out=frozenset(opted_out),
                deadline=deadline,
                progress=tick,
            )
    except (DiscoveryError, KeyRefused) as exc:
        raise click.UsageError(str(exc)) from None
    target = transport.description
    refused = transport.refused_redirects
    shown = (
        reports.as_json(results, target, strict, refused) if fmt == "json" else reports.text(results, target, refused)
    )
    click.echo(shown, nl=False)
    if report is not None:
        body = (
            reports.as_json(results, target, strict, refused)
            if report.suffix == ".json"
            else reports.junit(results, target)
        )
        from wopgen.generate.writer import WriteError, write_file

        try:
            write_file(body, report)
        except WriteError as exc:
            raise click.UsageError(str(exc)) from None
    sys.exit(EXIT_FINDINGS if any(r.status == "failed" for r in results) else EXIT_CLEAN)

"""`wopgen conformance` refuses malformed --url, --select, --opt-out, --timeout and --max-seconds values with exit 2,
never a traceback, and a --report that would replace a corpus file or any file but an earlier report; the HTTP transport
turns a URL or reply the client cannot handle into a transport failure."""

from __future__ import annotations

import errno
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from host.host_helpers import KEY
from wopgen.cli import cli
from wopgen.cli.app import FiniteFloatRange
from wopgen.conformance.report import is_report
from wopgen.conformance.runner import DiscoveryError, discover
from wopgen.conformance.transport import Http, TransportError


def _conformance(root, *args: str):
    return CliRunner().invoke(cli, ["--root", str(root), "conformance", *args], catch_exceptions=False)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://[::1", "Invalid IPv6 URL"),
        ("http://h:abc/", "not a valid URL"),
        ("http://h:99999/", "Port out of range"),
        ("http://:8080/", "names no host"),
        ("ftp://h/", "give an http:// or https:// URL"),
        ("", "the URL is empty"),  # not the in-process host, which --url left out tests
    ],
)
def test_a_malformed_url_is_a_usage_error(repo_corpus, url, message):
    result = _conformance(repo_corpus.root, "--url", url, "--api-key", "k")
    assert result.exit_code == 2, result.output
    assert "Invalid value for --url" in result.output and message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("option", ["--select", "--opt-out"])
def test_unknown_scenario_names_are_refused_by_select_and_opt_out_alike(repo_corpus, option):
    result = _conformance(
        repo_corpus.root, option, "core-run-surface,nope", "--url", "http://127.0.0.1:9", "--api-key", "k"
    )
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {option}: unknown scenario nope" in result.output


def test_the_opt_out_variable_is_checked_too(repo_corpus):
    result = CliRunner(env={"OPENWOP_OPTED_OUT_PROFILES": "typo"}).invoke(
        cli,
        ["--root", str(repo_corpus.root), "conformance", "--url", "http://127.0.0.1:9", "--api-key", "k"],
        catch_exceptions=False,
    )
    assert result.exit_code == 2 and "Invalid value for --opt-out: unknown scenario typo" in result.output


@pytest.mark.parametrize("option", ["--timeout", "--max-seconds"])
@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf"])
def test_a_float_option_that_is_not_a_finite_number_is_a_usage_error(repo_corpus, option, value):
    # nan passes every range bound, so it used to reach the HTTP client or lift the run's budget
    result = _conformance(repo_corpus.root, option, value, "--url", "http://127.0.0.1:9", "--api-key", "k")
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}': '{value}' is not a finite number" in result.output


def test_every_float_option_refuses_nan_and_inf():
    def commands(command: click.Command) -> Iterator[click.Command]:
        yield command
        if isinstance(command, click.Group):
            for sub in command.commands.values():
                yield from commands(sub)

    floats = [
        (command.name, param.name)
        for command in commands(cli)
        for param in command.params
        if isinstance(param.type, click.types.FloatParamType) and not isinstance(param.type, FiniteFloatRange)
    ]
    assert floats == []


@pytest.fixture
def not_http() -> Iterator[str]:
    """A local server that answers every connection with a line that is not an HTTP status line."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)
                conn.sendall(b"NOT HTTP AT ALL\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    server.close()


def test_a_reply_that_is_not_http_is_a_transport_failure(not_http):
    with pytest.raises(TransportError, match="BadStatusLine"):
        Http(not_http, "k").request("GET", "/.well-known/openwop")
    with pytest.raises(DiscoveryError, match="cannot reach"):
        discover(Http(not_http, "k"))


def test_a_url_the_client_cannot_parse_is_a_transport_failure():
    with pytest.raises(DiscoveryError, match=r"cannot reach .*Invalid IPv6 URL"):
        discover(Http("http://[::1", "k"))


def _report_run(root, report) -> Result:
    return _conformance(root, "--select", "core-run-surface", "--report", str(report))


@pytest.mark.parametrize(
    "relative",
    ["schemas/run-event.schema.json", "schemas/examples/new-report.json", "spec/v1/report.xml"],
)
def test_a_report_is_never_written_over_or_among_corpus_files(corpus_copy, relative):
    root = corpus_copy()
    target = root / relative
    before = target.read_bytes() if target.exists() else None
    result = _report_run(root, target)
    assert result.exit_code == 2, result.output
    assert "Invalid value for --report: refusing to write" in result.output and "part of the corpus" in result.output
    assert (target.read_bytes() if target.exists() else None) == before


def test_a_report_through_a_symlink_into_the_corpus_is_refused(corpus_copy, tmp_path):
    root = corpus_copy()
    schema = root / "schemas" / "run-event.schema.json"
    before = schema.read_bytes()
    link = tmp_path / "report.json"
    link.symlink_to(schema)
    result = _report_run(root, link)
    assert result.exit_code == 2 and "part of the corpus" in result.output, result.output
    assert schema.read_bytes() == before


@pytest.mark.parametrize(
    ("where", "says"),
    [("missing/report.json", "does not exist"), ("file.txt/report.json", "is not a folder")],
)
def test_a_report_in_a_folder_that_cannot_hold_it_is_refused_before_the_run(repo_corpus, tmp_path, where, says):
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    result = _report_run(repo_corpus.root, tmp_path / where)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for --report: cannot write {tmp_path / where}: " in result.output and says in result.output
    assert "core-run-surface" not in result.output  # refused before any scenario ran


def test_a_report_in_a_folder_that_cannot_be_written_is_refused_before_the_run(repo_corpus, tmp_path, monkeypatch):
    # os.access rather than a chmod: the tests may run as root, who can write anywhere
    access, folder = os.access, os.path.realpath(tmp_path)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: path != folder and access(path, mode, **kw))
    result = _report_run(repo_corpus.root, tmp_path / "report.json")
    assert result.exit_code == 2, result.output
    assert f"its folder {folder} cannot be written" in result.output
    assert "core-run-surface" not in result.output and not (tmp_path / "report.json").exists()


@pytest.mark.parametrize("name", ["report.json", "report.xml"])
def test_a_report_replaces_an_earlier_report_but_no_other_file(corpus_copy, tmp_path, name):
    root = corpus_copy()
    report = tmp_path / name
    for _ in range(2):  # the second run replaces the first run's report
        result = _report_run(root, report)
        assert result.exit_code == 0, result.output
    assert "core-run-surface" in report.read_text(encoding="utf-8")
    other = tmp_path / ("package.json" if name.endswith(".json") else "pom.xml")
    other.write_text('{"name": "mine"}' if name.endswith(".json") else "<project/>", encoding="utf-8")
    result = _report_run(root, other)
    assert result.exit_code == 2, result.output
    assert "refusing to replace" in result.output and "not a report of `wopgen conformance`" in result.output
    assert other.read_text(encoding="utf-8") in ('{"name": "mine"}', "<project/>")


def test_a_report_cut_short_by_a_full_disk_leaves_the_earlier_one(corpus_copy, tmp_path, monkeypatch):
    root = corpus_copy()
    report = tmp_path / "report.json"
    assert _report_run(root, report).exit_code == 0
    earlier = report.read_bytes()
    plain_write = Path.write_text

    def disk_full(path: Path, text: str, *args, **kwargs) -> int:
        plain_write(path, text[: len(text) // 2], *args, **kwargs)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(Path, "write_text", disk_full)
    result = _report_run(root, report)
    assert result.exit_code == 2 and "No space left on device" in result.output, result.output
    assert report.read_bytes() == earlier
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus", "report.json"]  # no scratch file left


def test_only_a_file_written_as_a_conformance_report_is_one(tmp_path, monkeypatch):
    others = {
        "wopgen-check.json": '{"tool": {"name": "wopgen"}, "diagnostics": []}',
        "list.json": "[1, 2]",
        "other-suite.xml": '<testsuite name="pytest"/>',
        "odd-encoding.xml": '<?xml version="1.0" encoding="rot13"?><testsuite/>',
        "binary.xml": "\x00\x01",
    }
    for name, text in others.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert not is_report(tmp_path / name), name
    os.mkfifo(tmp_path / "fifo.json")  # not opened: reading it would wait for a writer
    assert not is_report(tmp_path / "fifo.json")
    report = tmp_path / "suite.xml"
    report.write_text('<?xml version="1.0"?>\n<testsuite name="wopgen-conformance" tests="0"/>\n', encoding="utf-8")
    assert is_report(report)
    monkeypatch.setattr("wopgen.conformance.report.MAX_REPORT_BYTES", 16)
    assert not is_report(report)  # longer than any report: not read through


def test_a_url_run_from_a_corpus_without_the_hosts_schemas_is_refused_before_any_request(served, tmp_path):
    # `wopgen init` gives such a corpus: the scenarios read the error envelope, the event schemas and
    # the discovery schema of the spec, so they used to stop on a KeyError and blame the host
    assert CliRunner().invoke(cli, ["init", str(tmp_path / "spec")]).exit_code == 0
    url = served()
    result = _conformance(tmp_path / "spec", "--url", url, "--api-key", KEY)
    assert result.exit_code == 2, result.output
    assert "error-envelope.schema.json" in result.output and "KeyError" not in result.output
    assert "outside any corpus" in result.output  # the way to test against the shipped slice


def test_a_profile_is_refused_beside_a_url_and_taken_without_one(repo_corpus):
    # a profile picks what the in-process host advertises; a host at a URL advertises itself, so the
    # option used to be dropped in silence and the run read as if the profile had applied
    refused = _conformance(repo_corpus.root, "--url", "http://127.0.0.1:9", "--api-key", "k", "--profile", "v4-only")
    assert refused.exit_code == 2, refused.output
    assert "--profile chooses a profile of the in-process host" in refused.output
    taken = _conformance(repo_corpus.root, "--profile", "v4-only", "--select", "core-workflows")
    assert taken.exit_code == 0, taken.output

"""`wopgen conformance` refuses malformed --url, --select and --opt-out values with exit 2, never a traceback,
and the HTTP transport turns a URL or reply the client cannot handle into a transport failure."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from wopgen.cli import cli
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

"""The one reader of the event-type index, and every consumer of it, on malformed event schemas.

A `_typeIndex` that is not an object, an entry that is not `{"$ref": "#/$defs/<name>"}` and an
envelope that is a JSON array must give "no index" or skip the entry: never an exception.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.api_corpus import api_files
from support.corpus_factory import good_files, write
from support.generated_models import REPO
from support.helpers import hits
from wopgen.catalogue import catalogue
from wopgen.checks import api as api_check
from wopgen.cli import cli
from wopgen.conformance.model import Context, Failure
from wopgen.corpus import Corpus, load
from wopgen.corpus.api import read_api
from wopgen.corpus.events import event_types, type_index
from wopgen.generate.api import asyncapi_document
from wopgen.generate.bundle import BundleError
from wopgen.generate.host import HostGenerationError
from wopgen.generate.host import generate as host_generate
from wopgen.generate.models import _event_variants
from wopgen.generate.site import render
from wopgen.generate.site.context import SiteContext
from wopgen.generate.site.events import events

ENVELOPE = "schemas/run-event.schema.json"
PAYLOADS = "schemas/run-event-payloads.schema.json"


def index_is_a_list(files: dict[str, Any]) -> None:
    files[PAYLOADS]["$defs"]["_typeIndex"] = []


def entry_is_a_number(files: dict[str, Any]) -> None:
    files[PAYLOADS]["$defs"]["_typeIndex"]["properties"]["run.started"] = 5


def envelope_is_an_array(files: dict[str, Any]) -> None:
    files[ENVELOPE] = [1, 2]


def payloads_is_an_array(files: dict[str, Any]) -> None:
    files[PAYLOADS] = [1, 2]


def defs_is_a_list(files: dict[str, Any]) -> None:
    files[PAYLOADS]["$defs"] = [1]


BREAKAGES = [index_is_a_list, entry_is_a_number, envelope_is_an_array, payloads_is_an_array, defs_is_a_list]


@pytest.fixture
def corpus_of(tmp_path: Path) -> Callable[..., Corpus]:
    """corpus_of(edit, api=False) loads the small good corpus (or the API one) after `edit`."""

    def build(edit: Callable[[dict[str, Any]], None] | None = None, *, api: bool = False) -> Corpus:
        files = copy.deepcopy(api_files() if api else good_files())
        if edit is not None:
            edit(files)
        return load(write(tmp_path / "corpus", files))

    return build


# --- the reader -------------------------------------------------------------------------------


def test_a_good_index_maps_each_type_to_its_payload_def(corpus_of):
    corpus = corpus_of()
    assert event_types(corpus) == ["run.started", "agent.verified"]
    index = type_index(corpus)
    assert index is not None and index.doc.path == PAYLOADS and index.malformed == ()
    assert {t: (p.def_name, p.pointer) for t, p in index.payloads.items()} == {
        "agent.verified": ("agentVerified", "/$defs/agentVerified"),
        "run.started": ("runStarted", "/$defs/runStarted"),
    }
    assert index.payloads["agent.verified"].node["title"] == "AgentVerifiedPayload"


@pytest.mark.parametrize("edit", [index_is_a_list, payloads_is_an_array, defs_is_a_list])
def test_an_index_that_is_not_an_object_is_no_index(corpus_of, edit):
    assert type_index(corpus_of(edit)) is None


def test_an_envelope_that_is_an_array_has_no_event_types(corpus_of):
    assert event_types(corpus_of(envelope_is_an_array)) is None


@pytest.mark.parametrize(
    "entry",
    [5, [], {"$ref": 5}, {"$ref": "#/$defs/nowhere"}, {"$ref": "other.schema.json#/$defs/runStarted"}, {}],
)
def test_an_entry_that_names_no_payload_def_is_left_out_and_listed(corpus_of, entry):
    def edit(files):
        files[PAYLOADS]["$defs"]["_typeIndex"]["properties"]["run.started"] = entry

    index = type_index(corpus_of(edit))
    assert index is not None
    assert list(index.payloads) == ["agent.verified"] and index.malformed == ("run.started",)


# --- the checks -------------------------------------------------------------------------------


def test_an_entry_pointing_at_no_def_is_a_schema_event_index_error(findings, make_corpus):
    def edit(files):
        files[PAYLOADS]["$defs"]["_typeIndex"]["properties"]["run.started"] = {"$ref": "#/$defs/nowhere"}

    found = findings(edit)
    corpus = load(make_corpus(edit))
    line = corpus.schemas[PAYLOADS].line("/$defs/_typeIndex/properties/run.started")
    assert ("schema-event-index", PAYLOADS, line) in {(d.rule, d.path, d.line) for d in found}
    assert "run.started" in next(d.message for d in found if d.rule == "schema-event-index")


def test_an_index_without_properties_is_a_schema_event_index_error(findings):
    def edit(files):
        files[PAYLOADS]["$defs"]["_typeIndex"] = {"type": "object"}

    assert [path for path, _line in hits(findings(edit), "schema-event-index")] == [PAYLOADS]


def test_the_good_corpus_has_no_event_index_finding(findings):
    assert hits(findings(), "schema-event-index") == []


@pytest.mark.parametrize("edit", BREAKAGES)
def test_the_api_channel_check_reads_a_broken_index_without_crashing(corpus_of, edit):
    corpus = corpus_of(edit, api=True)
    found = list(api_check._messages(corpus, read_api(corpus)))
    assert all(d.rule == "api-event-message" for d in found)


def test_the_api_channel_check_reports_a_type_whose_entry_is_broken(corpus_of):
    corpus = corpus_of(entry_is_a_number, api=True)
    found = list(api_check._messages(corpus, read_api(corpus)))
    assert [d.message for d in found] == [
        "channel runEvents: 'run.started' has no payload in run-event-payloads _typeIndex"
    ]


# --- the generators ---------------------------------------------------------------------------


@pytest.mark.parametrize("edit", [index_is_a_list, payloads_is_an_array, defs_is_a_list])
def test_asyncapi_refuses_a_missing_index_with_a_bundle_error(corpus_of, edit):
    with pytest.raises(BundleError, match="has no payload in _typeIndex"):
        corpus = corpus_of(edit, api=True)
        asyncapi_document(corpus, read_api(corpus))


def test_asyncapi_refuses_a_broken_entry_with_a_bundle_error(corpus_of):
    with pytest.raises(BundleError, match=r"'run\.started' has no payload"):
        corpus = corpus_of(entry_is_a_number, api=True)
        asyncapi_document(corpus, read_api(corpus))


@pytest.mark.parametrize("edit", [index_is_a_list, envelope_is_an_array, payloads_is_an_array, defs_is_a_list])
def test_models_derive_no_event_variants_without_an_index(corpus_of, edit):
    assert _event_variants(corpus_of(edit)) is None


def test_models_skip_a_broken_entry(corpus_of):
    derived = _event_variants(corpus_of(entry_is_a_number))
    assert derived is not None
    assert [v.type for v in derived[1]] == ["agent.verified"]


@pytest.mark.parametrize("edit", BREAKAGES)
def test_the_site_event_catalogue_reads_a_broken_index(corpus_of, edit):
    listed = events(SiteContext(corpus_of(edit), catalogue()))
    assert all(e.def_name in ("", "runStarted", "agentVerified") for e in listed)


def test_the_site_lists_a_type_with_a_broken_entry_without_payload(corpus_of):
    listed = {e.type: e.def_name for e in events(SiteContext(corpus_of(entry_is_a_number), catalogue()))}
    assert listed == {"run.started": "", "agent.verified": "agentVerified"}


@pytest.mark.parametrize("edit", [index_is_a_list, entry_is_a_number])
def test_the_site_renders_with_a_broken_index(corpus_of, edit):
    pages = render(corpus_of(edit, api=True), rules=catalogue())
    assert "`run.started`" in str(pages["docs/events.md"])
    assert "has no payload in _typeIndex" in str(pages["docs/api/events.md"])


def test_a_conformance_scenario_fails_cleanly_on_an_unknown_event_type(corpus_of):
    context = Context(transport=None, corpus=corpus_of(entry_is_a_number), caps={})
    assert context.payload_pointer("agent.verified") == "/$defs/agentVerified"
    with pytest.raises(Failure, match=r"no payload for 'run\.started'"):
        context.payload_pointer("run.started")


@pytest.mark.parametrize("edit", [index_is_a_list, defs_is_a_list])
def test_the_host_refuses_a_corpus_without_an_index_with_a_diagnostic(corpus_of, edit):
    with pytest.raises(HostGenerationError) as refused:
        host_generate(corpus_of(edit))
    found = [(d.rule, d.path, d.message) for d in refused.value.diagnostics]
    assert ("host-schema-missing", PAYLOADS, "run-event-payloads has no _typeIndex") in found


# --- the commands, on a copy of the repository corpus ---------------------------------------------

REPRODUCTIONS = {
    "index-is-a-list": (PAYLOADS, lambda data: {**data, "$defs": {**data["$defs"], "_typeIndex": []}}),
    "entry-is-5": (
        PAYLOADS,
        lambda data: {
            **data,
            "$defs": {**data["$defs"], "_typeIndex": {**data["$defs"]["_typeIndex"], "properties": {"run.started": 5}}},
        },
    ),
    "envelope-is-an-array": (ENVELOPE, lambda _data: [1, 2]),
}
COMMANDS = {
    "check": ["check"],
    "models": ["models", "--out", "{out}"],
    "api": ["api", "--out", "{out}"],
    "host": ["host", "generate", "--out", "{out}"],
    "site": ["site", "build", "--out", "{out}"],
}


@pytest.fixture(scope="module")
def broken_corpora(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    roots = {}
    for name, (path, edit) in REPRODUCTIONS.items():
        root = tmp_path_factory.mktemp(name)
        for part in ("schemas", "spec"):
            shutil.copytree(REPO / part, root / part)
        for file in ("pyproject.toml", "CHANGELOG.md"):
            shutil.copy(REPO / file, root / file)
        target = root / path
        target.write_text(json.dumps(edit(json.loads(target.read_text())), indent=2))
        roots[name] = root
    return roots


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("reproduction", sorted(REPRODUCTIONS))
def test_every_command_gives_findings_not_a_traceback(broken_corpora, tmp_path, reproduction, command):
    out = tmp_path / "out"
    args = [a.replace("{out}", str(out)) for a in COMMANDS[command]]
    result = CliRunner().invoke(cli, ["--root", str(broken_corpora[reproduction]), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    assert re.search(r"\b(schema|api)-[a-z-]+\b", result.output), result.output
    assert not out.exists()

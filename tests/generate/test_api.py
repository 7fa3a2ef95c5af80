"""`wopgen api` and the `api-*` rules of `wopgen check`."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from support.api_corpus import api_files
from support.corpus_factory import write
from support.generated_models import REPO, repo_corpus
from support.helpers import diagnose
from wopgen.cli import cli
from wopgen.corpus import load
from wopgen.diagnostics import Diagnostic
from wopgen.generate.api import ASYNCAPI_FILE, OPENAPI_FILE, dump, generate_api
from wopgen.generate.writer import MANIFEST

OPS = "spec/api/operations.yaml"
CHANNELS = "spec/api/channels.yaml"


@pytest.fixture
def api_corpus(tmp_path: Path) -> Callable[..., Path]:
    def build(edit: Callable[[dict[str, Any]], None] | None = None) -> Path:
        files = api_files()
        if edit is not None:
            edit(files)
        return write(tmp_path / "corpus", files)

    return build


@pytest.fixture
def api_findings(api_corpus: Callable[..., Path]) -> Callable[..., list[Diagnostic]]:
    def run(edit: Callable[[dict[str, Any]], None] | None = None) -> list[Diagnostic]:
        return [d for d in diagnose(api_corpus(edit)) if d.rule.startswith("api-")]

    return run


def replace(path: str, old: str, new: str) -> Callable[[dict[str, Any]], None]:
    def edit(files: dict[str, Any]) -> None:
        assert old in files[path], old
        files[path] = files[path].replace(old, new, 1)

    return edit


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def only(found: list[Diagnostic], rule: str) -> list[Diagnostic]:
    hits = [d for d in found if d.rule == rule]
    assert hits, f"expected {rule}, got {[(d.rule, d.message) for d in found]}"
    return hits


def test_good_description_is_clean(api_findings: Callable[..., list[Diagnostic]]) -> None:
    assert api_findings() == []


def test_shape_unknown_key_with_line(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(OPS, "    auth: bearer\n", "    auth: bearer\n    owner: me\n"))
    hit = only(found, "api-shape")[0]
    assert "unknown key 'owner'" in hit.message
    assert hit.path == OPS
    assert hit.line == line_of(api_files()[OPS], "auth: bearer") + 1


def test_shape_missing_key_and_bad_value(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(OPS, "    method: post\n", "    method: fetch\n"))
    assert any("method is 'fetch'" in d.message for d in only(found, "api-shape"))
    found = api_findings(replace(OPS, "    tag: things\n    summary: Store a thing\n", "    summary: Store a thing\n"))
    hit = only(found, "api-shape")[0]
    assert "missing key 'tag'" in hit.message
    assert hit.line == line_of(api_files()[OPS], "operationId: putThing")


def test_a_request_body_may_be_optional(api_findings: Callable[..., list[Diagnostic]]) -> None:
    """`required: false` on a request says the body may be left out (OpenAPI's requestBody.required);
    any other value is a shape finding at its line. The repository's cancelRun takes an optional body,
    createRun a required one."""
    found = api_findings(replace(OPS, "request: {schema: thing}", "request: {schema: thing, required: maybe}"))
    hit = only(found, "api-shape")[0]
    assert "request required must be true or false" in hit.message
    assert hit.line == line_of(api_files()[OPS], "request: {schema: thing}")
    assert not api_findings(replace(OPS, "request: {schema: thing}", "request: {schema: thing, required: false}"))
    paths = yaml.safe_load(generate_api(repo_corpus())[OPENAPI_FILE])["paths"]
    assert paths["/v1/runs/{runId}/cancel"]["post"]["requestBody"]["required"] is False
    assert paths["/v1/runs"]["post"]["requestBody"]["required"] is True


def test_response_headers(api_findings: Callable[..., list[Diagnostic]], api_corpus: Callable[..., Path]) -> None:
    """A response or an error may document the headers it is sent with; the OpenAPI document lists them
    under the response, those of errors answered with one status together."""
    with_headers = replace(
        OPS,
        '      "201": {schema: thing, description: Stored.}\n'
        "    errors:\n"
        "      - {code: validation_error, status: 400, description: Bad body.}\n",
        '      "201":\n'
        "        schema: thing\n"
        "        description: Stored.\n"
        "        headers:\n"
        "          Location: {description: Where it is., schema: {type: string}}\n"
        "    errors:\n"
        "      - code: validation_error\n"
        "        status: 400\n"
        "        description: Bad body.\n"
        "        headers:\n"
        "          X-Field: {description: The field at fault., schema: {type: string}}\n",
    )
    assert not api_findings(with_headers)
    document = yaml.safe_load(generate_api(load(api_corpus(with_headers)))[OPENAPI_FILE])
    answers = document["paths"]["/v1/things/{thingId}"]["post"]["responses"]
    assert answers["201"]["headers"] == {"Location": {"description": "Where it is.", "schema": {"type": "string"}}}
    assert list(answers["400"]["headers"]) == ["X-Field"] and "headers" not in answers["404"]
    created = '      "201": {schema: thing, description: Stored.}'
    for headers, message in (
        ('{"Bad Name": {description: x, schema: {}}}', "'Bad Name' is not an HTTP header name"),
        ("{Location: {description: x, schema: string}}", "schema must be an inline JSON Schema"),
    ):
        found = api_findings(replace(OPS, created, created[:-1] + f", headers: {headers}}}"))
        assert message in only(found, "api-shape")[0].message


def test_shape_of_channels(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(CHANNELS, "    transport: sse\n", "    transport: websocket\n"))
    hit = only(found, "api-shape")[0]
    assert hit.path == CHANNELS and hit.line == line_of(api_files()[CHANNELS], "transport: sse")


def test_unresolved_schema(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(OPS, "request: {schema: thing}", "request: {schema: thingy}"))
    hit = only(found, "api-schema-unresolved")[0]
    assert "'thingy'" in hit.message and hit.line == line_of(api_files()[OPS], "request: {schema: thing}")
    found = api_findings(replace(CHANNELS, "envelope: run-event\n", "envelope: run-events\n"))
    assert only(found, "api-schema-unresolved")[0].line == line_of(api_files()[CHANNELS], "envelope:")


def test_duplicate_operation_id_and_route(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(OPS, "operationId: putThing", "operationId: getDiscovery"))
    assert only(found, "api-operation-id-duplicate")[0].line == line_of(api_files()[OPS], "operationId: putThing")
    found = api_findings(replace(CHANNELS, "operationId: receiveRunEvents", "operationId: putThing"))
    assert only(found, "api-operation-id-duplicate")[0].path == CHANNELS
    found = api_findings(
        replace(
            OPS, "    method: post\n    path: /v1/things/{thingId}", "    method: get\n    path: /.well-known/openwop"
        )
    )
    only(found, "api-route-duplicate")


def test_path_parameters(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(OPS, "path: /v1/things/{thingId}", "path: /v1/things/{id}"))
    messages = [d.message for d in only(found, "api-path-parameters")]
    assert any("{id}" in m for m in messages) and any("'thingId' is not in" in m for m in messages)
    found = api_findings(replace(OPS, "in: path, required: true", "in: path, required: false"))
    assert only(found, "api-path-parameters")[0].line == line_of(api_files()[OPS], "name: thingId")


def test_error_code_must_be_in_the_envelope_with_its_status(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(OPS, "code: not_found, status: 404", "code: gone, status: 410"))
    hit = only(found, "api-error-code-unknown")[0]
    assert "'gone'" in hit.message and hit.line == line_of(api_files()[OPS], "code: not_found")
    found = api_findings(replace(OPS, "code: not_found, status: 404", "code: not_found, status: 410"))
    hit = only(found, "api-error-status")[0]
    assert "404" in hit.message and hit.line == line_of(api_files()[OPS], "code: not_found")


def test_one_message_per_event_type(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(CHANNELS, "      - type: agent.verified\n", ""))
    assert "'agent.verified' has no message" in only(found, "api-event-message")[0].message
    found = api_findings(replace(CHANNELS, "      - type: agent.verified\n", "      - type: run.started\n"))
    assert any("more than one" in d.message for d in only(found, "api-event-message"))
    found = api_findings(
        replace(
            CHANNELS, "      - type: agent.verified\n", "      - type: agent.verified\n      - type: run.exploded\n"
        )
    )
    hit = only(found, "api-event-message")[0]
    assert "run.exploded" in hit.message and hit.line == line_of(api_files()[CHANNELS], "type: agent.verified") + 1


def test_capability_must_be_declared_by_discovery(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(OPS, "capability: agents.evalSuite.supported", "capability: agents.evalSuite.enabled"))
    assert only(found, "api-capability-unknown")[0].line == line_of(api_files()[OPS], "operationId: putThing")


def test_tag_and_rfc_must_exist(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(OPS, "    tag: things\n    summary: Store", "    tag: stuff\n    summary: Store"))
    assert only(found, "api-tag-undeclared")[0].severity.value == "warning"
    found = api_findings(replace(OPS, 'rfc: "0001"', 'rfc: "0999"'))
    only(found, "api-rfc-unknown")


def test_rendered_openapi_is_validated(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(replace(OPS, "schema: {type: string}}", "schema: {type: 12}}"))
    hit = only(found, "api-openapi")[0]
    assert hit.path == OPS and "12 is not valid" in hit.message


def test_channel_parameters(api_findings: Callable[..., list[Diagnostic]]) -> None:
    found = api_findings(
        replace(CHANNELS, "{name: runId, description: The run.}", "{name: run, description: The run.}")
    )
    messages = [d.message for d in only(found, "api-channel-parameters")]
    assert any("{runId}" in m for m in messages) and any("'run' is not in" in m for m in messages)


def test_rendered_asyncapi_is_validated(api_findings: Callable[..., list[Diagnostic]]) -> None:
    # A keyword JSON Schema 2020-12 leaves alone but AsyncAPI gives a meaning: externalDocs must be an object.
    def edit(files: dict[str, Any]) -> None:
        files["schemas/run-event.schema.json"]["externalDocs"] = "see the RFC"

    assert api_findings() == []
    hit = only(api_findings(edit), "api-asyncapi")[0]
    assert hit.path == CHANNELS and "externalDocs" in hit.message


def test_corpus_without_api_description_has_no_api_findings(make_corpus: Callable[..., Path]) -> None:
    assert [d for d in diagnose(make_corpus()) if d.rule.startswith("api-")] == []


def test_cli_writes_checks_and_reports_drift(api_corpus: Callable[..., Path], tmp_path: Path) -> None:
    root = api_corpus()
    out = tmp_path / "api"
    runner = CliRunner()
    result = runner.invoke(cli, ["--root", str(root), "api", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, ASYNCAPI_FILE, OPENAPI_FILE]
    assert runner.invoke(cli, ["--root", str(root), "api", "--out", str(out), "--check"]).exit_code == 0
    (out / OPENAPI_FILE).write_text((out / OPENAPI_FILE).read_text().replace("Fixture API", "Renamed"))
    stale = runner.invoke(cli, ["--root", str(root), "api", "--out", str(out), "--check"])
    assert stale.exit_code == 1 and "-  title: Renamed" in stale.output


def test_cli_refuses_a_broken_description(api_corpus: Callable[..., Path], tmp_path: Path) -> None:
    root = api_corpus(replace(OPS, "    auth: bearer\n", "    auth: token\n"))
    out = tmp_path / "api"
    result = CliRunner().invoke(cli, ["--root", str(root), "api", "--out", str(out)])
    assert result.exit_code == 1
    assert "operations.yaml" in result.output and "auth" in result.output
    assert not out.exists()


def test_fixture_documents_bundle_their_schemas(api_corpus: Callable[..., Path]) -> None:
    files = generate_api(load(api_corpus()))
    openapi = yaml.safe_load(files[OPENAPI_FILE])
    refs = yaml.safe_dump(openapi)
    assert "schema.json" not in refs  # no reference leaves the file
    assert set(openapi["components"]["schemas"]) >= {"Thing", "Decision", "ErrorEnvelope", "Capabilities"}
    assert openapi["paths"]["/.well-known/openwop"]["get"]["security"] == []


# --- the repository's own description ---------------------------------------------------------


def test_repository_api_is_clean_and_complete() -> None:
    corpus = repo_corpus()
    found = [d for d in diagnose(REPO) if d.rule.startswith("api-")]
    assert found == [], [(d.path, d.line, d.message) for d in found]
    files = generate_api(corpus)
    assert generate_api(load(REPO)) == files  # byte-identical run to run
    openapi = yaml.safe_load(files[OPENAPI_FILE])
    routes = {(m.upper(), p) for p, ops in openapi["paths"].items() for m in ops}
    assert routes >= {
        ("GET", "/.well-known/openwop"),
        ("POST", "/v1/runs"),
        ("GET", "/v1/runs/{runId}"),
        ("GET", "/v1/runs/{runId}/events"),
        ("GET", "/v1/runs/{runId}/events/poll"),
        ("POST", "/v1/runs/{runId}/resume"),
        ("GET", "/v1/runs/{runId}/eval-summary"),
        ("POST", "/v1/host/sample/agentloop/run"),
        ("POST", "/v1/host/sample/agents/verify-run"),
        ("POST", "/v1/host/sample/agents/eval-run"),
        ("GET", "/v1/runs/{runId}/verifications/{resultId}"),
        ("POST", "/v1/host/sample/verification/run"),
    }
    findings = openapi["paths"]["/v1/runs/{runId}/verifications/{resultId}"]["get"]
    assert findings["operationId"] == "getVerificationResult" and {"401", "403", "404", "409"} <= set(
        findings["responses"]
    )
    assert findings["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("VerificationResult")
    seam = openapi["paths"]["/v1/host/sample/verification/run"]["post"]
    assert seam["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("VerificationRunRequest")
    create = openapi["paths"]["/v1/runs"]["post"]["responses"]
    assert "validation_error" in create["400"]["content"]["application/json"]["examples"]
    assert "capability_not_provided" in create["501"]["content"]["application/json"]["examples"]
    summary = openapi["paths"]["/v1/runs/{runId}/eval-summary"]["get"]["responses"]
    assert {"404", "409"} <= set(summary)
    events = openapi["paths"]["/v1/runs/{runId}/events"]["get"]["responses"]["200"]["content"]
    # The body of a stream is text, not one event: a generated client parses it as the schema says.
    assert set(events) == {"text/event-stream"} and events["text/event-stream"]["schema"]["type"] == "string"
    assert events["text/event-stream"]["x-wop-item-schema"] == {"$ref": "#/components/schemas/RunEvent"}
    asyncapi = yaml.safe_load(files[ASYNCAPI_FILE])
    enum = corpus.schemas_by_name["run-event"].data["$defs"]["RunEventType"]["enum"]
    assert sorted(asyncapi["components"]["messages"]) == sorted(enum)
    assert {"verification.started", "verification.completed"} <= set(asyncapi["components"]["messages"])


# YAML 1.2's core schema (js-yaml, the `yaml` package, most non-Python parsers) reads these plain scalars
# as numbers; YAML 1.1, which PyYAML reads and writes, takes some of them for strings.
_YAML12_NUMBER = re.compile(
    r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$"
)


def _strings_a_yaml12_reader_takes_for_numbers(text: str) -> list[str]:
    found: list[str] = []

    def walk(node: yaml.Node) -> None:
        if isinstance(node, yaml.ScalarNode):
            if node.style is None and node.tag.endswith(":str") and _YAML12_NUMBER.match(node.value):
                found.append(node.value)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                walk(item)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                walk(key)
                walk(value)

    walk(yaml.compose(text))
    return found


def test_strings_that_read_as_numbers_in_yaml_1_2_are_quoted() -> None:
    strings = {"rfc": "0081", "other": "0901", "exp": "1e3", "octal": "0o17", "hex": "0x1F", "half": ".5"}
    text = dump({**strings, "count": 81, "ratio": 1.5, "version": "1.0.0"})
    assert _strings_a_yaml12_reader_takes_for_numbers(text) == []
    assert "rfc: '0081'" in text and "count: 81" in text and "version: 1.0.0" in text
    assert yaml.safe_load(text) == {**strings, "count": 81, "ratio": 1.5, "version": "1.0.0"}
    files = generate_api(repo_corpus())  # `x-wop-rfc: 0081` read as the number 81 in Swagger UI or Spectral
    assert {name: _strings_a_yaml12_reader_takes_for_numbers(text) for name, text in files.items()} == {
        OPENAPI_FILE: [],
        ASYNCAPI_FILE: [],
    }


def _raw_html(markdown: str) -> list[str]:
    """What CommonMark reads as raw HTML in `markdown`: a viewer drops it or takes it for a tag."""
    from markdown_it import MarkdownIt

    found: list[str] = []
    for token in MarkdownIt("commonmark").parse(markdown):
        found += [token.content] if token.type == "html_block" else []
        found += [child.content for child in token.children or () if child.type == "html_inline"]
    return found


def test_the_descriptions_wopgen_writes_hold_no_raw_html() -> None:
    """The documents' descriptions are CommonMark: Swagger UI showed the OpenAPI description only up
    to a `<Title>_<entry>` it read as an HTML tag, and dropped the rest of the text."""
    documents = {name: yaml.safe_load(text) for name, text in generate_api(repo_corpus()).items()}
    for name in (OPENAPI_FILE, ASYNCAPI_FILE):
        description = documents[name]["info"]["description"]
        assert "so no other file is needed" in description
        assert _raw_html(description) == [], name

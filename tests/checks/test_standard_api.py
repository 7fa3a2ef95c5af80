"""OpenAPI 3.1 / AsyncAPI 3.x documents kept in the API folder as written: validated, their `$ref`s
followed into the schema folder, operationIds unique; a folder in neither format is an error."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from support.helpers import hits
from wopgen.cli import cli
from wopgen.diagnostics import Diagnostic

Files = dict[str, Any]
OPENAPI = "spec/api/openapi.yaml"
ASYNCAPI = "spec/api/asyncapi.yaml"

OPENAPI_TEXT = """\
openapi: 3.1.0
info:
  title: Things API
  version: "1.0.0"
paths:
  /v1/things/{thingId}:
    get:
      operationId: getThing
      parameters:
        - name: thingId
          in: path
          required: true
          schema: { type: string }
      responses:
        '200':
          description: The thing.
          content:
            application/json:
              schema:
                $ref: '../../schemas/thing.schema.json'
        '404':
          $ref: '#/components/responses/NotFound'
  /v1/decisions:
    post:
      operationId: postDecision
      requestBody:
        content:
          application/json:
            schema:
              $ref: '../../schemas/thing.schema.json#/$defs/name'
      responses:
        '204':
          description: Taken.
components:
  responses:
    NotFound:
      description: No such thing.
"""

ASYNCAPI_TEXT = """\
asyncapi: 3.0.0
info:
  title: Thing events
  version: "1.0.0"
channels:
  runEvents:
    address: /runs/{runId}/events
    parameters:
      runId:
        description: The run.
    messages:
      runStarted:
        $ref: '#/components/messages/RunStarted'
operations:
  receiveRunEvents:
    action: receive
    channel:
      $ref: '#/channels/runEvents'
components:
  messages:
    RunStarted:
      name: run.started
      summary: A run started.
      payload:
        $ref: '../../schemas/run-event.schema.json'
"""


def standard(files: Files) -> None:
    files[OPENAPI] = OPENAPI_TEXT
    files[ASYNCAPI] = ASYNCAPI_TEXT


def api_findings(findings: Callable[..., list[Diagnostic]], change: Callable[[Files], None]) -> list[Diagnostic]:
    def edit(files: Files) -> None:
        standard(files)
        change(files)

    return [d for d in findings(edit) if d.rule.startswith("api-")]


def test_good_standard_documents_pass(findings):
    assert api_findings(findings, lambda files: None) == []


def test_openapi_validator_finding(findings):
    def broken(files: Files) -> None:
        files[OPENAPI] = OPENAPI_TEXT.replace("          description: Taken.\n", "")

    assert hits(api_findings(findings, broken), "api-openapi") == [(OPENAPI, 32)]


def test_openapi_version(findings):
    def old(files: Files) -> None:
        files[OPENAPI] = OPENAPI_TEXT.replace("openapi: 3.1.0", "openapi: 3.0.3")

    assert hits(api_findings(findings, old), "api-openapi") == [(OPENAPI, 1)]


def test_asyncapi_schema_finding(findings):
    def broken(files: Files) -> None:
        files[ASYNCAPI] = ASYNCAPI_TEXT.replace("    action: receive", "    action: listen")

    assert hits(api_findings(findings, broken), "api-asyncapi") == [(ASYNCAPI, 15)]


def test_asyncapi_version(findings):
    def unknown(files: Files) -> None:
        files[ASYNCAPI] = ASYNCAPI_TEXT.replace("asyncapi: 3.0.0", "asyncapi: 2.6.0")

    assert hits(api_findings(findings, unknown), "api-asyncapi") == [(ASYNCAPI, 1)]


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("'../../schemas/thing.schema.json'", "'../../schemas/gone.schema.json'", 20),
        ("thing.schema.json#/$defs/name", "thing.schema.json#/$defs/nope", 30),
        ("'#/components/responses/NotFound'", "'#/components/responses/Gone'", 22),
        ("'../../schemas/thing.schema.json'", "'https://example.com/thing.json'", 20),
    ],
)
def test_refs_must_resolve(findings, old: str, new: str, line: int):
    def broken(files: Files) -> None:
        files[OPENAPI] = OPENAPI_TEXT.replace(old, new, 1)

    assert hits(api_findings(findings, broken), "api-ref-unresolved") == [(OPENAPI, line)]


def test_findings_point_at_the_value_they_are_about(findings):
    """The column too: a `$ref` finding at its value, a validator finding at the member it names."""

    def broken(files: Files) -> None:
        files[OPENAPI] = OPENAPI_TEXT.replace(
            "'../../schemas/thing.schema.json'", "'../../schemas/gone.schema.json'", 1
        )

    [ref] = [d for d in api_findings(findings, broken) if d.rule == "api-ref-unresolved"]
    assert (ref.line, ref.col) == (20, 23)  # `                $ref: '../../schemas/gone.schema.json'`

    def wrong_version(files: Files) -> None:
        files[OPENAPI] = OPENAPI_TEXT.replace("openapi: 3.1.0", "openapi: 3.0.3")

    [version] = [d for d in api_findings(findings, wrong_version) if d.rule == "api-openapi"]
    assert (version.line, version.col) == (1, 10)

    def unknown_member(files: Files) -> None:
        files[OPENAPI] = OPENAPI_TEXT.replace(
            "      operationId: postDecision\n", "      operationId: postDecision\n      colour: red\n"
        )

    [member] = [d for d in api_findings(findings, unknown_member) if d.rule == "api-openapi"]
    assert (member.line, member.col) == (24, 5)  # the operation the validator names: `    post:`


def test_asyncapi_objects_shared_from_another_file_are_not_findings(findings):
    """A server and a message kept in a shared file, as multi-service AsyncAPI layouts do: the official
    schema takes a Reference object there. Validated as an empty object, each was a false `api-asyncapi`."""

    def shared(files: Files) -> None:
        files[ASYNCAPI] = ASYNCAPI_TEXT.replace(
            "channels:\n", "servers:\n  broker:\n    $ref: 'common/shared.yaml#/servers/broker'\nchannels:\n", 1
        ).replace(
            "        $ref: '#/components/messages/RunStarted'",
            "        $ref: 'common/shared.yaml#/messages/RunStarted'",
        )
        files["spec/api/common/shared.yaml"] = (
            "servers:\n  broker:\n    host: broker.example.com\n    protocol: mqtt\n"
            "messages:\n  RunStarted:\n    name: run.started\n    payload:\n      type: object\n"
        )

    assert api_findings(findings, shared) == []


def test_a_value_no_alternative_fits_says_where_the_closest_one_fails(findings):
    """Not the whole value quoted and cut off before the reason."""

    def broken(files: Files) -> None:
        files[ASYNCAPI] = ASYNCAPI_TEXT.replace(
            "      summary: A run started.\n",
            "      summary: A run started.\n"
            + "".join(f"      x-note-{n}: {'long words ' * 4}\n" for n in range(8))
            + "      correlationId:\n        location: 5\n",
        )

    [found] = [d for d in api_findings(findings, broken) if d.rule == "api-asyncapi"]
    assert "is not valid under any of the given schemas" in found.message
    assert "the closest alternative fails at correlationId/location: 5 is not of type 'string'" in found.message
    assert len(found.message) < 400


def _shared_openapi(parameter: str) -> Callable[[Files], None]:
    """The OpenAPI document with its path parameter and a response kept in shared files beside it."""

    def edit(files: Files) -> None:
        files[OPENAPI] = OPENAPI_TEXT.replace(
            "        - name: thingId\n          in: path\n          required: true\n          schema: { type: string }\n",
            "        - $ref: 'common/parameters.yaml#/ThingId'\n",
        ).replace("'#/components/responses/NotFound'", "'common/responses.yaml#/NotFound'")
        files["spec/api/common/parameters.yaml"] = parameter
        files["spec/api/common/responses.yaml"] = "NotFound:\n  description: No such thing.\n"

    return edit


def test_openapi_objects_shared_from_another_file_are_read_there(findings):
    """They were read as empty objects: `cannot be validated: 'name'` on a valid document."""
    good = "ThingId:\n  name: thingId\n  in: path\n  required: true\n  schema:\n    $ref: 'https://example.test/elsewhere.json'\n"
    assert api_findings(findings, _shared_openapi(good)) == []
    broken = "ThingId:\n  name: thingId\n  in: body\n  required: true\n  schema:\n    type: string\n"
    assert [d.rule for d in api_findings(findings, _shared_openapi(broken))] == ["api-openapi"]


def test_the_loader_reads_the_shared_files_once_and_the_cached_check_sees_an_edit(make_corpus):
    """Read by the loader, a shared file's bytes are in what the cached `api` check is keyed by: an edit
    to it runs the check again. Files it refers to are followed; an excluded one is not read."""
    from wopgen.corpus import load

    good = "ThingId:\n  $ref: 'more.yaml#/ThingId'\n"
    more = "ThingId:\n  name: thingId\n  in: path\n  required: true\n  schema:\n    type: string\n"

    def edit(files: Files) -> None:
        _shared_openapi(good)(files)
        files["spec/api/common/more.yaml"] = more
        files["spec/api/common/unused.yaml"] = "Nothing: {}\n"

    root = make_corpus(edit)
    corpus = load(root)
    shared = ["spec/api/common/more.yaml", "spec/api/common/parameters.yaml", "spec/api/common/responses.yaml"]
    assert sorted(corpus.api_shared) == shared and all(path in corpus.sources for path in shared)
    check = ["--root", str(root), "check", "--select", "api-"]
    assert CliRunner().invoke(cli, check).exit_code == 0
    (root / "spec/api/common/more.yaml").write_text(more.replace("in: path", "in: body"), encoding="utf-8")
    result = CliRunner().invoke(cli, check)
    assert result.exit_code == 1 and "api-openapi" in result.output


def test_what_a_shared_file_refers_to_is_never_fetched(findings, monkeypatch):
    import urllib.request

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"fetched {args[:1]}")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    monkeypatch.setattr("requests.get", refuse)
    far = (
        "ThingId:\n  name: thingId\n  in: path\n  required: true\n  schema:\n    allOf:\n"
        "      - $ref: 'https://example.test/elsewhere.json'\n      - $ref: 'ftp://example.test/x.json'\n"
        "      - $ref: '../../../../outside.yaml'\n      - $ref: 'urn:example:x'\n"
    )
    assert api_findings(findings, _shared_openapi(far)) == []


def test_asyncapi_ref_into_schemas(findings):
    def broken(files: Files) -> None:
        files[ASYNCAPI] = ASYNCAPI_TEXT.replace("run-event.schema.json", "run-events.schema.json")

    assert hits(api_findings(findings, broken), "api-ref-unresolved") == [(ASYNCAPI, 25)]


def test_asyncapi_channel_parameters_match_the_address(findings):
    def undeclared(files: Files) -> None:
        files[ASYNCAPI] = ASYNCAPI_TEXT.replace("/runs/{runId}/events", "/runs/{runId}/events/{kind}")

    found = [d for d in api_findings(findings, undeclared) if d.rule == "api-channel-parameters"]
    assert [(d.path, d.line, d.col) for d in found] == [(ASYNCAPI, 7, 14)]
    assert "names {kind}" in found[0].message

    def extra(files: Files) -> None:
        files[ASYNCAPI] = ASYNCAPI_TEXT.replace("/runs/{runId}/events", "/runs/events")

    found = [d for d in api_findings(findings, extra) if d.rule == "api-channel-parameters"]
    assert [(d.path, d.line, d.col) for d in found] == [(ASYNCAPI, 9, 7)]
    assert "parameter 'runId' is not an expression" in found[0].message


def test_asyncapi_channel_without_a_fixed_address_is_not_judged(findings):
    def dynamic(files: Files) -> None:
        files[ASYNCAPI] = ASYNCAPI_TEXT.replace("address: /runs/{runId}/events", "address: null")

    assert hits(api_findings(findings, dynamic), "api-channel-parameters") == []


def test_operation_ids_unique_across_documents(findings):
    def clash(files: Files) -> None:
        files[OPENAPI] = OPENAPI_TEXT.replace("operationId: postDecision", "operationId: getThing")
        files[ASYNCAPI] = ASYNCAPI_TEXT.replace("receiveRunEvents:", "getThing:")

    assert hits(api_findings(findings, clash), "api-operation-id-duplicate") == [(OPENAPI, 8), (OPENAPI, 25)]


def test_folder_in_neither_format_is_an_error(findings):
    def neither(files: Files) -> None:
        del files[OPENAPI], files[ASYNCAPI]
        files["spec/api/notes.md"] = "# Notes\n"

    assert hits(api_findings(findings, neither), "api-format") == [("spec/api", 1)]

    def unknown_yaml(files: Files) -> None:
        del files[OPENAPI], files[ASYNCAPI]
        files["spec/api/service.yaml"] = "swagger: '2.0'\n"

    assert hits(api_findings(findings, unknown_yaml), "api-shape") == [("spec/api/service.yaml", 1)]
    assert hits(api_findings(findings, unknown_yaml), "api-format") == [("spec/api", 1)]


def test_a_tool_configuration_beside_the_documents_can_be_excluded(findings):
    """A linter's configuration kept in the API folder (redocly.yaml) is no API description: it is an
    `api-shape` finding until `exclude` names it, and then it is not read at all."""

    def linter_config(files: Files) -> None:
        files["spec/api/redocly.yaml"] = "extends:\n  - recommended\n"

    assert hits(api_findings(findings, linter_config), "api-shape") == [("spec/api/redocly.yaml", 1)]

    def excluded(files: Files) -> None:
        linter_config(files)
        files["pyproject.toml"] += 'exclude = ["spec/api/redocly.yaml"]\n'

    assert api_findings(findings, excluded) == []


def test_api_command_explains_it_renders_only_declarative(make_corpus):
    root: Path = make_corpus(standard)
    result = CliRunner().invoke(cli, ["--root", str(root), "api", "--out", str(root / "out")])
    assert result.exit_code == 2  # nothing to render from is a usage error, not a finding
    assert "already holds the standard documents" in result.output
    assert not (root / "out").exists()


def test_api_command_without_the_api_folder_is_a_usage_error_that_says_so(make_corpus):
    """A corpus without its API folder (a checkout that leaves it out, its path listed in external-paths)
    is told the folder is not there, not that it holds nothing."""
    root: Path = make_corpus()
    assert not (root / "spec/api").exists()
    result = CliRunner().invoke(cli, ["--root", str(root), "api", "--out", str(root / "out")])
    assert result.exit_code == 2 and "the corpus has no API folder (spec/api/ is not there)" in result.output
    assert not (root / "out").exists()


def test_site_refuses_a_folder_in_neither_format(make_corpus):
    root: Path = make_corpus(lambda files: files.update({"spec/api/notes.md": "# Notes\n"}))
    result = CliRunner().invoke(cli, ["--root", str(root), "site", "build", "--out", str(root / "site")])
    assert result.exit_code == 1
    assert "api-format" in result.output
    assert not (root / "site").exists()


def test_site_renders_standard_documents_with_title_and_repository(make_corpus, tmp_path: Path):
    def edit(files: Files) -> None:
        standard(files)
        files["pyproject.toml"] += 'site-title = "Things Spec"\nrepository-url = "https://example.com/things"\n'

    root: Path = make_corpus(edit)
    out = tmp_path / "site"
    result = CliRunner().invoke(cli, ["--root", str(root), "site", "build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    http = (out / "api/index.html").read_text(encoding="utf-8")
    assert "getThing" in http and "postDecision" in http
    events = (
        (out / "api/events/index.html").read_text(encoding="utf-8").replace("<wbr>", "")
    )  # identifiers wrap at dots
    assert "run.started" in events
    published = yaml.safe_load((out / "api/openapi.yaml").read_text(encoding="utf-8"))
    written = yaml.safe_load(OPENAPI_TEXT)
    assert published["info"] == written["info"] and set(published["paths"]) == set(written["paths"])
    assert "../../schemas/" not in json.dumps(published)  # its refs into the schemas are bundled in it
    home = (out / "index.html").read_text(encoding="utf-8")
    assert "<title>Things Spec</title>" in home
    assert "https://example.com/things" in home

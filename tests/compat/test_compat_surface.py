"""Compat rules that need more than one schema: files, $defs, events, capabilities, error codes, spec/api."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from support.compat_support import outcome, ref, run_compat, thing
from support.corpus_factory import good_files, schema

E, W, INFO = "error", "warning", "info"


def obj(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, **extra}


def events(types: list[str], payloads: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """run-event and run-event-payloads schemas for these event types and payload $defs."""
    envelope = schema(
        "run-event",
        {
            "type": "object",
            "properties": {"type": {"$ref": "#/$defs/RunEventType"}},
            "$defs": {"RunEventType": {"type": "string", "enum": types}},
        },
        direction="host-emitted",
    )
    index = {t: {"$ref": "#/$defs/" + name} for t, name in zip(types, payloads, strict=True)}
    defs: dict[str, Any] = {"_typeIndex": {"type": "object", "properties": index}, **payloads}
    return {
        "run-event": envelope,
        "run-event-payloads": schema("run-event-payloads", {"$defs": defs}, direction="host-emitted"),
    }


VERIFIED = obj({"verdict": {"enum": ["pass", "fail"]}, "score": {"type": "number"}}, additionalProperties=False)
STARTED = obj({"workflowId": {"type": "string"}})


def test_schema_removed_and_added(tmp_path: Path) -> None:
    changes = run_compat(tmp_path, {"old": thing({}, name="old")}, {"new": thing({}, name="new")})
    assert outcome(changes) == {("compat-schema-removed", E), ("compat-schema-added", INFO)}
    removed = next(c for c in changes if c.rule == "compat-schema-removed")
    assert removed.head is None and removed.path == "schemas/old.schema.json"


def test_direction_changed(tmp_path: Path) -> None:
    changes = run_compat(tmp_path, {"thing": thing(obj({}), "host-emitted")}, {"thing": thing(obj({}), "artifact")})
    assert outcome(changes) == {("compat-direction-changed", W)}


def test_def_removed_that_another_file_referenced(tmp_path: Path) -> None:
    shared = {"$defs": {"mode": {"enum": ["a", "b"]}}}
    base = {
        "shared": thing(shared, name="shared"),
        "user": thing(obj({"m": {"$ref": "shared.schema.json#/$defs/mode"}}), name="user"),
    }
    head = {
        "shared": thing({"$defs": {}}, name="shared"),
        "user": thing(obj({"m": {"enum": ["a", "b"]}}), name="user"),
    }
    changes = run_compat(tmp_path, base, head)
    assert outcome(changes) == {("compat-def-removed", W)}
    assert changes[0].path == "schemas/shared.schema.json"


def test_def_renamed_inside_one_file_is_a_rename_not_a_wire_change(tmp_path: Path) -> None:
    base = {"thing": thing(obj({"m": {"$ref": "#/$defs/a"}}, **{"$defs": {"a": {"enum": ["x"]}}}))}
    head = {"thing": thing(obj({"m": {"$ref": "#/$defs/b"}}, **{"$defs": {"b": {"enum": ["x"]}}}))}
    (change,) = run_compat(tmp_path, base, head)
    assert (change.rule, change.severity.value) == ("compat-schema-renamed", "warning")
    assert change.base is not None and change.base.pointer == "/$defs/a"
    assert change.head is not None and change.head.pointer == "/$defs/b"


def test_cross_file_ref_moved_to_another_file_is_no_change(tmp_path: Path) -> None:
    base = {
        "a": thing({"$defs": {"mode": {"enum": ["x", "y"]}}}, name="a"),
        "user": thing(obj({"m": {"$ref": ref("a", "/$defs/mode")}}), "client-sent", name="user"),
    }
    head = {
        "a": thing({"$defs": {"mode": {"enum": ["x", "y"]}}}, name="a"),
        "b": thing({"$defs": {"kind": {"enum": ["y", "x"]}}}, name="b"),
        "user": thing(obj({"m": {"$ref": "b.schema.json#/$defs/kind"}}), "client-sent", name="user"),
    }
    assert outcome(run_compat(tmp_path, base, head)) == {("compat-schema-added", INFO)}


def test_shared_def_takes_the_strictest_direction(tmp_path: Path) -> None:
    base = {
        "suite": thing({"$defs": {"mode": {"enum": ["a"]}}}, "artifact", name="suite"),
        "caps": thing(
            obj({"modes": {"items": {"$ref": "suite.schema.json#/$defs/mode"}}}), "host-emitted", name="caps"
        ),
    }
    head = copy.deepcopy(base)
    head["suite"]["$defs"]["mode"]["enum"].append("b")
    changes = run_compat(tmp_path, base, head)
    assert outcome(changes) == {("compat-enum-value-added", W)}  # artifact: warning; host-emitted alone: info


def test_capability_removed_and_added(tmp_path: Path) -> None:
    base = {
        "capabilities": thing(obj({"limits": obj({"a": {"type": "integer"}})}), "host-emitted", name="capabilities")
    }
    head = {
        "capabilities": thing(obj({"limits": obj({"b": {"type": "integer"}})}), "host-emitted", name="capabilities")
    }
    assert outcome(run_compat(tmp_path, base, head)) == {
        ("compat-capability-removed", E),
        ("compat-capability-added", INFO),
    }


def test_event_type_added_is_additive(tmp_path: Path) -> None:
    base = events(["run.started"], {"runStarted": STARTED})
    head = events(["run.started", "agent.verified"], {"runStarted": STARTED, "agentVerified": VERIFIED})
    changes = run_compat(tmp_path, base, head)
    assert outcome(changes) == {("compat-event-type-added", INFO)}
    assert {c.path for c in changes} == {"schemas/run-event.schema.json", "schemas/run-event-payloads.schema.json"}


def test_event_type_removed_is_breaking(tmp_path: Path) -> None:
    base = events(["run.started", "agent.verified"], {"runStarted": STARTED, "agentVerified": VERIFIED})
    head = events(["run.started"], {"runStarted": STARTED})
    changes = run_compat(tmp_path, base, head)
    assert outcome(changes) == {("compat-event-type-removed", E), ("compat-def-removed", W)}
    assert len(changes) == 3  # the enum, the _typeIndex and the payload's $def by name


def test_event_payload_changed(tmp_path: Path) -> None:
    base = events(["agent.verified"], {"agentVerified": VERIFIED})
    payload = copy.deepcopy(VERIFIED)
    del payload["properties"]["score"]
    head = events(["agent.verified"], {"agentVerified": payload})
    changes = run_compat(tmp_path, base, head)
    assert outcome(changes) == {("compat-property-removed", E), ("compat-event-payload-changed", E)}
    summary = next(c for c in changes if c.rule == "compat-event-payload-changed")
    assert summary.events == ("agent.verified",)
    assert summary.head is not None and summary.head.pointer == "/$defs/_typeIndex/properties/agent.verified"


def test_optional_member_on_closed_payload_is_additive(tmp_path: Path) -> None:
    base = events(["agent.verified"], {"agentVerified": VERIFIED})
    payload = copy.deepcopy(VERIFIED)
    payload["properties"]["iteration"] = {"type": "integer", "minimum": 1}
    head = events(["agent.verified"], {"agentVerified": payload})
    assert outcome(run_compat(tmp_path, base, head)) == {("compat-property-added", INFO)}


def test_integer_to_number_on_an_event_payload(tmp_path: Path) -> None:
    base = events(["agent.verified"], {"agentVerified": obj({"n": {"type": "integer"}})})
    head = events(["agent.verified"], {"agentVerified": obj({"n": {"type": "number"}})})
    changes = run_compat(tmp_path, base, head)
    assert outcome(changes) == {("compat-type-widened", E), ("compat-event-payload-changed", E)}


def envelope(codes: dict[str, int]) -> dict[str, Any]:
    body = {"x-wop-http-status": codes, "type": "object", "properties": {"error": {"type": "string"}}}
    return {"error-envelope": schema("error-envelope", body, direction="host-emitted")}


def test_error_codes(tmp_path: Path) -> None:
    base = envelope({"validation_error": 400, "conflict": 409, "capability_not_provided": 501})
    head = envelope({"validation_error": 400, "capability_not_provided": 400, "rate_limited": 429})
    changes = run_compat(tmp_path, base, head)
    assert outcome(changes) == {
        ("compat-error-code-removed", E),
        ("compat-error-status-changed", E),
        ("compat-error-code-added", INFO),
    }
    changed = next(c for c in changes if c.rule == "compat-error-status-changed")
    assert changed.head is not None and changed.head.pointer == "/x-wop-http-status/capability_not_provided"


API = """\
operations:
  - operationId: createRun
    method: post
    path: /v1/runs
    request: {schema: run-create-request}
    responses:
      "201": {schema: run-create-response, description: Created.}
      "202": {schema: run-create-response, description: Accepted.}
    errors:
      - {code: validation_error, status: 400, description: Bad body.}
      - {code: capability_not_provided, status: 501, description: Not offered.}
  - operationId: getEvalSummary
    method: get
    path: /v1/runs/{runId}/eval-summary
    responses:
      "200": {schema: eval-summary, description: The summary.}
"""


def api_files(text: str) -> dict[str, Any]:
    return {"spec/api/operations.yaml": text}


def test_api_unchanged_and_absent(tmp_path: Path) -> None:
    assert run_compat(tmp_path / "same", {}, {}, api_files(API), api_files(API)) == []
    assert run_compat(tmp_path / "absent", {}, {}, None, None) == []


def test_api_operation_response_and_error_code_changes(tmp_path: Path) -> None:
    head = (
        API.replace("path: /v1/runs\n", "path: /v1/run\n")
        .replace('      "202": {schema: run-create-response, description: Accepted.}\n', "")
        .replace("status: 501", "status: 400")
        .split("  - operationId: getEvalSummary")[0]
    )
    changes = run_compat(tmp_path, {}, {}, api_files(API), api_files(head))
    assert outcome(changes) == {
        ("compat-operation-changed", E),
        ("compat-response-removed", E),
        ("compat-error-status-changed", E),
        ("compat-operation-removed", E),
    }
    moved = next(c for c in changes if c.rule == "compat-operation-changed")
    assert moved.head is not None and moved.head.path == "spec/api/operations.yaml" and moved.head.line == 2


def test_api_additions(tmp_path: Path) -> None:
    head = API.replace(
        '      "200": {schema: eval-summary, description: The summary.}\n',
        '      "200": {schema: eval-summary, description: The summary.}\n'
        '      "203": {schema: eval-summary, description: A copy.}\n',
    )
    head += "  - operationId: resumeRun\n    method: post\n    path: /v1/runs/{runId}/resume\n"
    changes = run_compat(tmp_path, {}, {}, api_files(API), api_files(head))
    assert outcome(changes) == {("compat-response-added", INFO), ("compat-operation-added", INFO)}


def test_api_method_change(tmp_path: Path) -> None:
    head = API.replace("method: post", "method: put")
    changes = run_compat(tmp_path, {}, {}, api_files(API), api_files(head))
    assert [(c.rule, c.message) for c in changes] == [
        ("compat-operation-changed", "operation createRun: method POST -> PUT")
    ]


def test_api_words_are_not_part_of_the_contract(tmp_path: Path) -> None:
    head = API.replace("description: Created.", "description: The run is created.").replace(
        "description: Bad body.", "description: The body breaks its schema."
    )
    assert run_compat(tmp_path, {}, {}, api_files(API), api_files(head)) == []


CHANNEL = """\
channels:
  - id: runEvents
    address: /v1/runs/{runId}/events
    transport: sse
    title: Run events
    description: Events.
    parameters: []
    envelope: run-event
    payloads: run-event-payloads
    operation: {operationId: receiveRunEvents, action: receive, summary: Receive.}
    messages: []
"""


def test_a_channel_operation_is_not_an_http_operation(tmp_path: Path) -> None:
    base = {**api_files(API), "spec/api/channels.yaml": CHANNEL}
    head = {**api_files(API), "spec/api/channels.yaml": CHANNEL.replace("receiveRunEvents", "streamRunEvents")}
    changes = run_compat(tmp_path, {}, {}, base, head)
    assert [c for c in changes if c.rule.startswith("compat-operation-")] == []


def test_good_fixture_corpus_against_itself_is_clean(tmp_path: Path) -> None:
    files = good_files()
    schemas = {k.split("/")[-1].removesuffix(".schema.json"): v for k, v in files.items() if k.endswith(".schema.json")}
    assert run_compat(tmp_path, schemas, copy.deepcopy(schemas)) == []


PARAMS = """\
operations:
  - operationId: pollEvents
    method: get
    path: /v1/runs/{runId}/events/poll
    description: Poll.
    parameters:
      - {name: runId, in: path, required: true, description: The run., schema: {type: string}}
      - {name: lastSequence, in: query, required: false, description: After., schema: {type: integer}}
"""


def test_api_parameters(tmp_path: Path) -> None:
    same_words = PARAMS.replace("description: Poll.", "description: Poll the event log.")
    assert run_compat(tmp_path / "words", {}, {}, api_files(PARAMS), api_files(same_words)) == []
    optional_added = (
        PARAMS + "      - {name: timeout, in: query, required: false, description: T., schema: {type: integer}}\n"
    )
    assert run_compat(tmp_path / "optional", {}, {}, api_files(PARAMS), api_files(optional_added)) == []
    head = (
        PARAMS.replace("lastSequence, in: query, required: false", "lastSequence, in: query, required: true").replace(
            "{name: runId, in: path, required: true, description: The run., schema: {type: string}}",
            "{name: runId, in: path, required: true, description: The run., schema: {type: integer}}",
        )
        + "      - {name: cursor, in: query, required: true, description: C., schema: {type: string}}\n"
    )
    changes = run_compat(tmp_path / "changed", {}, {}, api_files(PARAMS), api_files(head))
    assert sorted(c.message for c in changes) == [
        "operation pollEvents: new required parameter query:cursor",
        "operation pollEvents: parameter path:runId changed its schema",
        "operation pollEvents: parameter query:lastSequence is now required",
    ]
    assert {c.rule for c in changes} == {"compat-operation-changed"}

"""A small corpus with an API description, for the `api-*` rules and `wopgen api`."""

from __future__ import annotations

import copy
from typing import Any

from support.corpus_factory import good_files, schema

OPERATIONS = """\
info:
  title: Fixture API
  version: "1.0.0"
tags:
  - {name: things, description: Things.}
operations:
  - operationId: getDiscovery
    method: get
    path: /.well-known/openwop
    tag: things
    summary: Read discovery
    description: The discovery document.
    rfc: null
    capability: null
    auth: public
    parameters: []
    request: null
    responses:
      "200": {schema: capabilities, description: Discovery.}
    errors: []
  - operationId: putThing
    method: post
    path: /v1/things/{thingId}
    tag: things
    summary: Store a thing
    description: Stores a thing.
    rfc: "0001"
    capability: agents.evalSuite.supported
    auth: bearer
    parameters:
      - {name: thingId, in: path, required: true, description: The thing., schema: {type: string}}
    request: {schema: thing}
    responses:
      "201": {schema: thing, description: Stored.}
    errors:
      - {code: validation_error, status: 400, description: Bad body.}
      - {code: not_found, status: 404, description: No such thing.}
"""

CHANNELS = """\
channels:
  - id: runEvents
    address: /v1/runs/{runId}/events
    transport: sse
    title: Run events
    description: The events of a run.
    parameters:
      - {name: runId, description: The run.}
    envelope: run-event
    payloads: run-event-payloads
    operation:
      operationId: receiveRunEvents
      action: receive
      summary: Receive events
    messages:
      - type: run.started
      - type: agent.verified
"""


# An AsyncAPI document of a corpus's own, to sit beside the declarative files or other documents.
AUDIT_ASYNCAPI = """\
asyncapi: 3.0.0
info: {title: Audit events, version: "1.0"}
channels:
  audit:
    address: /audit
    title: Audit trail
    messages:
      noted: {name: audit.noted, summary: Something was audited., payload: {type: object}}
"""


def api_files() -> dict[str, Any]:
    files = copy.deepcopy(good_files())
    files["schemas/error-envelope.schema.json"] = schema(
        "error-envelope",
        {
            "x-wop-http-status": {"validation_error": 400, "not_found": 404, "conflict": 409},
            "type": "object",
            "required": ["error", "message"],
            "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
        },
        direction="host-emitted",
    )
    files["schemas/capabilities.schema.json"] = schema(
        "capabilities",
        {
            "type": "object",
            "properties": {"agents": {"$ref": "#/$defs/agents"}},
            "$defs": {
                "agents": {
                    "title": "CapabilitiesAgents",
                    "type": "object",
                    "properties": {
                        "evalSuite": {
                            "title": "EvalSuiteCapability",
                            "type": "object",
                            "properties": {"supported": {"type": "boolean"}},
                        }
                    },
                }
            },
        },
        direction="host-emitted",
    )
    for name, valid, invalid in (
        ("error-envelope", {"error": "conflict", "message": "busy"}, {"error": "conflict"}),
        ("capabilities", {"agents": {"evalSuite": {"supported": True}}}, {"agents": 1}),
    ):
        files[f"schemas/examples/{name}/valid/ok.json"] = valid
        files[f"schemas/examples/{name}/invalid/bad.json"] = invalid
    files["spec/api/operations.yaml"] = OPERATIONS
    files["spec/api/channels.yaml"] = CHANNELS
    return files

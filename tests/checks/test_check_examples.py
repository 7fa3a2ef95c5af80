from __future__ import annotations

import json

THING_VALID = "schemas/examples/thing/valid/named.json"
THING_INVALID = "schemas/examples/thing/invalid/empty-name.json"


def rules(found):
    return {(d.rule, d.path) for d in found}


def test_valid_example_that_fails_reports_keyword_path_and_line(findings):
    def edit(files):
        files[THING_VALID] = {"name": "x", "decision": "sideways"}

    found = [d for d in findings(edit) if d.rule == "example-valid-fails"]
    assert len(found) == 1
    d = found[0]
    text = json.dumps({"name": "x", "decision": "sideways"}, indent=2)
    assert d.line == next(i for i, line in enumerate(text.splitlines(), 1) if "sideways" in line)
    assert "`enum`" in d.message and "$.decision" in d.message


def test_invalid_example_that_passes(findings):
    def edit(files):
        files[THING_INVALID] = {"name": "fine"}

    assert ("example-invalid-passes", THING_INVALID) in rules(findings(edit))


def test_schema_without_examples_is_a_warning(findings):
    def edit(files):
        del files["schemas/examples/decision/invalid/maybe.json"]

    found = [d for d in findings(edit) if d.rule == "example-missing"]
    assert [(d.path, d.severity.value) for d in found] == [("schemas/decision.schema.json", "warning")]
    assert "invalid" in found[0].message


def test_orphan_and_misplaced_examples(findings):
    def edit(files):
        files["schemas/examples/ghost/valid/a.json"] = {}
        files["schemas/examples/thing/maybe/a.json"] = {}

    found = rules(findings(edit))
    assert ("example-orphan", "schemas/examples/ghost/valid/a.json") in found
    assert ("example-misplaced", "schemas/examples/thing/maybe/a.json") in found


def test_malformed_example_json(findings):
    def edit(files):
        files[THING_VALID] = '{"name": "x",}'

    found = [d for d in findings(edit) if d.rule == "example-invalid-json"]
    assert [(d.path, d.line) for d in found] == [(THING_VALID, 1)]


def test_event_examples_validate_against_the_payload_of_their_type(findings):
    def edit(files):
        files["schemas/examples/run-event-payloads/valid/verified-content.json"] = {
            "type": "agent.verified",
            "payload": {"verdict": "pass", "result": "secret"},
        }
        files["schemas/examples/run-event-payloads/valid/bad-shape.json"] = {"verdict": "pass"}

    found = rules(findings(edit))
    assert ("example-valid-fails", "schemas/examples/run-event-payloads/valid/verified-content.json") in found
    assert ("example-event-shape", "schemas/examples/run-event-payloads/valid/bad-shape.json") in found

"""Each schema rule fails on a bad corpus (rule id and line asserted) and is silent on the good one."""

from __future__ import annotations

import json

import pytest

from support.corpus_factory import BASE
from support.helpers import hits

THING = "schemas/thing.schema.json"
PAYLOADS = "schemas/run-event-payloads.schema.json"


def line_of(text: str, needle: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in text")


def test_invalid_json_reports_its_position(findings):
    def edit(files):
        files[THING] = '{\n  "title": "x",\n  "type": ]\n}\n'

    found = [d for d in findings(edit) if d.rule == "schema-invalid-json"]
    assert [(d.path, d.line, d.col) for d in found] == [(THING, 3, 11)]


def test_metaschema_violation_points_at_the_keyword(findings):
    def edit(files):
        files[THING]["properties"]["name"] = {"type": "strung"}

    found = findings(edit)
    assert hits(found, "schema-metaschema")
    d = next(d for d in found if d.rule == "schema-metaschema")
    assert d.path == THING and d.line > 1


@pytest.mark.parametrize("value", [None, "http://json-schema.org/draft-07/schema#"])
def test_dialect_missing_or_wrong(findings, value):
    def edit(files):
        if value is None:
            del files[THING]["$schema"]
        else:
            files[THING]["$schema"] = value

    assert [p for p, _ in hits(findings(edit), "schema-dialect")] == [THING]


def test_id_must_be_base_plus_file_name(findings):
    def edit(files):
        files[THING]["$id"] = BASE + "other.schema.json"

    assert hits(findings(edit), "schema-id") == [(THING, 3)]


def test_duplicate_id(findings):
    def edit(files):
        files["schemas/thing-copy.schema.json"] = dict(files[THING])

    found = findings(edit)
    # the copy claims the URI thing.schema.json has by the convention: the copy is the duplicate
    assert hits(found, "schema-id-duplicate") == [("schemas/thing-copy.schema.json", 3)]


def test_a_files_own_pointers_resolve_in_it_though_another_file_claims_its_id(findings):
    # SchemaStore: a file copying another's `$id` made that one's `#/definitions/...` refs "not exist"
    def edit(files):
        files[THING]["properties"]["named"] = {"$ref": "#/$defs/only-here"}
        files[THING]["$defs"]["only-here"] = {"type": "string"}
        files["schemas/thing-copy.schema.json"] = {**files["schemas/decision.schema.json"], "$id": files[THING]["$id"]}

    found = findings(edit)
    assert hits(found, "schema-ref-unresolved") == []
    assert [path for path, _ in hits(found, "schema-id-duplicate")] == ["schemas/thing-copy.schema.json"]


@pytest.mark.parametrize("claimed", ["decision.schema.json", BASE + "decision.schema.json", "thing-part.json"])
def test_a_nested_id_claiming_another_schemas_uri(findings, claimed):
    """A subschema whose `$id` is another file's URI (relative or absolute), or another subschema's:
    which one a `$ref` reaches would depend on the order a resolver reads them in."""

    def edit(files):
        files[THING]["$defs"] = {"part": {"$id": claimed, "type": "integer"}}
        if claimed == "thing-part.json":
            files[THING]["$defs"]["again"] = {"$id": claimed, "type": "string"}

    found = hits(findings(edit), "schema-id-duplicate")
    assert len(found) == 1 and found[0][0] == THING and found[0][1] > 3


def test_a_nested_id_of_its_own_is_no_duplicate(findings):
    def edit(files):
        files[THING]["$defs"] = {"part": {"$id": "thing-part.json", "type": "integer"}}

    assert hits(findings(edit), "schema-id-duplicate") == []


def test_title_missing(findings):
    def edit(files):
        del files[THING]["title"]

    assert [p for p, _ in hits(findings(edit), "schema-title")] == [THING]


def test_direction_missing_or_unknown(findings):
    def edit(files):
        files[THING]["x-wop-direction"] = "sideways"

    assert hits(findings(edit), "schema-direction") == [(THING, 6)]


def test_unresolved_ref_in_same_file_gives_pointer_and_line(findings):
    def edit(files):
        files[THING]["properties"]["name"] = {"$ref": "#/$defs/nope"}

    found = [d for d in findings(edit) if d.rule == "schema-ref-unresolved"]
    assert len(found) == 1 and found[0].path == THING
    text = json.dumps(dict(files_thing_with_ref("#/$defs/nope")), indent=2)
    assert found[0].line == line_of(text, '"$ref": "#/$defs/nope"')
    assert "/$defs/nope" in found[0].message


def files_thing_with_ref(ref):
    from support.corpus_factory import good_files

    thing = good_files()[THING]
    thing["properties"]["name"] = {"$ref": ref}
    return thing


def test_unresolved_cross_file_ref(findings):
    def edit(files):
        files[THING]["properties"]["decision"] = {"$ref": "missing.schema.json"}

    found = hits(findings(edit), "schema-ref-unresolved")
    assert len(found) == 1 and found[0][0] == THING


def test_network_and_outside_refs_are_reported_and_never_fetched(findings, monkeypatch):
    import socket

    def no_network(*args, **kwargs):
        raise AssertionError("a socket was opened")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)

    def edit(files):
        files[THING]["properties"]["remote"] = {"$ref": "https://example.com/evil.schema.json"}
        files[THING]["properties"]["up"] = {"$ref": "../../outside.schema.json"}
        files["schemas/examples/thing/valid/remote.json"] = {"name": "x", "remote": 1}

    found = hits(findings(edit), "schema-ref-external")
    assert len(found) == 2 and {p for p, _ in found} == {THING}


def test_an_external_ref_is_said_once_and_resolved_when_relative(findings):
    """The message repeated an absolute reference as its own target ("'X' resolves to 'X'"); a relative one
    is shown with the URI it resolves to, and the hint names no $id base (a corpus may hold several)."""

    def edit(files):
        files[THING]["properties"]["remote"] = {"$ref": "https://example.com/evil.schema.json"}
        files[THING]["properties"]["up"] = {"$ref": "../../outside.schema.json"}

    found = sorted((d.message, d.hint) for d in findings(edit) if d.rule == "schema-ref-external")
    relative, absolute = found[0][0], found[1][0]
    assert absolute == (
        "$ref 'https://example.com/evil.schema.json' names no schema of the corpus, and nothing outside it is fetched"
    )
    assert relative.startswith("$ref '../../outside.schema.json' (that is '") and "outside.schema.json')" in relative
    assert {hint for _, hint in found} == {
        "refer to a schema of the corpus, by its $id or by a path relative to this file"
    }


def test_unused_defs_is_a_warning(findings):
    def edit(files):
        files[THING]["$defs"]["spare"] = {"type": "string"}

    found = [d for d in findings(edit) if d.rule == "schema-defs-unused"]
    assert [(d.path, d.severity.value) for d in found] == [(THING, "warning")]


def test_ref_cycle_is_reported_and_does_not_crash(findings):
    def edit(files):
        files[THING]["$defs"]["a"] = {"$ref": "#/$defs/b"}
        files[THING]["$defs"]["b"] = {"$ref": "#/$defs/a"}
        files[THING]["properties"]["loop"] = {"$ref": "#/$defs/a"}
        files["schemas/examples/thing/valid/loop.json"] = {"name": "x", "loop": 1}

    found = findings(edit)
    assert hits(found, "schema-ref-cycle")
    assert hits(found, "example-unverifiable") == [("schemas/examples/thing/valid/loop.json", 1)]


def test_event_enum_and_type_index_must_agree(findings):
    def edit(files):
        files["schemas/run-event.schema.json"]["$defs"]["RunEventType"]["enum"].append("run.exploded")
        del files[PAYLOADS]["$defs"]["_typeIndex"]["properties"]["run.started"]
        del files[PAYLOADS]["$defs"]["runStarted"]

    found = [d for d in findings(edit) if d.rule == "schema-event-index"]
    messages = sorted(d.message for d in found)
    assert len(found) == 2
    assert "run.exploded" in messages[0] + messages[1] and "run.started" in messages[0] + messages[1]


def test_content_free_payload_must_be_closed_and_carry_no_content(findings):
    def edit(files):
        payload = files[PAYLOADS]["$defs"]["agentVerified"]
        payload["additionalProperties"] = True
        payload["properties"]["result"] = {"type": "string"}

    found = [d for d in findings(edit) if d.rule == "schema-content-free"]
    assert len(found) == 2 and {d.path for d in found} == {PAYLOADS}


def test_unknown_rfc_annotation(findings):
    def edit(files):
        files[PAYLOADS]["$defs"]["agentVerified"]["x-wop-rfc"] = "0999"

    assert [p for p, _ in hits(findings(edit), "schema-rfc-unknown")] == [PAYLOADS]


def test_a_metaschema_problem_is_told_once(findings):
    """The 2020-12 metaschema reaches `items` by several routes; the validator reports each one."""

    def edit(files):
        files[THING]["properties"]["pair"] = {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}

    found = [d for d in findings(edit) if d.rule == "schema-metaschema"]
    assert len(found) == 1 and "(at /properties/pair/items)" in found[0].message


@pytest.mark.parametrize(("declared", "own"), [(None, False), ("http://json-schema.org/draft-07/schema#", True)])
def test_a_metaschema_problem_names_the_draft_the_schema_declares_when_that_accepts_it(findings, declared, own):
    # a draft-07 tuple: the corpus's 2020-12 metaschema refuses it, the draft the schema declares does not
    long_item = {"type": "object", "description": "x" * 300}

    def edit(files):
        files[THING]["properties"]["pair"] = {"type": "array", "items": [long_item, {"type": "integer"}]}
        if declared:
            files[THING]["$schema"] = declared

    (found,) = [d for d in findings(edit) if d.rule == "schema-metaschema"]
    assert ("draft-07, which the schema declares, accepts it" in found.hint) is own
    # the value quoted is cut, not the words saying what is wrong with it
    assert "... is not of type 'object', 'boolean' (at /properties/pair/items)" in found.message


def test_metaschema_problems_past_the_limit_are_counted(findings):
    def edit(files):
        files[THING]["properties"].update({f"bad{n}": {"type": "strung"} for n in range(25)})

    found = [d.message for d in findings(edit) if d.rule == "schema-metaschema"]
    assert len(found) == 21
    assert "5 more places the 2020-12 metaschema rejects are not listed" in found

"""`wopgen models` holds the library's types to the schema: an optional member takes null only where its
schema does, and a string format typed as a Python value refuses a JSON number and text its format does
not allow."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pydantic
import pytest

from support.corpus_factory import schema
from support.generated_models import imported_package, package
from wopgen.corpus import load
from wopgen.generate.models import generate_models
from wopgen.generate.models_strict import MARKER, strict_fields

MEMBERS = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "quoted": {"type": "string", "examples": ['x """ y']},  # a `"""` in code opens no docstring
        "name": {"type": "string"},
        "note": {"type": "string", "minLength": 1},  # optional, never null
        "maybe": {"type": ["string", "null"]},  # optional, null allowed
        "either": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "level": {"enum": ["low", "high"], "default": "low"},
        "part": {"$ref": "#/$defs/part"},
        "parts": {"type": "array", "items": {"$ref": "#/$defs/part"}},
        "at": {"type": "string", "format": "date-time"},
        "on": {"type": "string", "format": "date"},
        "times": {"type": "array", "items": {"type": "string", "format": "time"}},
        "lasts": {"type": "string", "format": "duration"},  # an annotation, as `check` reads it
        "link": {"type": "string", "format": "uri"},  # an annotation, as `check` reads it
        "count": {"type": "integer", "format": "date-time"},  # a format binds strings alone
        "amount": {"type": "number", "minimum": 0},
        "ip": {"type": "string", "format": "ipv4"},
        "ip6": {"type": "string", "format": "ipv6"},
        "mail": {"type": "string", "format": "email"},
        "id": {"type": "string", "format": "uuid"},
        "stamp": {"$ref": "#/$defs/stamp"},
        "text": {"type": "string", "contentMediaType": "text/plain"},  # the library keeps it beside the marker
        "date": {"type": "string", "format": "date"},  # the library then imports `date as date_aliased`
    },
    # `reason` applies only when `level` is `high`: otherwise the schema takes any value, null included
    "if": {"properties": {"level": {"const": "high"}}, "required": ["level"]},
    "then": {"properties": {"reason": {"type": "string"}}},
    "$defs": {
        "part": {"type": "object", "properties": {"label": {"type": "string"}}},
        "stamp": {"title": "Stamp", "type": "string", "format": "date-time"},
    },
}
TEXT = {
    "at": "2026-06-01T10:00:00Z",
    "date": "2026-06-01",
    "on": "2026-06-01",
    "times": ["10:00:00Z"],
    "ip": "192.0.2.1",
    "ip6": "2001:db8::1",
    "stamp": "2026-06-01T10:00:00+02:00",
    "id": "0b5e3f4c-9a1d-4c2e-8f6a-1d2c3b4a5f6e",
}
# Text the parser of each member's Python type reads and its format does not allow (RFC 3339, RFC 4122,
# RFC 4291): jsonschema's format checker refuses each.
MISSHAPEN = {
    "at": ["2026-06-01T10:00Z", "2026-06-01 10:00:00Z", "2026-06-01T10:00:00+0100", "2026-06-01T10:00:00.Z"],
    "on": ["2026-06-01T00:00:00Z", "2026-6-1", "\u0662\u0660\u0662\u0666-06-01"],
    "times": [["10:00:00"], ["10:00"]],
    "id": ["0b5e3f4c9a1d4c2e8f6a1d2c3b4a5f6e", "{0b5e3f4c-9a1d-4c2e-8f6a-1d2c3b4a5f6e}"],
    "ip6": ["fe80::1%eth0"],
}


@pytest.fixture(scope="module")
def members(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from support.corpus_factory import good_files

    files = good_files()
    files["schemas/member.schema.json"] = {**schema("member", MEMBERS), "title": "Member"}
    imported_package(files, tmp_path_factory.mktemp("members"), "null_models")
    return importlib.import_module("null_models.member_schema")


@pytest.mark.parametrize("member", ["note", "level", "part", "parts", "text", "quoted", "date"])
def test_an_optional_member_whose_schema_rejects_null_refuses_it(members: Any, member: str) -> None:
    with pytest.raises(pydantic.ValidationError, match="may be left out, but may not be null"):
        members.Member.model_validate({"name": "n", member: None})
    with pytest.raises(pydantic.ValidationError):
        members.Part.model_validate({"label": None})  # in a $defs object too


@pytest.mark.parametrize("member", ["maybe", "either"])
def test_an_optional_member_whose_schema_takes_null_accepts_it(members: Any, member: str) -> None:
    assert getattr(members.Member.model_validate({"name": "n", member: None}), member) is None


def test_left_out_members_keep_their_defaults_and_dump_back_as_sent(members: Any) -> None:
    parsed = members.Member.model_validate({"name": "n", "parts": [{}]})
    assert parsed.level == members.Level.low and parsed.note is None
    assert parsed.model_dump(mode="json", exclude_unset=True) == {"name": "n", "parts": [{}]}
    with pytest.raises(pydantic.ValidationError):
        members.Member.model_validate({"note": "x"})  # required is still required


def test_the_typed_run_events_refuse_null_where_the_envelope_does() -> None:
    event = {
        "eventId": "e1",
        "runId": "r1",
        "type": "agent.verified",
        "sequence": 3,
        "timestamp": "2026-06-01T10:00:00Z",
        "payload": {"agentId": "acme.critic", "target": "e0", "verdict": "pass"},
    }
    parse = package().parse_run_event
    assert parse(event).payload.verdict.value == "pass"
    with pytest.raises(pydantic.ValidationError, match="may not be null"):
        parse({**event, "causationId": None})
    with pytest.raises(pydantic.ValidationError, match="may not be null"):
        parse({**event, "type": "no.such.type", "causationId": None})  # the envelope of an unknown type too


def test_the_marker_becomes_not_null_beside_the_field_s_other_arguments() -> None:
    marker = f"json_schema_extra={{'{MARKER}': True}}"
    text = (
        "from __future__ import annotations\n"
        "class A(BaseModel):\n"
        '    """Ünïcode \u2028 and a form feed \x0c in a docstring."""\n'
        f"    é: Annotated[StrictStr | None, Field(alias='é—x', {marker}, min_length=2)] = None\n"
        f"    b: Annotated[StrictInt | None, Field({marker})] = 3\n"
        f"    c: tuple[Annotated[StrictInt | None, Field({marker})], Annotated[StrictStr | None, Field({marker})]]\n"
    )
    rewritten = strict_fields(text, 1)
    assert MARKER not in rewritten
    assert rewritten.startswith("from __future__ import annotations\nfrom ._strict import NOT_NULL\n")
    assert "Field(alias='é—x', min_length=2), NOT_NULL] = None\n" in rewritten
    assert "b: Annotated[StrictInt | None, NOT_NULL] = 3\n" in rewritten
    assert "c: tuple[Annotated[StrictInt | None, NOT_NULL], Annotated[StrictStr | None, NOT_NULL]]\n" in rewritten
    assert strict_fields("x: int = 1\n", 1) == "x: int = 1\n"  # nothing marked: left as it is


def test_a_package_with_nothing_to_hold_gets_no_helper_module(make_corpus: Any) -> None:
    def only_nullable(files: dict[str, Any]) -> None:
        for path in [p for p in files if p.startswith("schemas/") and p.endswith(".schema.json")]:
            del files[path]
        body = {"type": "object", "properties": {"text": {"type": ["string", "null"]}}}
        files["schemas/note.schema.json"] = {**schema("note", body), "title": "Note"}
        files["pyproject.toml"] += "examples-required = []\n"

    files = generate_models(load(make_corpus(only_nullable)), package="plain")
    assert "plain/_strict.py" not in files and not any("NOT_NULL" in text for text in files.values())


def test_the_helper_module_is_written_with_the_package(members: Any) -> None:
    helper = Path(members.__file__).with_name("_strict.py")
    assert helper.is_file() and "NOT_NULL = AfterValidator(refuse_null)" in helper.read_text(encoding="utf-8")


@pytest.mark.parametrize("member", sorted(TEXT))
@pytest.mark.parametrize("number", [7, 0, 1.5, True])
def test_a_string_format_typed_as_a_python_value_refuses_a_number(members: Any, member: str, number: Any) -> None:
    """Lax pydantic reads 7 as a Unix time, a count of seconds or an address; the schema's type is a string."""
    value = [number] if member == "times" else number
    with pytest.raises(pydantic.ValidationError, match="must be a string, not a number or a boolean"):
        members.Member.model_validate({"name": "n", member: value})


@pytest.mark.parametrize(("member", "text"), [(m, t) for m, texts in MISSHAPEN.items() for t in texts])
def test_a_string_format_refuses_text_of_another_shape(members: Any, member: str, text: Any) -> None:
    from jsonschema import Draft202012Validator

    from wopgen.corpus.validation import FORMAT_CHECKER

    assert not Draft202012Validator(MEMBERS["properties"][member], format_checker=FORMAT_CHECKER).is_valid(text)
    with pytest.raises(pydantic.ValidationError, match="must be"):
        members.Member.model_validate_json(json.dumps({"name": "n", member: text}))


def test_a_string_format_still_reads_its_text_and_its_python_value(members: Any) -> None:
    from datetime import UTC, datetime

    parsed = members.Member.model_validate({"name": "n", **TEXT})
    assert parsed.at == datetime(2026, 6, 1, 10, tzinfo=UTC)
    assert parsed.model_dump(mode="json", exclude_unset=True)["ip6"] == "2001:db8::1"
    assert members.Member(name="n", at=datetime(2026, 6, 1, tzinfo=UTC)).at.year == 2026  # built in Python
    assert members.Stamp.model_validate(TEXT["stamp"]).root.utcoffset() is not None  # a root model too
    with pytest.raises(pydantic.ValidationError):
        members.Stamp.model_validate(7)


# Per member whose format `check` does not assert (or on a value not typed as a string): values the schema
# takes, which a typed format refused (AnyUrl took no relative reference, a timedelta no other text, a
# datetime no integer), and values it refuses.
ANNOTATED = {
    "link": (["a/b", "", "not a uri", "https://a.example", "HTTP://A.EXAMPLE/x"], [5, None]),
    "lasts": (["nonsense", "P1D"], [7]),
    "count": ([5, 0], ["2026-06-01T10:00:00Z", 1.5]),
}


@pytest.mark.parametrize("member", sorted(ANNOTATED))
def test_a_format_check_does_not_assert_is_an_annotation_in_the_model(members: Any, member: str) -> None:
    from jsonschema import Draft202012Validator

    from wopgen.corpus.validation import FORMAT_CHECKER

    judge = Draft202012Validator(MEMBERS["properties"][member], format_checker=FORMAT_CHECKER)
    taken, refused = ANNOTATED[member]
    for value in [*taken, *refused]:
        sent = {"name": "n", member: value}
        try:
            parsed = members.Member.model_validate_json(json.dumps(sent))
        except pydantic.ValidationError:
            parsed = None
        assert (parsed is not None) == judge.is_valid(value) == (value in taken), value
        if parsed is not None:  # the text is kept as sent, not rewritten as a URL is
            assert parsed.model_dump(mode="json", exclude_unset=True) == sent


@pytest.mark.parametrize("value", [1, 9007199254740993, 1.5, 0, -1, True, "1"])
def test_a_number_keeps_an_integer_as_the_integer_it_is(members: Any, value: Any) -> None:
    """A `number` that holds an integer dumps as that integer: StrictFloat made 1 the float 1.0, and
    9007199254740993 the float 9007199254740992.0, another value."""
    from jsonschema import Draft202012Validator

    sent = {"name": "n", "amount": value}
    try:
        parsed = members.Member.model_validate_json(json.dumps(sent))
    except pydantic.ValidationError:
        parsed = None
    assert (parsed is not None) == Draft202012Validator(MEMBERS["properties"]["amount"]).is_valid(value)
    if parsed is not None:
        assert json.loads(parsed.model_dump_json(exclude_unset=True)) == sent
        assert type(parsed.amount) is type(value)


def test_the_models_type_only_formats_check_asserts() -> None:
    from wopgen.corpus.validation import ASSERTED_FORMATS
    from wopgen.generate.models_formats import FORMAT_SAMPLES, TYPED_FORMATS

    assert TYPED_FORMATS <= ASSERTED_FORMATS and {"uri", "duration"}.isdisjoint(TYPED_FORMATS)
    assert set(FORMAT_SAMPLES) == TYPED_FORMATS


def test_an_email_is_a_strict_string_so_the_package_needs_no_email_validator(members: Any) -> None:
    assert members.Member.model_validate({"name": "n", "mail": "a@example.org"}).mail == "a@example.org"
    with pytest.raises(pydantic.ValidationError):
        members.Member.model_validate({"name": "n", "mail": 7})
    assert "EmailStr" not in Path(members.__file__).read_text(encoding="utf-8")


def test_words_in_a_docstring_are_left_alone_and_a_split_statement_is_read_whole() -> None:
    marker = f"json_schema_extra={{'{MARKER}': True}}"
    text = (
        "from __future__ import annotations\n"
        "class A(BaseModel):\n"
        "    at: date | None = None\n"
        '    """\n'
        "    date: date | None = None\n"
        f"    b: Annotated[time, Field({marker})] = None\n"
        '    """\n'
        "    c: Annotated[StrictStr | None, Field(\n"
        f"        {marker})] = None\n"
        "class B(RootModel[list[UUID]]):\n"
        "    root: list[UUID]\n"
    )
    rewritten = strict_fields(text, 1)
    assert "    at: DateText | None = None\n" in rewritten
    assert '    """\n    date: date | None = None\n' in rewritten  # a docstring's words, not code
    assert f"    b: Annotated[time, Field({marker})] = None\n" in rewritten
    assert "c: Annotated[StrictStr | None, NOT_NULL] = None\n" in rewritten  # found by parsing the module whole
    assert "class B(RootModel[list[UUIDText]]):\n    root: list[UUIDText]\n" in rewritten
    assert "from ._strict import DateText, NOT_NULL, UUIDText\n" in rewritten


def test_members_are_judged_alike_by_the_compiled_engine_and_by_jsonschema(monkeypatch: pytest.MonkeyPatch) -> None:
    """One compiled validator judges every optional member at once; where it cannot tell, jsonschema
    judges each, with the same answer."""
    from support.generated_models import repo_corpus
    from wopgen.generate.models_strict import optional_not_null

    corpus = repo_corpus()
    compiled = optional_not_null(corpus)
    assert sum(map(len, compiled.values())) > 100
    monkeypatch.setattr(type(corpus.compiled), "rejecting", lambda self, targets, instance: None)
    assert optional_not_null(corpus) == compiled


def test_the_marker_never_reaches_the_model_s_json_schema(members: Any) -> None:
    schema = json.dumps(members.Member.model_json_schema())
    assert MARKER not in schema and "text/plain" in schema  # the library's own extra keys stay


def test_a_member_of_a_then_takes_null_where_the_schema_does(members: Any) -> None:
    assert members.Member.model_validate({"name": "n", "reason": None}).reason is None


def test_a_triple_quote_inside_a_string_of_code_opens_no_docstring() -> None:
    marker = f"json_schema_extra={{'{MARKER}': True}}"
    text = (
        "from __future__ import annotations\n"
        "class A(BaseModel):\n"
        '    q: Annotated[StrictStr | None, Field(examples=[\'x """ y\'])] = None\n'
        f"    b: Annotated[StrictStr | None, Field({marker})] = None\n"
        "    at: AwareDatetime | None = None\n"
        '    """\n    A docstring.\n    """\n'
    )
    rewritten = strict_fields(text, 1)
    assert "    b: Annotated[StrictStr | None, NOT_NULL] = None\n" in rewritten
    assert "    at: AwareDatetimeText | None = None\n" in rewritten


def test_a_member_whose_name_looks_percent_encoded_is_judged_by_its_own_schema(make_corpus: Any) -> None:
    """`#/properties/%41` is decoded to `A` by both engines unless the pointer is encoded."""
    from wopgen.generate.models_strict import optional_not_null

    def edit(files: dict[str, Any]) -> None:
        body = {"type": "object", "properties": {"A": {"type": ["string", "null"]}, "%41": {"type": "string"}}}
        files["schemas/odd.schema.json"] = {**schema("odd", body), "title": "Odd"}
        files["pyproject.toml"] += "examples-required = []\n"

    corpus = load(make_corpus(edit))
    assert optional_not_null(corpus)["schemas/odd.schema.json"] == ["/properties/%41"]
    assert corpus.validator("schemas/odd.schema.json", "/properties/%41").is_valid(None) is False
    assert corpus.compiled_verdict("schemas/odd.schema.json", "/properties/%41", None) is False

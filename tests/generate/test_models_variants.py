"""The first typed run-event class the library generates gets the shared envelope members from
`UnknownRunEvent` (`complete_variants`) and the others are written from it (`clone_variants`) after
one library run; the result has the classes the library makes when it generates every variant whole."""

from __future__ import annotations

from typing import Any

import pytest

from support.generated_models import count_library_runs, generated, repo_corpus, same_package
from wopgen.generate import models
from wopgen.generate.models import EventVariant, clone_variants, complete_variants, generate_models

TEMPLATE = '''
class UnknownRunEvent(BaseModel):
    """
    Unknown.
    """
    model_config = ConfigDict(
        extra='allow',
    )
    eventId: StrictStr
    """
    The id.
    """
    type: StrictStr
    payload: dict[str, Any]
    """
    Untouched.
    """
    tags: list[StrictStr] | None = None

    @model_validator(mode='before')
    @classmethod
    def _check(cls, data: Any) -> Any:
        return data
'''

VARIANT = '''from x import y


class AEvent(BaseModel):
    """
    Type a.
    """
    model_config = ConfigDict(
        extra='allow',
    )
    type: Literal['a']
    """
    The event type.
    """
    payload: payloads.APayload
'''

COMPLETED = '''from x import y


class AEvent(BaseModel):
    """
    Type a.
    """
    model_config = ConfigDict(
        extra='allow',
    )
    eventId: StrictStr
    """
    The id.
    """
    type: Literal['a']
    """
    The event type.
    """
    payload: payloads.APayload
    tags: list[StrictStr] | None = None

    @model_validator(mode='before')
    @classmethod
    def _check(cls, data: Any) -> Any:
        return data
'''


def test_a_variant_gets_the_template_members_in_their_order() -> None:
    assert complete_variants(VARIANT + TEMPLATE, ["AEvent"]) == COMPLETED + TEMPLATE


@pytest.mark.parametrize(
    ("variant", "why"),
    [
        (VARIANT + "    extra: int\n", "a member the template lacks"),
        (VARIANT.replace("    payload: payloads.APayload\n", ""), "no payload of its own"),
        (VARIANT.replace("extra='allow'", "extra='forbid'"), "a different configuration"),
    ],
)
def test_a_variant_that_does_not_fit_the_template_is_refused(variant: str, why: str) -> None:
    assert complete_variants(variant + TEMPLATE, ["AEvent"]) is None, why


def test_no_template_or_a_missing_variant_is_refused() -> None:
    assert complete_variants(VARIANT, ["AEvent"]) is None
    assert complete_variants(VARIANT + TEMPLATE, ["AEvent", "BEvent"]) is None


def test_completed_variants_equal_the_library_generating_them_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    _out, completed = generated()
    runs = count_library_runs(monkeypatch)
    monkeypatch.setattr(models, "complete_variants", lambda text, names: None)  # as if it did not fit
    whole = generate_models(repo_corpus())
    assert len(runs) == 2  # the light run, then the whole one
    same_package(completed, whole)
    assert 'type: Literal["agent.verified"]' in whole[f"{repo_corpus().settings.models_package}/run_events_schema.py"]


def _third_type(description: str, title: str = "RunPausedPayload") -> Any:
    """An edit of the test corpus adding the event type `run.paused`, its payload described so."""

    def edit(files: dict[str, Any]) -> None:
        payloads = files["schemas/run-event-payloads.schema.json"]["$defs"]
        payloads["_typeIndex"]["properties"]["run.paused"] = {"$ref": "#/$defs/runPaused"}
        payloads["runPaused"] = {
            "title": title,
            "description": description,
            "type": "object",
            "required": ["why"],
            "properties": {"why": {"type": "string", "minLength": 1}},
        }
        enum = files["schemas/run-event.schema.json"]["$defs"]["RunEventType"]["enum"]
        enum.append("run.paused")

    return edit


@pytest.mark.parametrize(
    ("description", "title", "library_runs"),
    [
        ("The run waits.\n\nUntil someone `resumes` it: see the RFC.", "RunPausedPayload", 1),
        ("Tabs\there, trailing  \n  spaces, Ünïcode — ’quotes’\u2028\x0c, a 'quote'", "RunPausedPayload", 1),
        # A quote or a backslash: the library escapes it, so it writes that class and the rest are cloned.
        ('The run waits for a "resume".', "RunPausedPayload", 1),
        ("A back\\slash.", "RunPausedPayload", 1),
        ("Same title as another payload.", "RunStartedPayload", 2),  # the library renames one of them
    ],
)
def test_cloned_variants_equal_the_library_generating_them_whole(
    monkeypatch: pytest.MonkeyPatch, make_corpus: Any, description: str, title: str, library_runs: int
) -> None:
    from wopgen.corpus import load

    corpus = load(make_corpus(_third_type(description, title)))
    runs = count_library_runs(monkeypatch)
    ours = generate_models(corpus)
    assert len(runs) == library_runs
    monkeypatch.setattr(models, "clone_variants", lambda *given: None)
    same_package(ours, generate_models(corpus))
    assert len(runs) == library_runs + 2
    events = ours["wop_models/run_events_schema.py"]
    assert 'type: Literal["run.paused"]' in events and "class RunPausedEvent(" in events


def _variant(name: str, event_type: str, payload: str, description: str) -> EventVariant:
    return EventVariant(event_type, name, payload, description)


LIGHT = '''
class AEvent(BaseModel):
    """
    Type a.
    """
    type: Literal['a']
    payload: payloads.APayload


class UnknownRunEvent(BaseModel):
    type: StrictStr


class RunEvents(RootModel[AEvent | UnknownRunEvent]):
    root: AEvent | UnknownRunEvent
'''

PAYLOADS = "class APayload(BaseModel):\n    pass\n\n\nclass BPayload(BaseModel):\n    pass\n"


def test_a_variant_is_written_from_the_first() -> None:
    a, b = _variant("AEvent", "a", "APayload", "Type a."), _variant("BEvent", "b.x", "BPayload", "Type b.")
    cloned = clone_variants(LIGHT, [a, b], PAYLOADS)
    assert cloned is not None
    assert (
        'class BEvent(BaseModel):\n    """\n    Type b.\n    """\n    type: Literal[\'b.x\']\n    payload: payloads.BPayload\n'
        in cloned
    )
    assert cloned.count("AEvent | BEvent | UnknownRunEvent") == 2


@pytest.mark.parametrize(
    ("second", "why"),
    [
        (_variant("BEvent", "b", "CPayload", "Type b."), "its payload class is not in the payload module"),
        (_variant("BEvent", "b'", "BPayload", "Type b."), "a quote in its type"),
        (_variant("BEvent", "b", "BPayload", "Type \\b."), "a backslash in its description"),
        (_variant("BEvent", "b", "class", "Type b."), "a payload named by a keyword"),
    ],
)
def test_a_variant_that_cannot_be_written_from_the_first_is_refused(second: EventVariant, why: str) -> None:
    assert clone_variants(LIGHT, [_variant("AEvent", "a", "APayload", "Type a."), second], PAYLOADS) is None, why


def test_a_first_variant_unlike_its_description_is_refused() -> None:
    assert clone_variants(LIGHT, [_variant("AEvent", "a", "APayload", "Type z.")], PAYLOADS) is None
    assert clone_variants(LIGHT, [_variant("AEvent", "a", "APayload", "Type a.")], PAYLOADS + PAYLOADS) is None
    renamed = PAYLOADS + "\n\nclass APayload1(BaseModel):\n    pass\n"  # the library's second `APayload`
    assert clone_variants(LIGHT, [_variant("AEvent", "a", "APayload", "Type a.")], renamed) is None


def test_the_library_runs_once_when_the_variants_fit(monkeypatch: pytest.MonkeyPatch, make_corpus: Any) -> None:
    from wopgen.corpus import load

    runs = count_library_runs(monkeypatch)
    files = generate_models(load(make_corpus()))
    assert runs == [True]
    events = files["wop_models/run_events_schema.py"]
    assert "class UnknownRunEvent(" in events and 'type: Literal["agent.verified"]' in events


def test_a_malformed_envelope_required_is_refused_by_the_library_not_a_crash(make_corpus: Any) -> None:
    from wopgen.corpus import load
    from wopgen.generate.models import ModelsError

    def bad_required(files: dict[str, Any]) -> None:
        files["schemas/run-event.schema.json"]["required"] = 5

    with pytest.raises(ModelsError, match="refused the schemas"):
        generate_models(load(make_corpus(bad_required)))


def test_a_schema_nested_past_the_recursion_limit_is_an_error_not_a_traceback(make_corpus: Any) -> None:
    from wopgen.corpus import load
    from wopgen.generate.models import ModelsError

    def deep(files: dict[str, Any]) -> None:
        node: dict[str, Any] = {"type": "string"}
        for _ in range(900):  # valid JSON Schema, which `check` takes
            node = {"type": "array", "items": node}
        files["schemas/run-event.schema.json"]["properties"]["deep"] = node

    with pytest.raises(ModelsError, match="nests too deeply for the models"):
        generate_models(load(make_corpus(deep)))


def test_the_librarys_words_in_an_error_are_bounded(make_corpus: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import datamodel_code_generator

    from wopgen.corpus import load
    from wopgen.generate.models import ModelsError

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise ValueError("validation error " + "x" * 1_000_000)

    monkeypatch.setattr(datamodel_code_generator, "generate", refuse)
    with pytest.raises(ModelsError, match=r"refused the schemas: validation error x+… \(998,017 more characters\)$"):
        generate_models(load(make_corpus()))

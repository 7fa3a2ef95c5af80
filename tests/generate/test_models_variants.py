"""The typed run-event classes get the shared envelope members from `UnknownRunEvent` after one
library run; the result is the module the library makes when every variant carries them all."""

from __future__ import annotations

from typing import Any

import pytest

from support.generated_models import generated, repo_corpus
from wopgen.generate import models
from wopgen.generate.models import complete_variants, generate_models

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


def _count_library_runs(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """A list that gets an item per run of the library from now on."""
    runs: list[bool] = []
    generate = models._run_generator

    def counted(files: dict[str, Any], folder: Any) -> Any:
        runs.append(True)
        return generate(files, folder)

    monkeypatch.setattr(models, "_run_generator", counted)
    return runs


def test_completed_variants_equal_the_library_generating_them_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    _out, completed = generated()
    runs = _count_library_runs(monkeypatch)
    monkeypatch.setattr(models, "complete_variants", lambda text, names: None)  # as if it did not fit
    whole = generate_models(repo_corpus())
    assert len(runs) == 2  # the light run, then the whole one
    assert whole == completed
    assert 'type: Literal["agent.verified"]' in whole[f"{repo_corpus().settings.models_package}/run_events_schema.py"]


def test_the_library_runs_once_when_the_variants_fit(monkeypatch: pytest.MonkeyPatch, make_corpus: Any) -> None:
    from wopgen.corpus import load

    runs = _count_library_runs(monkeypatch)
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

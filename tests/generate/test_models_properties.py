"""Property tests: on instances hypothesis-jsonschema generates from each schema, the generated
model and `jsonschema` reach the same verdict, before and after adding an undeclared member."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

from support.generated_models import PAYLOADS, payload_model, repo_corpus, root_model
from wopgen.corpus.validation import FORMAT_CHECKER
from wopgen.generate.bundle import bundled_schema

UNDECLARED = "zzUndeclaredMember"


def _targets() -> list[tuple[str, str, str]]:
    """(test id, schema name, pointer of the subschema or '') for every root and event payload."""
    corpus = repo_corpus()
    found = [(name, name, "") for name in sorted(corpus.schemas_by_name) if name != PAYLOADS]
    index = corpus.schemas_by_name[PAYLOADS].data["$defs"]["_typeIndex"]["properties"]
    for event_type in sorted(index):
        found.append((f"{PAYLOADS}:{event_type}", PAYLOADS, event_type))
    return found


TARGETS = _targets()


def _model(schema_name: str, event_type: str) -> tuple[Any, str]:
    if event_type:
        return payload_model(event_type)
    return root_model(schema_name), ""


def _verdict(cls: Any, instance: Any) -> bool:
    try:
        cls.model_validate(instance)
    except pydantic.ValidationError:
        return False
    return True


def _optional_members(schema: Any) -> list[str]:
    """The members an instance of the bundled `schema` may leave out, where the object its root
    refers to (through local `$ref`s) states them."""
    node = schema
    while isinstance(node, dict) and str(node.get("$ref", "")).startswith("#/"):
        target: Any = schema
        for token in node["$ref"][2:].split("/"):
            target = target[token.replace("~1", "/").replace("~0", "~")]
        node = target
    properties = node.get("properties") if isinstance(node, dict) else None
    if not isinstance(properties, dict):
        return []
    return sorted(set(properties) - set(node.get("required", [])))


@pytest.mark.parametrize(("schema_name", "event_type"), [t[1:] for t in TARGETS], ids=[t[0] for t in TARGETS])
def test_model_and_jsonschema_agree_on_generated_instances(schema_name: str, event_type: str) -> None:
    cls, pointer = _model(schema_name, event_type)
    schema = bundled_schema(repo_corpus(), schema_name, pointer)
    validator = Draft202012Validator(schema, format_checker=FORMAT_CHECKER)

    optional = _optional_members(schema)

    @settings(max_examples=10, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(instance=from_schema(schema), add_member=st.booleans(), null_member=st.sampled_from(optional or [""]))
    def agree(instance: Any, add_member: bool, null_member: str) -> None:
        assert validator.is_valid(instance)
        parsed = cls.model_validate(instance)  # a valid instance must parse
        again = cls.model_validate(parsed.model_dump(mode="json", by_alias=True, exclude_unset=True))
        assert again == parsed
        if add_member and isinstance(instance, dict) and UNDECLARED not in instance:
            mutated = {**instance, UNDECLARED: 1}
            assert _verdict(cls, mutated) == validator.is_valid(mutated), mutated
        if null_member and isinstance(instance, dict):  # an optional member sent as null, a number, a flag
            for value in (None, 7, 1.5, True):
                mutated = {**instance, null_member: value}
                assert _verdict(cls, mutated) == validator.is_valid(mutated), mutated

    agree()

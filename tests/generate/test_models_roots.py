"""A member typed as a class that wraps one value keeps its constraints in that class, and a wrapped value
flagged `deprecated` is still read: the library's code raised on every valid value in both cases."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from support.corpus_factory import good_files, schema
from support.generated_models import imported_package, takes
from wopgen.generate.models_roots import root_fields_repaired

TITLED = {
    "type": "object",
    "properties": {
        "count": {"title": "Count", "type": "number", "minimum": 0},
        "code": {"title": "Code", "type": "string", "minLength": 2, "pattern": "^[a-z]+$"},
        "old": {"$ref": "#/$defs/old"},
        # unique items: the class wrapping the list has the library's run-time check as a base too
        "ids": {"title": "Ids", "type": "array", "uniqueItems": True, "minItems": 1, "items": {"type": "string"}},
    },
    "$defs": {"old": {"title": "Old", "deprecated": True, "description": "Kept for older readers."}},
}
CASES = [
    ({"count": 1}, True),
    ({"count": -1}, False),
    ({"code": "ab"}, True),
    ({"code": "a"}, False),
    ({"code": "AB"}, False),
    ({"old": [1, "x"]}, True),
    ({"old": None}, True),
    ({"ids": ["a"]}, True),
    ({"ids": []}, False),
    ({"ids": ["a", "a"]}, False),
]


@pytest.fixture(scope="module")
def titled(tmp_path_factory: pytest.TempPathFactory) -> Any:
    files = good_files()
    files["schemas/titled.schema.json"] = schema("titled", TITLED)
    imported_package(files, tmp_path_factory.mktemp("titled"), "titled_models")
    return importlib.import_module("titled_models.titled_schema").Titled


@pytest.mark.parametrize(("instance", "valid"), CASES)
def test_the_model_reads_wrapped_values_as_the_schema_does(titled: Any, instance: Any, valid: bool) -> None:
    assert Draft202012Validator(TITLED).is_valid(instance) is valid
    assert takes(titled, instance) is valid


LIBRARY = """class N(RootModel[StrictFloat]):
    root: Annotated[StrictFloat, Field(ge=0.0, title="N")]


class T(BaseModel):
    n: Annotated[N | None, Field(ge=0, le=9, title="N")] = None
    m: Annotated[float | None, Field(ge=0)] = None
"""


def test_only_what_the_wrapping_class_holds_is_dropped_from_the_member() -> None:
    repaired = root_fields_repaired(LIBRARY)
    assert "    n: Annotated[N | None, Field(le=9, title='N')] = None" in repaired  # `le` is the member's own
    assert "    m: Annotated[float | None, Field(ge=0)] = None" in repaired  # a plain float keeps its bound


def test_a_module_without_a_wrapping_class_is_left_as_it_is() -> None:
    text = "class T(BaseModel):\n    n: Annotated[int, Field(ge=0)]\n"
    assert root_fields_repaired(text) is text

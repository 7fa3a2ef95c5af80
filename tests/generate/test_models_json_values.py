"""`wopgen models` compares JSON values as JSON Schema does: a boolean is not a number (Python's
`True == 1` does not count), while `1.0` is the integer 1; and a `const` the library cannot write as a
`Literal` still holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from jsonschema import Draft202012Validator

from support.corpus_factory import good_files, schema
from support.generated_models import imported_package, mypy_strict, takes
from wopgen.generate.models_strict import strict_fields

MEMBERS = {
    "one": {"const": 1},
    "zero": {"type": "integer", "const": 0},
    "yes": {"const": True},
    "no": {"const": False},
    "small": {"enum": [1, 2]},
    "level": {"type": "integer", "enum": [1, 2]},  # the library makes an IntEnum of it
    "flag": {"enum": [True]},
    "mixed": {"enum": ["a", 1, None]},
    "either": {"enum": [1, True]},  # Python's Enum keeps one member for both
    "shape": {"enum": [{"a": 1}, [1]]},
    "word": {"enum": ["a", "b"]},
    "count": {"type": "integer"},
    "bounded": {"type": "integer", "minimum": 0, "maximum": 10},
    "third": {"type": "integer", "multipleOf": 3},
    "counts": {"type": "array", "items": {"type": "integer"}},
    "rate": {"const": 1.5},
    "pair": {"const": [1, "a"]},
    "box": {"const": {"a": 1}},
    "version": {"type": "string", "pattern": r"^\d+\.\d+$"},
    "name": {"type": "string", "pattern": r"^[\w-]+\W\D$"},
    # An enum the keywords beside it narrow: the library's Enum class keeps every listed value.
    "typed": {"type": "string", "enum": ["a", 5, None]},
    "long": {"type": "string", "minLength": 2, "enum": ["ab", "c"]},
    "floor": {"type": "integer", "minimum": 2, "enum": [1, 2, 3]},
    "led": {"pattern": "^a", "enum": ["ab", "c", 5]},
    # Arrays and objects listed beside the type or members that hold them: the library typed them by
    # those and dropped the list.
    "ones": {"type": "array", "const": [1]},
    "origin": {"type": "object", "const": {"x": 0}},
    "spots": {"type": "object", "properties": {"x": {"type": "integer"}}, "enum": [{"x": 1}, {"x": 2}]},
}
# Per member: values the schema takes, and values it refuses that the library's types would take.
TAKEN = {
    "one": [1, 1.0],
    "zero": [0, 0.0, -0.0],
    "yes": [True],
    "no": [False],
    "small": [1, 2.0],
    "level": [1, 2.0],
    "flag": [True],
    "mixed": ["a", 1, 1.0, None],
    "either": [1, 1.0, True],
    "shape": [{"a": 1}, {"a": 1.0}, [1], [1.0]],
    "word": ["a"],
    "count": [7, 7.0, -0.0, 1e20],
    "bounded": [10, 10.0, 0.0],
    "third": [6, 6.0],
    "counts": [[1, 2.0]],
    "rate": [1.5],
    "pair": [[1, "a"], [1.0, "a"]],
    "box": [{"a": 1}, {"a": 1.0}],
    "typed": ["a"],
    "long": ["ab"],
    "floor": [2, 3.0],
    "led": ["ab", 5],
    "ones": [[1], [1.0]],
    "origin": [{"x": 0}],
    "spots": [{"x": 1}, {"x": 2.0}],
}
REFUSED = {
    "one": [True],
    "zero": [False],
    "yes": [1, 1.0],
    "no": [0, 0.0],
    "small": [True],
    "level": [True],
    "flag": [1, 1.0],
    "mixed": [True],
    "either": [False, 0],
    "shape": [{"a": True}, [True]],
    "count": [True, 7.5, "7"],
    "bounded": [11.0, -1.0, True],
    "third": [4.0, True],
    "counts": [[1, True], [1.5]],
    "rate": [1, 2.5, True, "1.5"],
    "pair": [[], [True, "a"], [1, "a", 1]],
    "box": [{}, {"a": True}, {"a": 1, "b": 2}],
    "typed": [5, None],
    "long": ["c"],
    "floor": [1],
    "led": ["c"],
    "ones": [[], [2], [1, 1]],
    "origin": [{}, {"x": 1}, {"x": 0, "y": 0}],
    "spots": [{"x": 3}, {}],
}


@pytest.fixture(scope="module")
def values(tmp_path_factory: pytest.TempPathFactory) -> Any:
    files = good_files()
    files["schemas/values.schema.json"] = {
        **schema("values", {"type": "object", "properties": MEMBERS}),
        "title": "Values",
    }
    files["schemas/rate.schema.json"] = {**schema("rate", {"const": 1.5}), "title": "Rate"}  # at the root too
    return imported_package(files, tmp_path_factory.mktemp("values"), "value_models")


@pytest.mark.parametrize(("member", "value"), [(m, v) for m, vs in TAKEN.items() for v in vs])
def test_a_value_the_schema_takes_is_taken(values: Any, member: str, value: Any) -> None:
    assert Draft202012Validator({"type": "object", "properties": MEMBERS}).is_valid({member: value})
    assert takes(values.Values, {member: value})


@pytest.mark.parametrize(("member", "value"), [(m, v) for m, vs in REFUSED.items() for v in vs])
def test_a_value_the_schema_refuses_is_refused(values: Any, member: str, value: Any) -> None:
    assert not Draft202012Validator({"type": "object", "properties": MEMBERS}).is_valid({member: value})
    assert not takes(values.Values, {member: value})


def test_a_const_at_the_root_holds_too(values: Any) -> None:
    """The library typed `const: 1.5` at the root as any value; it is now the Enum of its one value."""
    assert takes(values.Rate, 1.5)
    assert not any(takes(values.Rate, other) for other in (1, "x", None, [], {}))


def test_integers_read_as_integers_and_enums_keep_their_members(values: Any) -> None:
    parsed = values.Values.model_validate_json('{"count": 7.0, "level": 2.0, "small": 1, "word": "a", "one": 1.0}')
    assert type(parsed.count) is int and parsed.count == 7
    assert parsed.level.value == 2 and parsed.small.value == 1 and parsed.one == 1
    assert values.Values(small=parsed.small).small is parsed.small  # a member given in Python is kept
    assert parsed.model_dump(mode="json", exclude_unset=True) == {
        "count": 7,
        "level": 2,
        "small": 1,
        "word": "a",
        "one": 1,
    }


def test_only_enums_of_values_other_than_strings_change_base(values: Any) -> None:
    from enum import Enum

    from value_models import _strict, values_schema

    assert issubclass(values_schema.Small, _strict.JsonEnum) and issubclass(values_schema.Level, _strict.JsonIntEnum)
    assert type(values_schema.Word.a) is values_schema.Word and values_schema.Word.__bases__ == (Enum,)


def test_the_package_passes_mypy_strict(values: Any) -> None:
    out = Path(values.__file__).parents[1]
    assert mypy_strict(out, "value_models") == ""


def test_the_rewrite_of_a_module() -> None:
    text = (
        "from __future__ import annotations\n"
        "from enum import Enum, IntEnum\n"
        "from typing import Literal\n"
        "from pydantic import (\n    BaseModel,\n    StrictInt,\n    StrictStr,\n)\n"
        "class Kind(Enum):\n"
        '    """\n    words = 1 in a docstring\n    """\n'
        '    a = "a"\n'
        "    NoneType_None = None\n"
        "class Level(IntEnum):\n"
        "    integer_1 = 1\n"
        "class Shape(Enum):\n"
        '    a = "a"\n'
        "    value_1 = {'a': 1}\n"
        "class A(BaseModel):\n"
        "    one: Literal[1] | None = None\n"
        "    event: Literal['x1', \"2\"]\n"
        "    mixed: Literal['x', -1]\n"
        "    count: StrictInt\n"
        "class Either(Enum):\n"
        "    int_1 = 1\n"
        "    bool_True = True\n"
        "class Last(Enum):\n"
        "    float_1_5 = 1.5"
    )
    rewritten = strict_fields(text, 1)
    assert "from ._strict import EXACT, JsonEnum, JsonIntEnum, StrictInt\n" in rewritten
    assert "from typing import Annotated\n" in rewritten
    assert "from pydantic import BaseModel, StrictStr\n" in rewritten
    assert "class Kind(Enum):\n" in rewritten  # strings and null only: no comparison to add
    assert "class Level(JsonIntEnum):\n" in rewritten and "class Shape(JsonEnum):\n" in rewritten
    assert "class Last(JsonEnum):\n" in rewritten  # the class that ends the module
    assert "class Either(Enum):\n" in rewritten  # true and 1: Python's comparison is the one that agrees
    assert "    one: Annotated[Literal[1], EXACT] | None = None\n" in rewritten
    assert "    event: Literal['x1', \"2\"]\n" in rewritten  # strings only: left as written
    assert "    mixed: Annotated[Literal['x', -1], EXACT]\n" in rewritten
    assert "    count: StrictInt\n" in rewritten
    assert strict_fields("from pydantic import BaseModel\nx: Literal['a']\n", 1).startswith("from pydantic")


# ECMA-262, the dialect of `pattern`, reads \d and \w as ASCII, as jsonschema-rs does (the python
# jsonschema package reads them with `re`, over Unicode, so it is not the judge here).
PATTERNS = [
    ("version", "1.2", True),
    ("version", "\u0661.\u0662", False),  # Arabic-Indic digits
    ("name", "a_b-9.x", True),
    ("name", "\u00e9t\u00e9.x", False),  # letters beyond ASCII
    ("name", "ab.\u0661", True),  # \D: any character but 0-9
]


@pytest.mark.parametrize(("member", "value", "taken"), PATTERNS)
def test_a_pattern_reads_its_shorthands_as_ecma_262_does(values: Any, member: str, value: str, taken: bool) -> None:
    assert jsonschema_rs.validator_for({"type": "object", "properties": MEMBERS}).is_valid({member: value}) is taken
    assert takes(values.Values, {member: value}) is taken

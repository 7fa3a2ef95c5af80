"""A `default` its own schema refuses is left out of the model, which would otherwise validate it and refuse
every instance that leaves the member out (`check` reports it: `schema-default-invalid`)."""

from __future__ import annotations

import importlib
from pathlib import Path

from jsonschema import Draft202012Validator

from support.corpus_factory import good_files, schema
from support.generated_models import imported_package, takes


def test_a_default_its_schema_refuses_is_left_out_of_the_model(tmp_path: Path) -> None:
    """The library validates a default of a model type: with `{}` as the default of an object that
    requires `max`, every instance leaving the member out was refused, though the schema takes it."""
    body = {
        "type": "object",
        "properties": {
            "limits": {
                "type": "object",
                "properties": {"max": {"type": "integer"}},
                "required": ["max"],
                "default": {},
            },
            "level": {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^a"}], "default": ""},
        },
    }
    files = good_files()
    files["schemas/limited.schema.json"] = schema("limited", body)
    imported_package(files, tmp_path, "limited_models")
    model = importlib.import_module("limited_models.limited_schema").Limited
    for instance, valid in [
        ({}, True),
        ({"limits": {"max": 1}}, True),
        ({"limits": {}}, False),
        ({"level": ""}, False),
    ]:
        assert Draft202012Validator(body).is_valid(instance) is valid
        assert takes(model, instance) is valid, instance

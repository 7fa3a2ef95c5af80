"""JSON Schema 2020-12 keyword tables shared by every walker of schemas in the toolchain."""

from __future__ import annotations

# Keywords whose value maps names to subschemas (`$defs` is kept apart: definitions, not constraints).
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas"})
DEFS = "$defs"
# Keywords whose value is a list of subschemas.
SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
# Keywords whose value is one subschema.
SCHEMA_SINGLES = frozenset(
    {
        "items",
        "additionalProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "contentSchema",
    }
)
# Keywords whose value is instance data, never a schema: a `$ref` inside them is not a reference.
INSTANCE_DATA = frozenset({"const", "enum", "examples", "default"})

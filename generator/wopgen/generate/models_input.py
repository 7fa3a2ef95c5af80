"""The schemas as datamodel-code-generator is fed them: the corpus's, rewritten where the library would
otherwise type them looser than JSON Schema reads them, into what means the same and what the library
checks (`library_schema`)."""

from __future__ import annotations

from typing import Any

from wopgen.corpus.graph import map_subschemas


def library_schema(schema: Any) -> Any:
    """A copy of `schema` as datamodel-code-generator is fed it, changed where the library would
    otherwise type it looser than JSON Schema reads it:

    - every object schema with `properties` states its openness. JSON Schema treats an absent
      `additionalProperties` as `true`; Pydantic's default would drop the unknown members instead of
      keeping them, so the fed copy says `true` out loud and the model gets `extra='allow'`. Closed
      schemas (`false`) keep `extra='forbid'`.
    - a `const` the library cannot write as a `Literal` (a number with a fraction, an array, an object)
      is fed as the one-value `enum` it equals: the library drops such a `const` and keeps only its type
      (`const: 1.5` took any number, and any value where no type is stated), while it makes an Enum
      class of the `enum`.
    """
    if not isinstance(schema, dict):
        return schema
    out = map_subschemas(schema, library_schema)
    if "properties" in out and "additionalProperties" not in out and "unevaluatedProperties" not in out:
        out["additionalProperties"] = True
    if isinstance(out.get("const"), float | list | dict) and "enum" not in out:
        out["enum"] = [out.pop("const")]
    return out

"""JSON Schema keyword tables shared by every walker of schemas in the toolchain: those of 2020-12, and
where each draft keeps subschemas (`Draft`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referencing.jsonschema import DRAFT3, DRAFT4, DRAFT6, DRAFT7, DRAFT201909, DRAFT202012, specification_with

DIALECT = "https://json-schema.org/draft/2020-12/schema"  # the corpus convention, and the default draft

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
# The applicators whose subschemas apply to the instance itself, so that an `unevaluatedProperties`
# beside them sees the members they evaluate (`not` evaluates none: its annotations are dropped).
IN_PLACE_APPLICATORS = frozenset(
    {"allOf", "anyOf", "oneOf", "if", "then", "else", "$ref", "$dynamicRef", "dependentSchemas"}
)
INSTANCE_DATA = frozenset({"const", "enum", "examples", "default"})


@dataclass(frozen=True)
class Draft:
    """Where one draft of JSON Schema keeps subschemas, and how it names a schema object's own URI, as
    `referencing` (the registry every `$ref` resolves in) reads that draft: the `$ref` graph walks a
    schema document with the draft its `$schema` names, so both find the same embedded resources."""

    maps: frozenset[str]  # keywords mapping names to subschemas (`$defs` and `definitions` among them)
    lists: frozenset[str]  # keywords holding a list of subschemas
    singles: frozenset[str]  # keywords holding one subschema (`items` before 2020-12: one, or a list)
    id_key: str  # `$id`; `id` in drafts 3 and 4
    legacy: bool  # drafts 3 to 7: an id beside `$ref` is ignored, and one that is a fragment names an anchor
    name: str = "2020-12"  # as messages name it: draft-04, draft-07, 2019-09, 2020-12...

    def id_of(self, node: dict[str, Any]) -> str | None:
        """The URI `node` (a schema object) declares for itself, as its draft reads it (None: none)."""
        declared = node.get(self.id_key)
        if not isinstance(declared, str) or (self.legacy and ("$ref" in node or declared.startswith("#"))):
            return None
        return declared


_SINCE_06 = frozenset({"additionalItems", "additionalProperties", "contains", "items", "not", "propertyNames"})
# `$defs` too, though drafts 4 to 7 do not name it: schemas declaring those drafts keep definitions there
# (generators such as schemars write them so) and refer to them by pointer, which every validator follows.
_LEGACY_MAPS = frozenset({"definitions", DEFS, "patternProperties", "properties", "dependencies"})
_COMPOSED = frozenset({"allOf", "anyOf", "oneOf"})

# Keyword sets of each draft, by the `referencing` specification that reads it. `referencing` takes
# `definitions` as a place of subschemas in 2019-09 and 2020-12 too, so the walk does; and the walk takes
# `$defs` as one in every draft.
CURRENT = Draft(SCHEMA_MAPS | {DEFS, "definitions"}, SCHEMA_LISTS, SCHEMA_SINGLES, "$id", False)
_DRAFTS = {
    DRAFT202012: CURRENT,
    DRAFT201909: Draft(
        frozenset({"properties", "patternProperties", "dependentSchemas", DEFS, "definitions"}),
        _COMPOSED,
        (SCHEMA_SINGLES - {"prefixItems"}) | {"additionalItems"},
        "$id",
        False,
        "2019-09",
    ),
    DRAFT7: Draft(_LEGACY_MAPS, _COMPOSED, _SINCE_06 | {"if", "then", "else"}, "$id", True, "draft-07"),
    DRAFT6: Draft(_LEGACY_MAPS, _COMPOSED, _SINCE_06, "$id", True, "draft-06"),
    DRAFT4: Draft(
        _LEGACY_MAPS,
        _COMPOSED,
        frozenset({"additionalItems", "additionalProperties", "items", "not"}),
        "id",
        True,
        "draft-04",
    ),
    DRAFT3: Draft(
        _LEGACY_MAPS,
        frozenset({"extends"}),
        frozenset({"additionalItems", "additionalProperties", "items", "extends"}),
        "id",
        True,
        "draft-03",
    ),
}

# Every keyword some draft maps names to subschemas with: after one of them, a JSON pointer's next token
# is a name, whatever it spells.
NAME_MAPS = frozenset().union(*(draft.maps for draft in _DRAFTS.values()))


def draft_of(data: Any) -> Draft:
    """The draft the schema document `data` is read in: the one its `$schema` names, else 2020-12 (as
    the registry reads it)."""
    declared = data.get("$schema") if isinstance(data, dict) else None
    if not isinstance(declared, str) or declared == DIALECT:  # nearly every schema, told at once
        return CURRENT
    return _DRAFTS.get(specification_with(declared, default=DRAFT202012), CURRENT)


def declared_id(data: Any) -> str | None:
    """The URI the root of the schema document `data` declares for itself, read in its draft."""
    return draft_of(data).id_of(data) if isinstance(data, dict) else None


# The keywords that apply only to values of one JSON type.
_FOR_TYPE = {
    "object": frozenset(
        {
            *("properties", "patternProperties", "additionalProperties", "unevaluatedProperties"),
            *("required", "minProperties", "maxProperties", "propertyNames"),
            *("dependentRequired", "dependentSchemas", "dependencies"),
        }
    ),
    "array": frozenset(
        {
            *("items", "prefixItems", "additionalItems", "unevaluatedItems", "contains"),
            *("minItems", "maxItems", "uniqueItems", "minContains", "maxContains"),
        }
    ),
    "string": frozenset({"minLength", "maxLength", "pattern"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
}


def idle_keywords(declared: Any) -> frozenset[str]:
    """The keywords that cannot apply under `type` `declared`: those of the types it rules out."""
    named = {declared} if isinstance(declared, str) else set(declared) if isinstance(declared, list) else None
    if not named or not all(isinstance(t, str) for t in named):
        return frozenset()
    if "integer" in named:
        named.add("number")
    return frozenset().union(*(keywords for kind, keywords in _FOR_TYPE.items() if kind not in named))

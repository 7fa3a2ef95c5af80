"""A JSON Schema as a reader sees it: sections (the root and each `$def`) with a table of fields.

Every cell is Markdown ready for a table: pipes escaped, newlines folded. A `$ref` becomes a link
through the `RefLinker` the caller gives, so it can point at another page of the site.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

# (the object holding a `$ref`) -> (label, link), or None when the ref leads out of the corpus; an
# empty link names what the ref leads to without a page to link (shown as code)
RefLinker = Callable[[Mapping[str, Any]], "tuple[str, str] | None"]

_CONSTRAINTS = (
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "default",
)
_MAX_DEPTH = 4
# keywords that give a (sub)schema a shape of its own
_SHAPING = {"type", "properties", "$ref", "oneOf", "anyOf", "allOf", "enum", "const", "items"}


@dataclass(frozen=True)
class Field:
    name: str
    type: str
    required: bool
    constraints: str
    description: str


# What a section or form says of members it does not declare, by whether it is closed.
_OPENNESS = {True: "closed: no other members", False: "open: readers ignore members they do not know"}


@dataclass(frozen=True)
class Form:
    """A branch of a section's `oneOf`/`anyOf` written inline as an object: its members are the section's
    members in that form."""

    label: str
    closed: bool | None
    fields: list[Field]

    @property
    def summary(self) -> str:
        return "" if self.closed is None else _OPENNESS[self.closed]


@dataclass(frozen=True)
class Section:
    name: str  # "" for the root
    anchor: str
    title: str
    description: str
    type: str
    constraints: str
    closed: bool | None  # additionalProperties false / open / not an object
    annotations: list[tuple[str, str]] = field(default_factory=list)
    fields: list[Field] = field(default_factory=list)
    values: list[str] = field(default_factory=list)  # enum members of a non-object section
    forms: list[Form] = field(default_factory=list)  # the object branches of its `oneOf`/`anyOf`, written inline
    forms_rule: str = ""  # how its forms combine: "exactly one" (`oneOf`) or "at least one" (`anyOf`)

    @property
    def summary(self) -> str:
        parts = [f"**Type:** {self.type}"]
        if self.constraints:
            parts.append(self.constraints)
        if self.closed is not None:
            parts.append(_OPENNESS[self.closed])
        return " · ".join(parts)

    @property
    def annotation_line(self) -> str:
        return " · ".join(f"`{key}`: `{value}`" for key, value in self.annotations)


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell: its pipes escaped outside code spans. Inside one a pipe does
    not end the cell (the site's tables split outside code spans) and `\\|` would show its backslash."""
    return outside_code(" ".join(text.split()), lambda part: part.replace("|", "\\|"))


def outside_code(text: str, change: Callable[[str], str]) -> str:
    """`text` with `change` applied to what lies outside its code spans; to the whole of it where a backtick
    is unpaired or in a longer run (what is code there is left to Markdown to tell)."""
    parts = text.split("`")
    if len(parts) % 2 == 0 or "``" in text:
        return change(text)
    return "`".join(part if index % 2 else change(part) for index, part in enumerate(parts))


def literal(value: Any) -> str:
    return "`" + json.dumps(value, ensure_ascii=False) + "`"


def type_of(node: Any, link: RefLinker, enum: bool = True) -> str:
    """The type of a (sub)schema in words; `enum=False` leaves a top-level `enum` to other cells."""
    if node is True or node == {}:
        return "any"
    if node is False:
        return "nothing"
    if not isinstance(node, Mapping):
        return "any"
    if isinstance(node.get("$ref"), str):
        resolved = link(node)
        if resolved is None:
            return f"`{node['$ref']}`"
        label, href = resolved
        return f"[{label}]({href})" if href else f"`{label}`"
    for combinator, joiner in (("oneOf", " or "), ("anyOf", " or "), ("allOf", " and ")):
        if isinstance(node.get(combinator), list):
            base = _plain_type(node)
            named = [_branch_type(part, link, base) for part in node[combinator]]
            if len(set(named)) < len(named):  # branches alike in words: say what each asks of its members too
                named = [_branch_type(part, link, base, members=True) for part in node[combinator]]
            if combinator == "allOf":  # a part that adds only conditions or notes says nothing of the type
                named = [name for name in named if name]
            else:  # several asks of one branch are kept apart from the other branches
                named = [f"({name})" if "; " in name and len(named) > 1 else name or "any" for name in named]
            if not named:
                break
            inner = joiner.join(named)
            return f"{base}: {inner}" if base else inner
    if "const" in node:
        return f"const {literal(node['const'])}"
    base = _plain_type(node)
    if base == "array":
        items = node.get("items")
        return f"array of {type_of(items, link)}" if items is not None else "array"
    if base == "object" and isinstance(node.get("additionalProperties"), Mapping) and not node.get("properties"):
        return f"map of {type_of(node['additionalProperties'], link)}"
    if enum and "enum" in node and not base:
        return "enum"
    return base or "any"


def _branch_type(part: Any, link: RefLinker, base: str, members: bool = False) -> str:
    """A branch of a union or `allOf` in words: its title where it is an object written inline with one (the
    section's forms show its members under that title); where it names no type of its own inside a holder
    of type `base`, what it asks of a value of that type (`with `id``, `one of ...`, `matching ...`; "" when
    it asks nothing but conditions; with `members`, what it asks of each member too); else its type."""
    if isinstance(part, Mapping) and "$ref" not in part and isinstance(part.get("properties"), Mapping):
        title = part.get("title")
        if isinstance(title, str) and title:
            return title
    if isinstance(part, Mapping) and not _TYPED.intersection(part):
        asks = _asks(part, link, members)
        if asks == [] or (asks is not None and base):  # nothing asked but conditions: "" whatever the holder
            return "; ".join(asks)
    return type_of(part, link)


# What gives a branch a type of its own, read by `type_of`: a branch without any of them refines its holder's.
_TYPED = frozenset({"type", "$ref", "oneOf", "anyOf", "allOf", "items"})
# What says nothing of the values a branch takes, for a reader of its type: notes, and the conditions the
# holder's constraints count.
_SILENT = frozenset(
    {"title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly"}
    | {"if", "then", "else"}
)


def _asks(part: Mapping[str, Any], link: RefLinker, members: bool = False) -> list[str] | None:
    """What a branch naming no type asks of a value, phrase by phrase (with `members`, the type of each member
    it writes too); None when it holds a keyword not told here (it is then typed as before)."""
    asks: list[str] = []
    rest = {
        key: value
        for key, value in part.items()
        if isinstance(key, str) and key not in _SILENT and not key.startswith("x-")
    }
    required = rest.pop("required", None)
    if required is not None:
        if not _names(required):
            return None
        asks.append("with " + _names(required))
    properties = rest.pop("properties", None)
    if properties is not None:
        if not isinstance(properties, Mapping) or not _names(list(properties)):
            return None
        if required is None:  # the members its form lists, none of them required
            asks.append("may have " + _names(list(properties)))
        if members:  # what it asks of a member (a tag's `const`, a type) may be all that sets branches apart
            asks.extend(
                f"`{name}`: {type_of(member, link)}"
                for name, member in properties.items()
                if member is not True and member != {}
            )
    if "not" in rest:
        negated = rest.pop("not")
        if not (isinstance(negated, Mapping) and set(negated) == {"required"} and _names(negated["required"])):
            return None
        several = len(negated["required"]) > 1
        asks.append(("without all of " if several else "without ") + _names(negated["required"]))
    if "enum" in rest:
        values = rest.pop("enum")
        if not isinstance(values, list) or not values:
            return None
        asks.append("one of " + ", ".join(literal(v) for v in values))
    if "const" in rest:
        asks.append(f"const {literal(rest.pop('const'))}")
    if "pattern" in rest:
        asks.append(f"matching {_pattern(rest.pop('pattern'))}")
    if not set(rest) <= set(_CONSTRAINTS):
        return None
    if rest:
        asks.append(constraints_of(rest))
    return asks


def _names(names: Any) -> str:
    """Member names as code, `a`, `a` and `b`, `a`, `b` and `c`; "" unless a non-empty list of strings."""
    if (
        not isinstance(names, list)
        or not names
        or not all(isinstance(name, str) and _code_safe(name) for name in names)
    ):
        return ""
    coded = [f"`{name}`" for name in names]
    return coded[0] if len(coded) == 1 else ", ".join(coded[:-1]) + " and " + coded[-1]


def _plain_type(node: Mapping[str, Any]) -> str:
    kind = node.get("type")
    if isinstance(kind, list):
        return " or ".join(str(k) for k in kind)
    return kind if isinstance(kind, str) else ""


def constraints_of(node: Any) -> str:
    if not isinstance(node, Mapping):
        return ""
    parts = []
    if isinstance(node.get("enum"), list):
        parts.append("one of " + ", ".join(literal(v) for v in node["enum"]))
    for key in _CONSTRAINTS:
        if key in node:
            value = node[key]
            parts.append(f"{key} {_pattern(value) if key == 'pattern' else literal(value)}")
    if node.get("additionalProperties") is False:
        parts.append("closed (no other members)")
    conditions = _conditions(node)
    if conditions:
        parts.append(f"{conditions} condition{'s' if conditions > 1 else ''} (`if`/`then`; see the schema)")
    return "; ".join(parts)


def _conditions(node: Mapping[str, Any]) -> int:
    """How many `if`s apply to the node itself: its own, and those of the parts of its `allOf`."""
    parts = node.get("allOf")
    own = [node, *(part for part in parts if isinstance(part, Mapping))] if isinstance(parts, list) else [node]
    return sum(1 for part in own if "if" in part)


def _pattern(value: Any) -> str:
    """A pattern as written, not as a JSON string (which doubles its backslashes), where a code span can hold it."""
    return f"`{value}`" if isinstance(value, str) and _code_safe(value) else literal(value)


def _code_safe(text: str) -> bool:
    """Whether `text` reads as itself inside one code span: no backtick, not blank, no edge space."""
    return bool(text) and "`" not in text and text == text.strip()


def description_of(node: Any) -> str:
    text = node.get("description", "") if isinstance(node, Mapping) else ""
    return text if isinstance(text, str) else ""


def fields_of(node: Any, link: RefLinker) -> Iterator[Field]:
    """One row per property; inline objects (and arrays of them) are opened with dotted names."""
    for name, child, required in inline_properties(node, _MAX_DEPTH):
        yield Field(
            cell(name), cell(type_of(child, link)), required, cell(constraints_of(child)), cell(description_of(child))
        )


def annotations_of(node: Any) -> list[tuple[str, str]]:
    if not isinstance(node, Mapping):
        return []
    return [(key, json.dumps(value, ensure_ascii=False)) for key, value in node.items() if key.startswith("x-wop-")]


def section(name: str, anchor: str, node: Any, link: RefLinker) -> Section:
    mapping = node if isinstance(node, Mapping) else {}
    title = mapping.get("title", "")
    closed: bool | None = None
    forms, rule = _forms(mapping, link)
    if "properties" in mapping or (_plain_type(mapping) == "object" and not forms):
        closed = mapping.get("additionalProperties") is False
    values = [literal(v) for v in mapping.get("enum", [])] if isinstance(mapping.get("enum"), list) else []
    constraints = constraints_of({k: v for k, v in mapping.items() if k not in ("enum", "additionalProperties")})
    return Section(
        name=name,
        anchor=anchor,
        title=title if isinstance(title, str) else "",
        description=description_of(mapping),
        type=type_of(mapping, link, enum=False) if mapping else "any",
        constraints=constraints,
        closed=closed,
        annotations=annotations_of(mapping),
        fields=list(fields_of(mapping, link)),
        values=values,
        forms=forms,
        forms_rule=rule,
    )


def _forms(node: Mapping[str, Any], link: RefLinker) -> tuple[list[Form], str]:
    """The branches of the node's `oneOf` or `anyOf` that are objects written inline (with `properties`),
    as forms with their members; a branch that is a `$ref` is shown by the section's type, which links it.
    Without such a branch, none (and the section's members are only its own)."""
    for keyword, rule in (("oneOf", "exactly one"), ("anyOf", "at least one")):
        branches = node.get(keyword)
        if not isinstance(branches, list):
            continue
        forms = []
        for number, branch in enumerate(branches, start=1):
            if not isinstance(branch, Mapping) or "$ref" in branch or not isinstance(branch.get("properties"), Mapping):
                continue
            title = branch.get("title")
            label = f"Form {number}" + (f": {title}" if isinstance(title, str) and title else "")
            forms.append(Form(cell(label), branch.get("additionalProperties") is False, list(fields_of(branch, link))))
        if forms:
            return forms, rule
    return [], ""


def sections(schema: Any, link: RefLinker, anchor: Callable[[str], str]) -> list[Section]:
    """The root of the schema, then every `$def` in file order."""
    if not isinstance(schema, Mapping):
        return []
    # The root section reads the schema itself (its `$defs` are sections of their own), so the
    # linker meets the very objects of the corpus.
    first = section("", "schema-root", schema, link)
    if not _SHAPING.intersection(schema):
        first = replace(first, type="none at the root: the schema is a collection of `$defs`")
    out = [first]
    defs = schema.get("$defs")
    if isinstance(defs, Mapping):
        out.extend(section(name, anchor(name), node, link) for name, node in defs.items())
    return out


def inline_properties(node: Any, depth: int) -> Iterator[tuple[str, Any, bool]]:
    """(dotted name, subschema, whether required) for each property written inline in `node`, without
    following any `$ref`: members of a nested object as `a.b`, of an array of inline objects as
    `a[].b`, down to `depth` levels (a property holding a `$ref` is listed but not entered). A member
    that is an object or a value of other types (`oneOf: [{"type": "null"}, {"type": "object", ...}]`)
    is entered through its one object branch: `a.b` is a member of `a` where `a` is an object."""

    def visit(at: Any, prefix: str, level: int) -> Iterator[tuple[str, Any, bool]]:
        properties = at.get("properties") if isinstance(at, Mapping) else None
        if not isinstance(properties, Mapping):
            return
        required = at.get("required")
        needed = set(required) if isinstance(required, list) else set()
        for name, child in properties.items():
            full = f"{prefix}{name}"
            yield full, child, name in needed
            if level + 1 >= depth or not isinstance(child, Mapping) or "$ref" in child:
                continue
            yield from visit(_object_form(child), f"{full}.", level + 1)
            items = child.get("items")
            if isinstance(items, Mapping) and "$ref" not in items:
                yield from visit(_object_form(items), f"{full}[].", level + 1)

    return visit(node, "", 0)


def _object_form(node: Mapping[str, Any]) -> Any:
    """Where `node` declares no members itself, the one branch of its `oneOf`/`anyOf` that is an object written
    inline, when every other branch is of another type (`null`, `boolean`...); else `node`."""
    if "properties" in node:
        return node
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list):
            continue
        objects = [b for b in branches if isinstance(b, Mapping) and "$ref" not in b and "properties" in b]
        if len(objects) == 1 and all(b is objects[0] or _of_another_type(b) for b in branches):
            return objects[0]
    return node


# What may give a branch an object of its own beside its `type`.
_COMPOSING = frozenset({"$ref", "$dynamicRef", "oneOf", "anyOf", "allOf", "if", "properties"})


def _of_another_type(branch: Any) -> bool:
    """Whether a union branch takes no object: it states a type without `object` and nothing that could lead
    to one."""
    if not isinstance(branch, Mapping) or _COMPOSING.intersection(branch):
        return False
    kind = branch.get("type")
    kinds = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else None
    return kinds is not None and "object" not in kinds

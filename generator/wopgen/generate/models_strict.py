"""Where the library's models would accept what the schema rejects (or reject what it accepts), and the
checks that close the gap.

Five gaps, all on values a JSON document can hold:

- **null for an optional member.** JSON Schema keeps two questions apart: `required` says whether a
  member may be left out, the member's own schema says whether `null` is a value it takes.
  datamodel-code-generator answers both with `X | None = None`, so a model would accept
  `{"description": null}` where the schema rejects it. wopgen tells the library which optional
  members reject null by a marker key on their subschema (`MARKER`, read through the library's
  `field_extra_keys`), then rewrites the `Field(json_schema_extra=...)` the library makes of it into
  `NOT_NULL`: a validator that refuses an explicit null and leaves an omitted member alone (an unset
  default is never validated). Whether a member takes null is asked of the corpus's own validator,
  so `$ref`, `allOf`, type lists, `const` and `enum` all count as the schema says.
- **a number, or text of another shape, where a string format is typed.** A `"type": "string"` with
  `format: date-time`, `date`, `time`, `uuid`, `ipv4` or `ipv6` becomes a Python type
  (`AwareDatetime`, `UUID`, `IPv4Address`...) whose lax validation also reads a JSON number
  (`7` as a Unix time, an address as an integer) or a boolean, and reads text the
  format does not allow: `2026-06-01T10:00Z` (no seconds), `2026-06-01 10:00:00Z`, a date-time as a
  `date`, a `time` without its offset, a UUID without its hyphens or in braces, an IPv6 address with a
  zone. Each such annotation is rewritten to the same type behind a check (`TEXT`, or one made by
  `shaped` with the format's grammar) that refuses numbers and booleans and text of another shape, and
  lets the Python value itself through.
- **a boolean where a number is listed, or the reverse.** Python counts `True == 1` and `False == 0`,
  so a `Literal[1]` (a `const`) or an Enum of numbers (an `enum`) would take JSON `true`, and one of
  booleans would take `1`, where JSON Schema keeps the two types apart (while `1.0` does equal `1`).
  Such a `Literal` is rewritten to `Annotated[Literal[...], EXACT]`, and such an Enum class gets the
  base `JsonEnum` (`JsonIntEnum` for an `IntEnum`) in place of its own: both compare the JSON value
  with the value it matched as JSON Schema does, member by member inside arrays and objects. (Not an
  `enum` listing both `true` and `1`: its class keeps one member for both, and only Python's
  comparison takes each of them.)
- **an integer written with a fraction of zero.** JSON Schema counts `1.0` as an integer; pydantic's
  `StrictInt` refuses it. A module that imports `StrictInt` from pydantic imports the helper module's
  instead: the same strict integer (no string, no boolean), which reads a number with no fractional
  part as the integer it equals.
- **an integer in a `number`.** pydantic's `StrictFloat` makes every JSON integer a float, so `1`
  dumped as `1.0` and `9007199254740993` as `9007199254740992.0`, another value. Each `StrictFloat` is
  rewritten to `JsonNumber`, the union of that integer and `StrictFloat`, which keeps an integer whole.

All of these live in a helper module of the package (`HELPER_MODULE`), written only when a module uses
one of them.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from wopgen.corpus import Corpus
from wopgen.corpus.documents import escape_token
from wopgen.corpus.graph import Position, replaced, schema_objects
from wopgen.corpus.keywords import NAME_MAPS
from wopgen.generate.models_passes import ignored_beside_refs, under

MARKER = "x-wopgen-not-null"  # never written to a model: `strict_fields` turns it into NOT_NULL
HELPER_MODULE = "_strict"
# The library's types of string formats whose lax validation reads a number, a boolean or text the
# format does not allow, and the name of each behind its check in the helper module.
TEXT_TYPES = {
    "AwareDatetime": "AwareDatetimeText",
    "date": "DateText",
    "time": "TimeText",
    "IPv4Address": "IPv4AddressText",
    "IPv6Address": "IPv6AddressText",
    "UUID": "UUIDText",
    "StrictFloat": "JsonNumber",
}
# The library's Enum bases, and the base from the helper module each becomes where a member is a number,
# a boolean, an array or an object.
EXACT_ENUMS = {"Enum": "JsonEnum", "IntEnum": "JsonIntEnum"}
HELPER_TEXT = '''\
"""What the models add to the library's types where those would accept a value the schema rejects, or
refuse one it accepts. Do not edit by hand."""

from __future__ import annotations

import re
from datetime import date, time
from enum import Enum, IntEnum
from ipaddress import IPv4Address, IPv6Address
from typing import Annotated, Any, TypeVar
from uuid import UUID

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BeforeValidator,
    GetCoreSchemaHandler,
    Strict,
    StrictFloat,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import CoreSchema, core_schema

_T = TypeVar("_T")


def refuse_null(value: _T) -> _T:
    """`value` unchanged, unless it is null: the member may be left out, but null is not one of its values."""
    if value is None:
        raise ValueError("may be left out, but may not be null")
    return value


def refuse_number(value: _T) -> _T:
    """`value` unchanged, unless it is a number or a boolean: the schema's type is a string."""
    if isinstance(value, int | float):
        raise ValueError("must be a string, not a number or a boolean")
    return value


def shaped(grammar: str, expected: str) -> BeforeValidator:
    """TEXT, and text must also match `grammar` whole (a regular expression whose digits are ASCII):
    the parser of the Python type behind it reads more shapes than the format allows."""
    shape = re.compile(grammar, re.ASCII)

    def check(value: _T) -> _T:
        if isinstance(value, str) and not shape.fullmatch(value):
            raise ValueError(f"must be {expected}")
        return refuse_number(value)

    return BeforeValidator(check)


def json_equal(left: object, right: object) -> bool:
    """Whether two values are equal as JSON Schema compares JSON values: a boolean only to the same
    boolean (not to 1 or 0), numbers by value (1.0 to 1), arrays and objects member by member."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, list | tuple) and isinstance(right, list | tuple):
        return len(left) == len(right) and all(map(json_equal, left, right))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(item, right[key]) for key, item in left.items())
    return bool(left == right)


def exact(value: object, handler: ValidatorFunctionWrapHandler) -> object:
    """What `handler` reads `value` as, unless the two are equal only as Python compares them: `true` read
    as the 1 of a `Literal[1]`, or `1` as a member `True`."""
    result = handler(value)
    matched = result.value if isinstance(result, Enum) else result
    if value is not result and not json_equal(value, matched):
        raise ValueError("must equal one of the schema's values (a boolean is not a number)")
    return result


def whole_number(value: object) -> object:
    """`value`, or the integer it equals when it is a number with no fractional part (JSON Schema counts
    1.0 as an integer)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _exact_schema(source: type[Any], handler: GetCoreSchemaHandler) -> CoreSchema:
    return core_schema.no_info_wrap_validator_function(exact, handler(source))


class JsonEnum(Enum):
    """An Enum whose members match a JSON value only when equal as JSON Schema compares them."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: type[Any], handler: GetCoreSchemaHandler) -> CoreSchema:
        return _exact_schema(source, handler)


class JsonIntEnum(IntEnum):
    """An IntEnum whose members match a JSON value only when equal as JSON Schema compares them."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: type[Any], handler: GetCoreSchemaHandler) -> CoreSchema:
        return _exact_schema(source, handler)


NOT_NULL = AfterValidator(refuse_null)
TEXT = BeforeValidator(refuse_number)
EXACT = WrapValidator(exact)

# pydantic's StrictInt (no string, no boolean), reading 1.0 as 1.
StrictInt = Annotated[int, Strict(), BeforeValidator(whole_number)]

# A JSON Schema `number`: an integer stays the integer it is (pydantic's StrictFloat made 1 the float 1.0,
# and 9007199254740993 the float 9007199254740992.0), a number with a fraction is a float.
JsonNumber = StrictInt | StrictFloat

# RFC 3339: a full-time has seconds and an offset; a date-time joins a full-date to it with T.
_FULL_TIME = r"\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:[Zz]|[+-]\\d{2}:\\d{2})"
AwareDatetimeText = Annotated[
    AwareDatetime, shaped(r"\\d{4}-\\d{2}-\\d{2}[Tt]" + _FULL_TIME, "an RFC 3339 date-time, 2026-06-01T10:00:00Z")
]
DateText = Annotated[date, shaped(r"\\d{4}-\\d{2}-\\d{2}", "an RFC 3339 full-date, 2026-06-01")]
TimeText = Annotated[time, shaped(_FULL_TIME, "an RFC 3339 full-time with its offset, 10:00:00Z")]
IPv4AddressText = Annotated[IPv4Address, TEXT]
IPv6AddressText = Annotated[IPv6Address, shaped(r"[^%]*", "an IPv6 address without a zone")]
UUIDText = Annotated[
    UUID, shaped(r"[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}", "a UUID, 8-4-4-4-12 hex digits")
]
'''
# Where the library imports the types of TEXT_TYPES, and its docstrings: triple double quotes opening a
# line (escapes kept), never a `"""` inside a one-line string of code.
_FORMAT_IMPORTS = re.compile(r"^from (?:datetime|ipaddress|pydantic|uuid) import (\([^)]*\)|[^\n]*)", re.M)
_DOCSTRING = re.compile(r'^[ \t]*"""(?:[^"\\]|\\.|"(?!""))*"""', re.S | re.M)
_LINE_END = re.compile(rb"\r\n|\r|\n")


def optional_not_null(corpus: Corpus) -> dict[str, list[str]]:
    """By schema path, the pointers (in document order) of the members that an object may leave out
    (not in its `required`) and whose subschema rejects null. The compiled engine judges them all at
    once; where it cannot tell, `jsonschema` judges each, and a subschema neither can judge (an
    unresolvable `$ref`) is left as the library types it."""
    candidates: dict[str, list[str]] = {}
    for path, doc in corpus.schemas.items():
        if not corpus.resolvable(path):
            continue
        ignored = ignored_beside_refs(doc.data)  # what drafts 4 to 7 ignore beside a `$ref`: not fed
        for item in schema_objects(doc.data, corpus.uri_of(path)):
            properties = item.node.get("properties")
            if (
                item.position is not Position.SCHEMA
                or not isinstance(properties, dict)
                or _conditional(item.pointer)
                or under(f"{item.pointer}/properties", ignored)
            ):
                continue
            required = item.node.get("required")
            needed = set(required) if isinstance(required, list) else set()
            candidates.setdefault(path, []).extend(
                f"{item.pointer}/properties/{escape_token(name)}"
                for name, subschema in properties.items()
                if name not in needed and isinstance(subschema, dict)
            )
    # each URI made once (urljoin costs the most): for the engine, then to read its answer
    targets = {
        path: [corpus.target_uri(path, pointer) for pointer in pointers] for path, pointers in candidates.items()
    }
    every = [target for uris in targets.values() for target in uris]
    rejecting = corpus.compiled.rejecting(every, None) if every else set()
    found: dict[str, list[str]] = {}
    for path, pointers in candidates.items():
        judged = zip(pointers, targets[path], strict=True)
        found[path] = [pointer for pointer, target in judged if _rejects_null(corpus, path, pointer, target, rejecting)]
    return found


# Keywords whose subschemas apply only sometimes (`then` when `if` holds) or never as written (`not`).
_CONDITIONAL = frozenset({"if", "then", "else", "not", "dependentSchemas"})


def _conditional(pointer: str) -> bool:
    """Whether the schema object at `pointer` lies below a conditional keyword. The library folds the
    members of a `then` into the model itself, where they apply whether or not the `if` holds; so the
    schema takes null there whenever the condition fails, and only the model would refuse it."""
    named = False
    for token in pointer.split("/")[1:]:
        if named:
            named = False  # a property or definition name, whatever it spells
        elif token in _CONDITIONAL:
            return True
        else:
            named = token in NAME_MAPS
    return False


def _rejects_null(corpus: Corpus, path: str, pointer: str, target: str, rejecting: set[str] | None) -> bool:
    if rejecting is not None:
        return target in rejecting
    return corpus.verdict(path, pointer, None) is False  # no verdict (an unresolvable `$ref`...): leave it be


def marked(data: Any, pointers: list[str]) -> Any:
    """`data` with `MARKER` set on the subschema at each of `pointers` (`data` itself when none), the
    objects on the way to them copied."""
    out = data
    for pointer in pointers:
        out = replaced(out, pointer, lambda node: {**node, MARKER: True})
    return out


def _without_marker(keyword: ast.keyword) -> ast.keyword | bool | None:
    """`keyword` of a `Field(...)` call without the marker: False when it holds no marker; None when the
    marker was all it held (`json_schema_extra={MARKER: True}`); else the keyword with the other keys
    the library put beside it (`contentMediaType`, `contentEncoding`...)."""
    value = keyword.value
    if keyword.arg != "json_schema_extra" or not isinstance(value, ast.Dict):
        return False
    pairs = [(k, v) for k, v in zip(value.keys, value.values, strict=True)]
    rest = [(k, v) for k, v in pairs if not (isinstance(k, ast.Constant) and k.value == MARKER)]
    if len(rest) == len(pairs):
        return False
    if not rest:
        return None
    return ast.keyword(keyword.arg, ast.Dict([k for k, _ in rest], [v for _, v in rest]))


@dataclass(frozen=True)
class _Names:
    """What a module holds to rewrite: the names it gives the types of TEXT_TYPES (the library imports
    `date as date_aliased` where a member is named `date`), each with its text-only twin; its Enum
    classes that list a value other than a string or null; and a pattern finding a line that may
    hold any of those or a `Literal` of a number or a boolean (the parse decides)."""

    text: dict[str, str]
    enums: frozenset[str]
    pattern: re.Pattern[str]

    @classmethod
    def of(cls, text: str) -> _Names:
        names = dict(TEXT_TYPES)
        for imported in _FORMAT_IMPORTS.finditer(text):
            for part in imported.group(1).strip("()").split(","):
                original, _as, alias = part.strip().partition(" as ")
                if alias and original.strip() in TEXT_TYPES:
                    names[alias.strip()] = TEXT_TYPES[original.strip()]
        enums = frozenset(found[1] for found in _ENUM_CLASS.finditer(text) if _lists_values(found[2], found[3]))
        found = [r"\b(?:" + "|".join(map(re.escape, names)) + r")\b", _VALUE_LITERAL]
        if enums:
            found.append(r"^class (?:" + "|".join(sorted(enums)) + r")\(")
        return cls(names, enums, re.compile("|".join(found), re.M))


# An Enum class as the library writes it (its head, then indented or blank lines, the last of which may
# end the module), a member of one whose value is not a string, and a `Literal[` that may list a number or
# a boolean beside any strings.
_ENUM_CLASS = re.compile(r"^class (\w+)\((" + "|".join(EXACT_ENUMS) + r")\):\n((?:[ \t][^\n]*(?:\n|\Z)|\n)*)", re.M)
_UNQUOTED_MEMBER = re.compile(r"^    \w+ = (?![\"'])", re.M)
_VALUE_LITERAL = r"\bLiteral\[(?:[^\]\"']|\"[^\"]*\"|'[^']*')*?(?<![\w.])(?:\d|True\b|False\b)"


def _lists_values(base: str, body: str) -> bool:
    """Whether an Enum class with `base` and `body` needs `EXACT`'s comparison (`_needs_exact`)."""
    if base == "IntEnum":
        return True
    if not _UNQUOTED_MEMBER.search(body):
        return False
    try:
        members = ast.parse("class E:\n" + body).body[0]
    except SyntaxError:
        return True  # the base only adds a comparison, which every string or null member passes
    assert isinstance(members, ast.ClassDef)
    return _needs_exact([member.value for member in members.body if isinstance(member, ast.Assign)])


def _value_literal(node: ast.AST) -> bool:
    """Whether `node` is a `Literal[...]` that needs `EXACT`'s comparison (`_needs_exact`)."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Literal"):
        return False
    return _needs_exact(node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice])


def _needs_exact(nodes: list[ast.expr]) -> bool:
    """Whether values written as `nodes` hold one that is not a string or null, so that Python's comparison
    could match a boolean to a number; not when they list both a boolean and the number Python counts equal
    to it (`true` and `1`): Python's class then keeps one member for both, and its comparison, which takes
    either, is the one that agrees with the schema."""
    values = []
    for node in nodes:
        try:
            values.append(ast.literal_eval(node))
        except (ValueError, TypeError):
            continue
    flags = {value for value in values if isinstance(value, bool)}
    numbers = {value for value in values if isinstance(value, int | float) and not isinstance(value, bool)}
    if flags & numbers:  # True == 1 and False == 0: the set keeps one of each pair
        return False
    return any(value is not None and not isinstance(value, str) for value in values)


def _annotations(tree: ast.Module) -> list[ast.expr]:
    """Every annotation of a class member, and every subscript of a class's bases (`RootModel[date]`)."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        elif isinstance(node, ast.ClassDef):
            found.extend(base for base in node.bases if isinstance(base, ast.Subscript))
    return found


Edit = tuple[int, int, int, int, str]  # (line, column, end line, end column, replacement); columns in UTF-8 bytes


def _edits(tree: ast.Module, used: set[str], source: str, names: _Names) -> list[Edit]:
    """What to rewrite in `tree` (parsed from `source`): each marked `Field(...)`, each format type of
    `names` and each `Literal` of a number or a boolean in an annotation, and the base of each Enum class
    of `names`. A walk is skipped where `source` cannot hold what it looks for."""
    edits: list[Edit] = []

    def edit(node: ast.expr, replacement: str) -> None:
        assert node.end_lineno is not None and node.end_col_offset is not None
        edits.append((node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, replacement))

    for node in ast.walk(tree) if MARKER in source else ():
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Field"):
            continue
        kept: list[ast.keyword] = []
        marked = False
        for keyword in node.keywords:
            without = _without_marker(keyword)
            marked = marked or without is not False
            if without is False:
                kept.append(keyword)
            elif isinstance(without, ast.keyword):
                kept.append(without)
        if marked:
            rest = ast.unparse(ast.Call(node.func, node.args, kept)) + ", " if node.args or kept else ""
            edit(node, rest + "NOT_NULL")
            used.add("NOT_NULL")
    if not names.pattern.search(source):
        return edits
    for annotation in _annotations(tree):
        for node in ast.walk(annotation):
            if isinstance(node, ast.Name) and node.id in names.text:
                edit(node, names.text[node.id])
                used.add(names.text[node.id])
            elif _value_literal(node):
                assert isinstance(node, ast.Subscript)
                edit(node, f"Annotated[{ast.unparse(node)}, EXACT]")
                used.add("EXACT")
    for node in ast.walk(tree) if names.enums else ():
        if isinstance(node, ast.ClassDef) and node.name in names.enums:
            for base in node.bases:
                if isinstance(base, ast.Name) and base.id in EXACT_ENUMS:
                    edit(base, EXACT_ENUMS[base.id])
                    used.add(EXACT_ENUMS[base.id])
    return edits


def _applied(raw: bytes, edits: list[tuple[int, int, str]]) -> bytes:
    """`raw` with each (start, end, replacement) of `edits` made, none overlapping."""
    pieces, done = [], 0
    for start, end, replacement in sorted(edits):
        pieces += [raw[done:start], replacement.encode("utf-8")]
        done = end
    return b"".join([*pieces, raw[done:]])


def _by_line(text: str, used: set[str], names: _Names) -> str | None:
    """`text` rewritten one line at a time, or None when a line that may need it is not a whole
    statement. Parsing a module whole costs more than the rest of the rewrite together; the
    library writes each member, and each class head, on a line of its own, so only the lines naming
    a candidate are parsed, those inside a docstring skipped."""
    strings = [m.span() for m in _DOCSTRING.finditer(text)]
    lines = text.split("\n")
    at, kept = 0, 0  # where the line starts in text; docstrings that end before it
    for index, line in enumerate(lines):
        start, at = at, at + len(line) + 1
        if MARKER not in line and not names.pattern.search(line):
            continue
        while kept < len(strings) and strings[kept][1] <= start:
            kept += 1
        if kept < len(strings) and strings[kept][0] <= start:
            continue  # inside a docstring: words, not code
        statement = line.lstrip()
        indent = len(line) - len(statement)  # spaces: as many bytes as characters
        try:
            tree = ast.parse(statement + " pass" if statement.startswith("class ") else statement)
        except SyntaxError:
            return None
        found = _edits(tree, used, statement, names)
        if any(first != 1 or last != 1 for first, _column, last, _end, _replacement in found):
            return None
        edits = [(column, end, replacement) for _first, column, _last, end, replacement in found]
        if edits:
            raw = line.encode("utf-8")
            lines[index] = raw[:indent].decode() + _applied(raw[indent:], edits).decode("utf-8")
    return "\n".join(lines)


def _whole(text: str, used: set[str], names: _Names) -> str:
    """`text` rewritten from one parse of the whole module."""
    raw = text.encode("utf-8")  # ast counts lines as Python does and columns in UTF-8 bytes
    starts = [0] + [m.end() for m in _LINE_END.finditer(raw)]
    edits = [(starts[a - 1] + b, starts[c - 1] + d, r) for a, b, c, d, r in _edits(ast.parse(text), used, text, names)]
    return _applied(raw, edits).decode("utf-8")


def strict_fields(text: str, depth: int) -> str:
    """The library's module `text` with each marked `Field(...)` made `NOT_NULL` (beside the field's other
    arguments, if any), each format type of TEXT_TYPES in an annotation made its text-only twin, each
    `Literal` of a number or a boolean made `EXACT`, each Enum class listing such a value based on
    `JsonEnum` or `JsonIntEnum`, and pydantic's `StrictInt` replaced by the helper's; what it uses is
    imported from the helper module, `depth` folders up."""
    names = _Names.of(text)
    used: set[str] = set()
    body = text
    if MARKER in text or names.pattern.search(text):
        lined = _by_line(text, used, names)
        if lined is None or MARKER in lined:  # a line was not a whole statement, or one was read as words
            used.clear()
            lined = _whole(text, used, names)
        body = lined
    body, integer = _without_pydantic_integer(body)
    if integer:
        used.add("StrictInt")
    if not used:
        return text
    future = "from __future__ import annotations\n"
    importing = f"from {'.' * depth}{HELPER_MODULE} import {', '.join(sorted(used))}\n"
    if "EXACT" in used:
        importing = "from typing import Annotated\n" + importing  # ruff merges it with the library's own
    if future in body:
        return body.replace(future, future + importing, 1)
    return importing + body


_PYDANTIC_IMPORT = re.compile(r"^from pydantic import (\([^)]*\)|[^\n]*)\n", re.M)


def _without_pydantic_integer(text: str) -> tuple[str, bool]:
    """`text` with `StrictInt` taken out of its import from pydantic, and whether it was there."""
    found = _PYDANTIC_IMPORT.search(text)
    if found is None:
        return text, False
    names = [name.strip() for name in found[1].strip("()").split(",") if name.strip()]
    if "StrictInt" not in names:
        return text, False
    rest = ", ".join(name for name in names if name != "StrictInt")
    return text[: found.start()] + (f"from pydantic import {rest}\n" if rest else "") + text[found.end() :], True

"""Two ways the library's modules raise on valid data where a class wraps one value (a `RootModel`), and
their repair (`root_fields_repaired`), made on the library's text before the rest of the rewrites.

- **A constraint copied onto a member typed as such a class.** A titled scalar member (`"n": {"title":
  "N", "type": "number", "minimum": 0}`) becomes `class N(RootModel[StrictFloat])`, whose `root` holds
  `Field(ge=0.0)`, and the member `n: Annotated[N | None, Field(ge=0)]`. Pydantic cannot compare a
  class with 0: every value of `n` raised `TypeError: Unable to apply constraint 'ge'`. A constraint of
  the member's `Field` that the class's `root` holds with the same value is dropped from the member:
  the class checks it. One the class does not hold is left (the model still raises there).
- **`deprecated` on the `root` of such a class.** A definition holding only words and `deprecated: true`
  becomes `RootModel[Any]` with `Field(deprecated=True)`, and pydantic then raises `AttributeError:
  root` on every value. A value is not deprecated by being read: the flag is dropped from `root`.
"""

from __future__ import annotations

import ast
import re
from typing import Any

# The `Field` arguments that constrain a value (not words: title, description, examples...).
CONSTRAINTS = frozenset(
    {"gt", "ge", "lt", "le", "multiple_of", "min_length", "max_length", "pattern", "max_digits", "decimal_places"}
)
# The bases of a class wrapping one value, as far as `RootModel[` (after the library's run-time check
# base, if any): `class N(` and this open such a class.
WRAPPING = r"(?:\w+, )*RootModel\["
_ROOT_CLASS = re.compile(r"^class (\w+)\(" + WRAPPING + r".*\]\):\n(?:(?:[ \t][^\n]*)?\n)*?    root: ([^\n]*)$", re.M)
_MEMBER = re.compile(r"^    (?!root\b)\w+: Annotated\[.*\bField\(.*$", re.M)
_UNSET = object()


def root_fields_repaired(text: str) -> str:
    """`text` (a module of the library) with the two repairs made; unchanged where it has no RootModel."""
    if "RootModel[" not in text:
        return text
    roots: dict[str, dict[str, Any]] = {}  # class -> the constraints its root's Field holds
    edits: dict[int, str] = {}  # start of a line -> the line that replaces it
    for match in _ROOT_CLASS.finditer(text):
        statement = _statement("root: " + match[2])
        call = _field_call(statement.annotation) if statement is not None else None
        if statement is None or call is None:
            continue
        roots[match[1]] = {k.arg: _literal(k.value) for k in call.keywords if k.arg in CONSTRAINTS}
        if any(k.arg == "deprecated" for k in call.keywords):
            call.keywords = [k for k in call.keywords if k.arg != "deprecated"]
            edits[match.start(2) - len("    root: ")] = "    " + ast.unparse(statement)
    holding = [name for name, held in roots.items() if held]
    for match in _MEMBER.finditer(text) if holding else ():
        if not any(name in match[0] for name in holding):
            continue  # names no class whose root holds a constraint (parsing each member costs the most)
        statement = _statement(match[0].strip())
        call = _field_call(statement.annotation) if statement is not None else None
        if statement is None or call is None:
            continue
        held = roots.get(_wrapped_class(statement.annotation) or "")
        if not held:
            continue
        kept = [k for k in call.keywords if not _held(held, k)]
        if len(kept) != len(call.keywords):
            call.keywords = kept
            edits[match.start()] = "    " + ast.unparse(statement)
    if not edits:
        return text
    lines, at = [], 0
    for line in text.split("\n"):
        lines.append(edits.get(at, line))
        at += len(line) + 1
    return "\n".join(lines)


def _statement(source: str) -> ast.AnnAssign | None:
    """The one annotated assignment `source` holds, if it is one whole statement."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    found = tree.body[0] if len(tree.body) == 1 else None
    return found if isinstance(found, ast.AnnAssign) else None


def _field_call(annotation: ast.expr) -> ast.Call | None:
    """The `Field(...)` of an `Annotated[...]` annotation."""
    if not (isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple)):
        return None
    for element in annotation.slice.elts[1:]:
        if isinstance(element, ast.Call) and isinstance(element.func, ast.Name) and element.func.id == "Field":
            return element
    return None


def _wrapped_class(annotation: ast.expr) -> str | None:
    """The class an `Annotated[X, ...]` or `Annotated[X | None, ...]` annotation types its value as."""
    assert isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple)
    typed = annotation.slice.elts[0]
    if isinstance(typed, ast.BinOp) and isinstance(typed.op, ast.BitOr):
        sides = [typed.left, typed.right]
        named = [s for s in sides if not (isinstance(s, ast.Constant) and s.value is None)]
        typed = named[0] if len(named) == 1 else typed
    return typed.id if isinstance(typed, ast.Name) else None


def _held(held: dict[str, Any], keyword: ast.keyword) -> bool:
    """Whether the class's root holds the constraint `keyword` gives, with the same value."""
    if keyword.arg not in held:
        return False
    value = _literal(keyword.value)
    return value is not _UNSET and held[keyword.arg] == value


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return _UNSET

"""Keywords the validators of the draft a schema declares ignore, so the schema takes values it seems to
refuse: a keyword the draft does not have (a draft-04 schema with `const`, a 2020-12 one with
`dependencies`), and before 2019-09 every keyword beside a `$ref`."""

from __future__ import annotations

from collections.abc import Iterator

from wopgen.compat.cover import json_type, types, values, within
from wopgen.corpus import Corpus
from wopgen.corpus.documents import may_write
from wopgen.corpus.graph import Located, Position, SchemaObject
from wopgen.corpus.keywords import draft_of, idle_keywords
from wopgen.diagnostics import Diagnostic, define

IGNORED = define(
    "schema-keyword-ignored",
    "warning",
    "A keyword that constrains values in some draft of JSON Schema, but not in the one the schema declares: its "
    "validators ignore it, so the schema takes values the keyword seems to refuse.",
)

BESIDE_REF = define(
    "schema-ref-siblings-ignored",
    "warning",
    "A keyword that constrains values written beside a `$ref` in a schema of drafts 4 to 7: those drafts apply "
    "the `$ref` alone, so the schema takes values the keyword seems to refuse.",
)

# Each keyword that constrains values, with the drafts that have it (as `Draft.name` names them) and what
# says the same in the drafts that do not, where something does.
_SINCE_06 = ("draft-06", "draft-07", "2019-09", "2020-12")
_SINCE_07 = ("draft-07", "2019-09", "2020-12")
_SINCE_2019 = ("2019-09", "2020-12")
_UNTIL_2019 = ("draft-04", "draft-06", "draft-07", "2019-09")
_UNTIL_07 = ("draft-04", "draft-06", "draft-07")
KEYWORDS: dict[str, tuple[tuple[str, ...], str]] = {
    "const": (_SINCE_06, 'an `enum` of one value ("enum": [value])'),
    "contains": (_SINCE_06, ""),
    "propertyNames": (_SINCE_06, ""),
    "if": (_SINCE_07, "`anyOf` of the cases"),
    "then": (_SINCE_07, ""),
    "else": (_SINCE_07, ""),
    "dependentRequired": (_SINCE_2019, "`dependencies` with a list of names"),
    "dependentSchemas": (_SINCE_2019, "`dependencies` with a schema"),
    "minContains": (_SINCE_2019, ""),
    "maxContains": (_SINCE_2019, ""),
    "unevaluatedProperties": (_SINCE_2019, ""),
    "unevaluatedItems": (_SINCE_2019, ""),
    "prefixItems": (("2020-12",), "a list `items`"),
    "dependencies": (_UNTIL_07, "`dependentRequired` (lists of names) and `dependentSchemas` (schemas)"),
    "additionalItems": (_UNTIL_2019, "`items` beside `prefixItems`"),
}

# By draft, the keywords above it does not have.
_LACKING = {
    draft: frozenset(k for k, (drafts, _) in KEYWORDS.items() if draft not in drafts)
    for draft in ("draft-04", "draft-06", "draft-07", "2019-09", "2020-12")
}


# The keywords of drafts 4 to 7 that constrain values (not `format`, which they need not assert).
_CONSTRAINING = frozenset(
    {
        *("type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"),
        *("maxLength", "minLength", "pattern", "items", "additionalItems", "maxItems", "minItems", "uniqueItems"),
        *("contains", "maxProperties", "minProperties", "required", "properties", "patternProperties"),
        *("additionalProperties", "dependencies", "propertyNames", "if", "then", "else"),
        *("allOf", "anyOf", "oneOf", "not"),
    }
)


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    yield from _lacking(corpus)
    yield from _beside_ref(corpus)


def _lacking(corpus: Corpus) -> Iterator[Diagnostic]:
    for path in sorted(corpus.schemas):
        doc = corpus.schemas[path]
        if not isinstance(doc.data, dict):
            continue
        draft = draft_of(doc.data).name
        if draft == "draft-03":  # too old to say: it spells most constraints otherwise
            continue
        lacking = _LACKING[draft]
        if not may_write(doc.text, *lacking):
            continue
        for item in corpus.graph.objects(path):
            if item.position is not Position.SCHEMA:
                continue
            for keyword in lacking & item.node.keys():
                drafts, instead = KEYWORDS[keyword]
                line, col = doc.locate(f"{item.pointer}/{keyword}")
                said = f"; in {draft} write {instead}" if instead else ""
                yield IGNORED.at(
                    path,
                    line,
                    f"`{keyword}` is no keyword of {draft}, the draft this schema declares, so validators of that "
                    "draft need not apply it: values it refuses may pass",
                    f"declare a draft that has it (`$schema`: {', '.join(drafts)}){said}",
                    col=col,
                )


def _beside_ref(corpus: Corpus) -> Iterator[Diagnostic]:
    for path in sorted(corpus.schemas):
        doc = corpus.schemas[path]
        if not isinstance(doc.data, dict):
            continue
        draft = draft_of(doc.data)
        if not draft.legacy or draft.name == "draft-03" or not may_write(doc.text, "$ref"):
            continue
        for item in corpus.graph.objects(path):
            if item.position is not Position.SCHEMA or not isinstance(item.node.get("$ref"), str):
                continue
            ignored = [key for key in item.node if key in _CONSTRAINING and not _said_there(corpus, path, item, key)]
            if not ignored:
                continue
            named = ", ".join(f"`{key}`" for key in ignored)
            line, col = doc.locate(f"{item.pointer}/{ignored[0]}")
            yield BESIDE_REF.at(
                path,
                line,
                f"{named} beside `$ref` {'is' if len(ignored) == 1 else 'are'} ignored: {draft.name} applies a "
                "`$ref` alone, so values " + ("it refuses" if len(ignored) == 1 else "they refuse") + " may pass",
                'put the `$ref` and the keywords in an `allOf` ("allOf": [{"$ref": ...}, {...}]), or declare '
                "2019-09 or later, where keywords beside `$ref` apply",
                col=col,
            )


def _said_there(corpus: Corpus, path: str, item: SchemaObject, key: str) -> bool:
    """Whether the `$ref` of `item` leads to a schema that says `key` already: the same value, for a
    `type` only values of the types it names (its own `type`, its `enum`, its branches'), or for a
    keyword of one type only values of other types. Ignoring the keyword then changes nothing."""
    site = corpus.graph.site_at(Located(path, item.pointer))
    if site is None or site.target is None:
        return False
    target = corpus.graph.node(site.target)
    if isinstance(target, dict) and key in target and target[key] == item.node[key]:
        return True
    found = _types_at(corpus, site.target, MAX_HOPS)
    if found is not None and key in idle_keywords(sorted(found)):
        return True  # a keyword of a type the target takes no value of (`items` beside a `$ref` to an object)
    named = types({"type": item.node[key]}) if key == "type" else None
    return named is not None and found is not None and within(found, named)


MAX_HOPS = 8  # `$ref`s and branches followed to tell a target's types; past them, they are not known


def _types_at(corpus: Corpus, where: Located, hops: int) -> frozenset[str] | None:
    """The JSON types the schema at `where` takes values of, where it says (None: not known)."""
    node = corpus.graph.node(where)
    if not isinstance(node, dict) or hops <= 0:
        return None
    if isinstance(node.get("$ref"), str):  # applied alone in the drafts this check reads
        site = corpus.graph.site_at(where)
        return _types_at(corpus, site.target, hops - 1) if site is not None and site.target is not None else None
    said = types(node)
    listed = values(node)
    if listed is not None:
        of_values = frozenset(json_type(value) for value in listed)
        said = of_values if said is None else frozenset(t for t in of_values if within(frozenset({t}), said))
    if said is not None:
        return said
    for keyword in ("anyOf", "oneOf"):
        branches = node.get(keyword)
        if isinstance(branches, list) and branches:
            found = [_types_at(corpus, where.child(keyword, n), hops - 1) for n in range(len(branches))]
            return None if any(f is None for f in found) else frozenset().union(*(f for f in found if f))
    return None

"""Example rules: valid examples validate, invalid ones fail, every schema has both."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from typing import Any

from wopgen.checks.validating import failures, validate
from wopgen.corpus import Corpus, Example
from wopgen.corpus.documents import escape_token
from wopgen.corpus.events import INDEX_POINTER, index_of
from wopgen.diagnostics import Diagnostic, define
from wopgen.semantics import problems as semantic_problems

PATTERN_TOO_SLOW = define(
    "example-pattern-too-slow",
    "error",
    "A schema `pattern` took longer than the budget to search an example (catastrophic backtracking); "
    "the example cannot be judged and a validator in production would hang on such input.",
    '"pattern": "^(?=x?)(a|aa)+$" with the example "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"',
)
VALID_FAILS = define("example-valid-fails", "error", "A valid/ example does not validate against its schema.")
INVALID_PASSES = define(
    "example-invalid-passes",
    "error",
    "An invalid/ example validates against its schema and breaks no semantic rule of wopgen.semantics.",
)
ORPHAN = define("example-orphan", "error", "An examples folder is named after a schema that does not exist.")
MISSING = define(
    "example-missing",
    "warning",
    "A schema lacks at least one valid and one invalid example.",
)
EVENT_SHAPE = define(
    "example-event-shape",
    "error",
    'An example of an indexed payload schema is not {"type": <known event type>, "payload": {...}}.',
)
UNVERIFIABLE = define(
    "example-unverifiable",
    "error",
    "An example could not be validated because its schema cannot be evaluated (unresolvable `$ref`, endless recursion).",
)


def _target(corpus: Corpus, example: Example) -> tuple[str, str, Any, list[str | int]] | Diagnostic:
    """The schema path, subschema pointer, instance and instance prefix to validate."""
    schema = corpus.schemas_by_name[example.schema_name]
    index = index_of(corpus, schema)
    if index is None:
        return schema.path, "", example.doc.data, []
    data = example.doc.data
    types = index.payloads
    if not (isinstance(data, dict) and set(data) == {"type", "payload"} and data["type"] in types):
        known = ", ".join(sorted(types)[:5])
        return EVENT_SHAPE.at(
            example.path,
            1,
            'expected {"type": <event type>, "payload": {...}} with a type from _typeIndex',
            f"known types include {known}, ...",
        )
    pointer = f"{INDEX_POINTER}/{escape_token(data['type'])}"
    return schema.path, pointer, data["payload"], ["payload"]


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    if corpus.settings.conventions.examples_layout == "per-def":
        yield from _check_def_examples(corpus)
        return
    required = corpus.settings.conventions.examples_required
    by_schema: dict[str, set[str]] = {}
    orphans: set[str] = set()
    for example in sorted(corpus.examples, key=lambda e: e.path):
        if example.schema_name not in corpus.schemas_by_name:
            if example.schema_name not in orphans:
                orphans.add(example.schema_name)
                yield ORPHAN.at(
                    example.path,
                    1,
                    f"no schema named {example.schema_name}{corpus.settings.conventions.schema_suffix}",
                    "rename the folder after an existing schema, or remove it",
                )
            continue
        by_schema.setdefault(example.schema_name, set()).add(example.kind)
        yield from _check_example(corpus, example)
    for name, doc in sorted(corpus.schemas_by_name.items()):
        kinds = by_schema.get(name, set())
        missing = [k for k in required if k not in kinds]
        if missing:
            folder = f"{corpus.settings.examples}/{name}/"
            yield MISSING.at(
                doc.path,
                1,
                f"no {' and no '.join(missing)} example",
                f"add {', '.join(folder + k + '/<what-it-shows>.json' for k in missing)}",
            )


def _check_def_examples(corpus: Corpus) -> Iterator[Diagnostic]:
    """The per-`$defs` layout: `<DefName>/` folders against `examples-schema#/$defs/<DefName>`."""
    conventions = corpus.settings.conventions
    target = posixpath.normpath(posixpath.join(corpus.settings.schemas, conventions.examples_schema))
    schema = corpus.schemas.get(target)
    defs = schema.data.get("$defs") if schema is not None and isinstance(schema.data, dict) else None
    if schema is None or not isinstance(defs, dict):
        if corpus.examples:
            yield ORPHAN.at(
                corpus.settings.examples,
                1,
                f"examples-schema {target} is not a schema of the corpus with $defs",
                "set examples-schema to the single-file schema, relative to the schemas folder",
            )
        return
    kinds: dict[str, set[str]] = {}
    for example in sorted(corpus.examples, key=lambda e: e.path):
        if example.def_name not in defs:
            if example.def_name not in kinds:
                yield ORPHAN.at(
                    example.path,
                    1,
                    f"{target} has no $defs/{example.def_name}",
                    "name the folder after a $defs entry of the schema, or remove it",
                )
            kinds.setdefault(example.def_name, set())
            continue
        kinds.setdefault(example.def_name, set()).add(example.kind)
        yield from _check_example(corpus, example, (schema.path, "/$defs/" + escape_token(example.def_name)))
    for name, found in sorted(kinds.items()):
        missing = [k for k in conventions.examples_required if k not in found]
        if name in defs and missing:
            yield MISSING.at(
                f"{corpus.settings.examples}/{name}",
                1,
                f"$defs/{name} has no {' and no '.join(missing)} example",
                f"add {', '.join(f'{name}/{k}/<what-it-shows>.json' for k in missing)}",
            )


def _check_example(corpus: Corpus, example: Example, def_target: tuple[str, str] | None = None) -> Iterator[Diagnostic]:
    schema = corpus.schemas[def_target[0]] if def_target else corpus.schemas_by_name[example.schema_name]
    if not corpus.resolvable(schema.path):
        yield UNVERIFIABLE.at(
            example.path,
            1,
            f"schema {schema.path} is not a valid JSON Schema, so nothing can be validated against it",
            "fix the schema-metaschema findings first",
        )
        return
    target = (*def_target, example.doc.data, []) if def_target else _target(corpus, example)
    if isinstance(target, Diagnostic):
        yield target
        return
    schema_path, pointer, instance, prefix = target
    verdict = validate(corpus, schema_path, pointer, instance, expect_valid=example.kind == "valid", noun="example")
    if verdict.confirmed:
        return  # the compiled engine confirms what the example claims: nothing to explain
    if verdict.problem:
        yield (PATTERN_TOO_SLOW if verdict.slow_pattern else UNVERIFIABLE).at(
            example.path, 1, verdict.problem, verdict.hint
        )
        return
    if example.kind == "valid":
        hint = f"fix the example or the schema ({schema_path})"
        yield from failures(verdict, VALID_FAILS, example.path, example.doc, prefix, "valid example fails ", hint)
    elif example.kind == "invalid" and not verdict.errors and not semantic_problems(example.schema_name, instance):
        yield INVALID_PASSES.at(
            example.path,
            1,
            f"invalid example validates against {schema_path} and breaks no semantic rule",
            "make it fail for the one reason its name gives, or move it to valid/",
        )

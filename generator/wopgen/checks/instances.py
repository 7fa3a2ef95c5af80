"""Instance rules: the JSON files `[tool.wopgen] instances` maps to a schema validate against it.

The loader reads the files each entry's glob matches (`Corpus.instances`) and reports a glob that
matches nothing and a file that is not JSON (`corpus_rules`); this check validates what it read, the
way examples are validated (`checks.validating`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from wopgen.checks.validating import failures, validate
from wopgen.corpus import Corpus, Instance
from wopgen.corpus.graph import value_at
from wopgen.corpus.settings import InstanceSet
from wopgen.diagnostics import Diagnostic, define

INVALID = define(
    "instance-invalid",
    "error",
    "A file an `instances` glob of [tool.wopgen] matches does not validate against the schema the entry names.",
    '{"id": 42} where workflow-definition.schema.json wants a string id',
)
SCHEMA_UNRESOLVED = define(
    "instance-schema-unresolved",
    "error",
    "An `instances` entry of [tool.wopgen] names a schema that is not a schema of the corpus, or a JSON pointer "
    "that leads to no subschema inside it; its files are not validated.",
)
UNVERIFIABLE = define(
    "instance-unverifiable",
    "error",
    "An instance could not be validated because its schema cannot be evaluated (it fails the metaschema, a `$ref` "
    "does not resolve, a `pattern` runs past its time budget, endless recursion).",
)


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    by_entry: dict[int, list[Instance]] = {}  # by the entry itself: two entries may be written alike
    for instance in corpus.instances:
        by_entry.setdefault(id(instance.entry), []).append(instance)
    for entry in corpus.settings.instances:
        found = by_entry.get(id(entry), [])
        schema_path = _schema_path(corpus, entry)
        problem = _unresolved(corpus, entry, schema_path)
        if problem is not None:
            yield SCHEMA_UNRESOLVED.at(
                corpus.settings.source_path(),
                entry.line,
                f"[tool.wopgen] instances: schema = {entry.target!r} {problem}",
                f"name a schema file relative to {corpus.settings.schemas}/ (and a pointer to a subschema in it, "
                "such as #/$defs/Name)",
                col=entry.col,
            )
            continue
        if not corpus.resolvable(schema_path):
            if found:
                yield UNVERIFIABLE.at(
                    corpus.settings.source_path(),
                    entry.line,
                    f"schema {schema_path} is not a valid JSON Schema, so none of the {len(found)} files "
                    f"{entry.files!r} matches is validated",
                    "fix the schema-metaschema findings first",
                    col=entry.col,
                )
            continue
        for instance in found:
            yield from _check_instance(corpus, instance, schema_path)


def _schema_path(corpus: Corpus, entry: InstanceSet) -> str:
    """The corpus path of the schema an entry names (relative to the schemas folder)."""
    return posixpath.normpath(posixpath.join(corpus.settings.schemas, entry.schema))


def _unresolved(corpus: Corpus, entry: InstanceSet, schema_path: str) -> str | None:
    """Why the entry's schema (or the subschema its pointer names) is not one to validate against, or None."""
    doc = corpus.schemas.get(schema_path)
    if doc is None:
        if schema_path in corpus.files:
            return (
                f"names {schema_path}, which is not read as a schema (it is not a "
                f"*{corpus.settings.conventions.schema_suffix} file where "
                "schemas are read, see schema-suffix; or it does not parse)"
            )
        return f"names {schema_path}, which does not exist"
    if not entry.pointer:
        return None
    found, target = value_at(doc.data, entry.pointer)
    if not found:
        return f"points at nothing: {schema_path} has no {entry.pointer}"
    if not isinstance(target, dict | bool):
        return f"points at a {type(target).__name__} value in {schema_path}, not at a schema"
    return None


def _check_instance(corpus: Corpus, instance: Instance, schema_path: str) -> Iterator[Diagnostic]:
    entry = instance.entry
    verdict = validate(corpus, schema_path, entry.pointer, instance.doc.data, expect_valid=True, noun="instance")
    if verdict.confirmed:
        return
    if verdict.problem:
        yield UNVERIFIABLE.at(instance.path, 1, verdict.problem, verdict.hint)
        return
    target = schema_path + (f"#{entry.pointer}" if entry.pointer else "")
    hint = f"fix the file, or the schema if the file is right ([tool.wopgen] instances maps {entry.files!r} to it)"
    yield from failures(
        verdict, INVALID, instance.path, instance.doc, [], f"does not validate against {target}: ", hint
    )

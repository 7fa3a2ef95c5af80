"""Compiled validation on the hot paths, with the pure-Python engine kept to explain failures.

`jsonschema-rs` answers "is this valid?" an order of magnitude faster than `jsonschema`. It answers
the questions asked of every schema and example (does the 2020-12 metaschema, or that of the draft
the schema declares, accept this schema; does this example validate); when the answer is "no", the caller asks `jsonschema` for the error
tree, which names the keyword, the instance path and so the line. Where the compiled engine cannot
give an answer (a schema it refuses to compile, a `pattern` it cannot run within its budget) it
says `None` and the caller falls back to the pure-Python path, so a verdict never depends on which
engine happened to answer.

Nothing is ever fetched: the compiled registry holds the corpus schemas only, and its retriever
refuses every other URI.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from typing import Any
from urllib.parse import urlsplit

import jsonschema_rs
from jsonschema import (
    Draft4Validator,
    Draft6Validator,
    Draft7Validator,
    Draft201909Validator,
    Draft202012Validator,
    FormatChecker,
)
from jsonschema.validators import validator_for

from wopgen.corpus.documents import may_embed_id
from wopgen.corpus.keywords import DIALECT

# Backtracking steps a `pattern` may take per match before the compiled engine gives up on it
# (the pure-Python path then decides, under its own budget).
BACKTRACK_LIMIT = 100_000


# The formats the compiled engine knows.
COMPILED_FORMATS = frozenset(
    {
        "date",
        "date-time",
        "duration",
        "email",
        "hostname",
        "idn-email",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "iri",
        "iri-reference",
        "json-pointer",
        "regex",
        "relative-json-pointer",
        "time",
        "uri",
        "uri-reference",
        "uri-template",
        "uuid",
    }
)

# Every format a JSON Schema draft (04 to 2020-12) defines: the compiled engine knows exactly these. Validators
# ignore any other name, so a `format` outside this set says nothing.
DEFINED_FORMATS = COMPILED_FORMATS

# The formats both engines assert, on every machine; every other `format` is an annotation. These are the
# ones jsonschema asserted in wopgen's own environment; it asserts a format whenever a package that checks
# it happens to be importable (fqdn for hostname, isoduration for duration, rfc3987 for uri...), so reading
# its FORMAT_CHECKER made the same corpus pass on one machine and fail on another.
ASSERTED_FORMATS = frozenset(
    {"date", "date-time", "email", "idn-email", "idn-hostname", "ipv4", "ipv6", "regex", "time", "uuid"}
)


def _compiled_format(name: str) -> Callable[[Any], bool]:
    """Whether the compiled engine takes a value as a `name`."""
    judge = jsonschema_rs.validator_for({"$schema": DIALECT, "format": name}, validate_formats=True).is_valid

    def conforms(value: Any) -> bool:
        return bool(judge(value))

    return conforms


def _format_checker() -> FormatChecker:
    """A format checker for `jsonschema` that asserts ASSERTED_FORMATS as the compiled engine reads them, and
    no other format. jsonschema's own checkers took what RFC 3339, RFC 5321 and RFC 4122 refuse
    (`te..st@example.com`, `example.` as an idn-hostname, a UUID with a trailing hyphen, a date-time ending in a
    newline, Python-only regex syntax as a `regex`), so a value one engine refused the other took, and a
    valid example holding one passed `check`."""
    checker = FormatChecker(())
    for name in sorted(ASSERTED_FORMATS):
        checker.checks(name)(_compiled_format(name))
    return checker


def _annotation(_value: str) -> bool:
    return True


# The formats the compiled engine knows and neither engine asserts.
ANNOTATION_ONLY = {name: _annotation for name in sorted(COMPILED_FORMATS - ASSERTED_FORMATS)}


FORMAT_CHECKER = _format_checker()
# The URI of the one document the corpus schemas are embedded in (see `_embedded`); no schema refers to it.
_EMBEDDING = "urn:wopgen:corpus"


def _refuse(uri: str) -> Any:
    raise ValueError(f"{uri} is not a corpus schema; nothing outside the corpus is fetched")


# The drafts both engines read, each in its own way (draft-04 `exclusiveMaximum: true`, draft-07
# array `items`, `$ref` siblings ignored before 2019-09). `jsonschema` also knows draft-03, which
# `jsonschema-rs` does not: its metaschema is only ever asked of `jsonschema` (asking the compiled
# engine would make it try to download it).
COMPILED_DRAFTS = (Draft4Validator, Draft6Validator, Draft7Validator, Draft201909Validator, Draft202012Validator)


def draft(schema: Any) -> Any:
    """The `jsonschema` validator class of the draft `schema` declares in `$schema`, as
    `jsonschema.validators.validator_for` picks it; 2020-12 when it declares none, a URI that names
    no draft, or a value that is not a string."""
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if not isinstance(declared, str) or declared == DIALECT:  # nearly every schema, told at once
        return Draft202012Validator
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # an unknown `$schema`: read as 2020-12
        return validator_for({"$schema": declared}, default=Draft202012Validator)


def dialect(cls: Any) -> str:
    """The metaschema URI of the draft of the `jsonschema` validator class `cls`."""
    uri: str = cls.ID_OF(cls.META_SCHEMA)
    return uri


def metaschema_accepts(schema: Any, cls: Any = Draft202012Validator) -> bool | None:
    """Whether the metaschema of the draft of `cls` (2020-12 unless given) accepts `schema` (None: the
    compiled engine cannot tell)."""
    if not isinstance(schema, dict | bool):
        return False
    if isinstance(schema, dict) and "$schema" in schema and not isinstance(schema["$schema"], str):
        return None  # only the explaining engine reads a wrong-typed `$schema` as the finding it is
    if cls not in COMPILED_DRAFTS:
        return None
    try:
        return bool(jsonschema_rs.meta.is_valid(_as_draft(schema, dialect(cls))))
    except (jsonschema_rs.ValidationError, ValueError, RecursionError, OverflowError):
        return None


def _as_draft(schema: Any, uri: str) -> Any:
    """The metaschema question is asked of the draft named by `uri`, whatever `$schema` the document
    names; `jsonschema_rs.meta` would otherwise pick the draft the document declares (and try to
    download a metaschema it does not know)."""
    if isinstance(schema, dict) and ("$schema" in schema or uri != DIALECT):
        return {**schema, "$schema": uri}
    return schema


def _embedded(resources: Sequence[tuple[str, Any]], texts: Sequence[str] | None = None) -> dict[str, Any] | None:
    """Every schema as a subresource of one 2020-12 document, each with its URI as `$id`: a registry
    of that one document resolves every URI as a registry of the schemas one by one does, and
    `jsonschema-rs` builds it in time linear in the schema count (the one-by-one registry takes the
    square: 1.0 s against 0.14 s at 5,000 schemas).

    None where the two could differ: a URI that repeats, is not absolute, carries a fragment or is
    the embedding document's own; a schema that is not an object, states another `$id`, names
    another dialect (an embedded resource is read in its parent's), may hold an `$id` below its root
    (a nested resource claiming another schema's URI wins one by one, but not embedded), or names
    the embedding document. The last two are read from the schemas' source `texts` (in the order of
    `resources`), or from their JSON when none are given (see `documents.may_embed_id`).
    """
    seen: set[str] = set()
    embedded: dict[str, Any] = {}
    for number, (uri, schema) in enumerate(resources):
        if uri in seen or uri == _EMBEDDING or not urlsplit(uri).scheme or "#" in uri or not isinstance(schema, dict):
            return None
        if schema.get("$id", uri) != uri or schema.get("$schema", DIALECT) != DIALECT:
            return None
        text = json.dumps(schema, ensure_ascii=False) if texts is None else texts[number]
        if may_embed_id(text, schema) or _EMBEDDING in text:
            return None
        seen.add(uri)
        embedded[str(number)] = {**schema, "$id": uri}
    return {"$schema": DIALECT, "$defs": embedded}


class CompiledSchemas:
    """Compiled validators over one registry of corpus schemas, built lazily and kept per target.

    The registry holds the schemas embedded in one document (`_embedded`) where that means the
    same, else each schema as a resource of its own. Compiling a validator costs time growing with
    the registry (`jsonschema-rs` prepares it for each validator: about 0.7 ms at 5,000 schemas), so
    one validator per schema would cost the square of the schema count. The whole schemas are
    therefore compiled once, together, as one validator whose property named after each schema's
    URI refers to that schema: `{uri: instance}` is valid against it exactly when `instance` is
    valid against the schema. A target inside a schema (`uri#/pointer`), or any target when that
    shared validator cannot be compiled, gets a validator of its own.
    """

    def __init__(self, resources: Iterable[tuple[str, Any]], texts: Iterable[str] | None = None) -> None:
        """`resources`: each schema under its URI; `texts`, when known, their source texts in the same
        order (see `_embedded`)."""
        self._resources = list(resources)
        self._texts = None if texts is None else list(texts)
        self._uris = frozenset(uri for uri, _schema in self._resources)
        self._registry: Any = None
        self._unbuilt = ""  # why the registry could not be built, once it was tried
        self._validators: dict[str, Any] = {}

    def _build_registry(self) -> Any:
        """The registry, built once; a failure is kept, so each validator asked for later fails at once
        rather than building it again."""
        if self._registry is None and not self._unbuilt:
            embedded = _embedded(self._resources, self._texts)
            resources = self._resources if embedded is None else [(_EMBEDDING, embedded)]
            try:
                self._registry = jsonschema_rs.Registry(resources, retriever=_refuse)
            except (jsonschema_rs.ReferencingError, ValueError) as error:
                self._unbuilt = str(error) or type(error).__name__
        if self._unbuilt:
            raise ValueError(self._unbuilt)
        return self._registry

    def _compile(self, schema: dict[str, Any]) -> Any:
        """A compiled validator of `schema` over the registry; None when the compiled engine refuses it."""
        try:
            return jsonschema_rs.validator_for(
                {"$schema": DIALECT, **schema},
                registry=self._build_registry(),
                retriever=_refuse,
                validate_formats=True,
                formats=ANNOTATION_ONLY,
                pattern_options=jsonschema_rs.FancyRegexOptions(backtrack_limit=BACKTRACK_LIMIT),
            )
        except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError, ValueError, RecursionError):
            return None

    @cached_property
    def _shared(self) -> Any:
        """The one validator of every whole schema (see the class); None when it cannot be compiled."""
        return self._compile({"properties": {uri: {"$ref": uri} for uri in sorted(self._uris)}})

    def validator(self, target: str) -> Any:
        """The compiled validator for the URI `target` (a schema, or `uri#/pointer` inside one); None
        when the compiled engine refuses it."""
        if target not in self._validators:
            self._validators[target] = self._compile({"$ref": target})
        return self._validators[target]

    def rejecting(self, targets: Sequence[str], instance: Any) -> set[str] | None:
        """The targets among `targets` (URIs, `uri#/pointer` inside a schema) that `instance` does not
        validate against, judged by one validator compiled over all of them, so a thousand targets cost
        one compilation; None when the compiled engine cannot tell."""
        refused = self._refused_in_batch([(target, instance) for target in targets])
        return None if refused is None else {targets[index] for index in refused}

    def verdicts(self, pairs: Sequence[tuple[str, Any]]) -> list[bool | None]:
        """Whether each instance validates against its target URI (None: the compiled engine cannot
        tell), judged by one validator compiled over every target: a validator of its own for each
        target inside a schema would cost a compilation over the whole registry, and the memory of one,
        per pair (thousands of `default`s in a large corpus). Where that validator cannot be compiled
        or run, each pair is judged on its own."""
        refused = self._refused_in_batch(pairs)
        if refused is None:
            return [self.is_valid(target, instance) for target, instance in pairs]
        return [index not in refused for index in range(len(pairs))]

    def _refused_in_batch(self, pairs: Sequence[tuple[str, Any]]) -> set[int] | None:
        """The positions of the pairs whose instance fails its target, judged by one validator whose
        property `t<n>` refers to the n-th target; None when that validator cannot be compiled or run."""
        validator = self._compile({"properties": {f"t{n}": {"$ref": target} for n, (target, _) in enumerate(pairs)}})
        if validator is None:
            return None
        try:
            wrapped = {f"t{n}": instance for n, (_, instance) in enumerate(pairs)}
            return {int(str(error.instance_path[0])[1:]) for error in validator.iter_errors(wrapped)}
        except (jsonschema_rs.ValidationError, ValueError, RecursionError, OverflowError):
            return None

    def is_valid(self, target: str, instance: Any) -> bool | None:
        """Whether `instance` validates against `target` (None: the compiled engine cannot tell)."""
        shared = self._shared if target in self._uris else None
        validator, wrapped = (shared, {target: instance}) if shared is not None else (self.validator(target), instance)
        if validator is None:
            return None
        try:
            return bool(validator.is_valid(wrapped))
        except (jsonschema_rs.ValidationError, ValueError, RecursionError, OverflowError):
            return None

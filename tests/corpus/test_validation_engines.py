"""The compiled engine and the explaining engine give the same verdict, so which one answers never
changes a finding: on every example of the repository corpus, and on instances hypothesis derives
from them (members dropped, values replaced, arbitrary JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wopgen.checks.examples import check as check_examples
from wopgen.corpus import Corpus, load
from wopgen.corpus.events import INDEX_POINTER, index_of
from wopgen.corpus.validation import CompiledSchemas, metaschema_accepts

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load(REPO)


def _targets(corpus: Corpus) -> list[tuple[str, str, Any]]:
    """(path, pointer, instance) for every example: the payload of an indexed event against its $def."""
    found = []
    for example in corpus.examples:
        doc = corpus.schemas_by_name.get(example.schema_name)
        if doc is None or not corpus.resolvable(doc.path):
            continue
        data = example.doc.data
        if index_of(corpus, doc) is not None and isinstance(data, dict) and isinstance(data.get("type"), str):
            found.append((doc.path, f"{INDEX_POINTER}/{data['type']}", data.get("payload")))
        else:
            found.append((doc.path, "", data))
    return found


def _agree(corpus: Corpus, path: str, pointer: str, instance: Any) -> None:
    slow = corpus.validator(path, pointer).is_valid(instance)
    fast = corpus.compiled.is_valid(corpus.target_uri(path, pointer), instance)
    assert fast is None or fast == slow, (
        f"{path}#{pointer}: compiled says {fast}, jsonschema says {slow} on {instance!r}"
    )


def test_every_repository_example_gets_one_verdict(corpus: Corpus) -> None:
    targets = _targets(corpus)
    assert len(targets) > 200
    answered = 0
    for path, pointer, instance in targets:
        _agree(corpus, path, pointer, instance)
        answered += corpus.compiled.is_valid(corpus.target_uri(path, pointer), instance) is not None
    assert answered == len(targets)  # the compiled engine answers every one of them


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def _mutated(draw: st.DrawFn, targets: list[tuple[str, str, Any]]) -> tuple[str, str, Any]:
    path, pointer, instance = draw(st.sampled_from(targets))
    if isinstance(instance, dict) and instance and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(instance)))
        mutated = dict(instance)
        if draw(st.booleans()):
            del mutated[key]
        else:
            mutated[key] = draw(JSON)
        return path, pointer, mutated
    return path, pointer, draw(JSON)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_engines_agree_on_derived_instances(corpus: Corpus, data: st.DataObject) -> None:
    path, pointer, instance = data.draw(_mutated(_targets(corpus)))
    _agree(corpus, path, pointer, instance)


@settings(max_examples=200, deadline=None)
@given(
    schema=st.dictionaries(
        st.sampled_from(["type", "minimum", "required", "properties", "items", "enum"]), JSON, max_size=3
    )
)
def test_engines_agree_on_the_metaschema(schema: dict[str, Any]) -> None:
    from jsonschema import Draft202012Validator

    fast = metaschema_accepts(schema)
    slow = Draft202012Validator(Draft202012Validator.META_SCHEMA).is_valid(schema)
    assert fast is None or fast == slow


def test_a_valid_example_that_fails_is_still_explained(tmp_path: Path) -> None:
    """The compiled engine only short-cuts agreement; a failing valid example still gets its keyword and line."""
    from support.corpus_factory import good_files, write

    files = good_files()
    valid = next(p for p in files if "/valid/" in p and p.endswith(".json"))
    files[valid] = '{\n  "unexpected": true\n}\n'
    write(tmp_path, files)
    found = [d for d in check_examples(load(tmp_path)) if d.rule == "example-valid-fails"]
    assert found and found[0].path == valid


def test_nothing_outside_the_corpus_is_fetched() -> None:
    compiled = CompiledSchemas([("https://example.test/a.json", {"$ref": "https://elsewhere.test/b.json"})])
    assert compiled.is_valid("https://example.test/a.json", {}) is None


def test_a_registry_the_compiled_engine_refuses_is_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # SchemaStore: asked once per default, it was built again each time, for minutes
    import jsonschema_rs

    built: list[int] = []
    registry = jsonschema_rs.Registry
    monkeypatch.setattr(jsonschema_rs, "Registry", lambda *a, **k: built.append(1) or registry(*a, **k))
    compiled = CompiledSchemas([("https://example.test/a.json", {"$ref": "https://elsewhere.test/b.json"})])
    assert [compiled.is_valid(f"https://example.test/a.json#/x{n}", n) for n in range(3)] == [None, None, None]
    assert built == [1]


def test_a_schema_reaching_out_of_the_corpus_leaves_the_others_compiled(tmp_path: Path) -> None:
    from support.corpus_factory import good_files, write

    files = good_files()
    files["schemas/thing.schema.json"]["properties"]["far"] = {"$ref": "https://elsewhere.test/far.json"}
    corpus = load(write(tmp_path, files))
    assert corpus.compiled_verdict("schemas/decision.schema.json", "", "go") is True  # still compiled
    assert corpus.compiled_verdict("schemas/thing.schema.json", "", {}) is None  # left to `jsonschema`


def test_the_repository_schemas_are_compiled_embedded_in_one_document(corpus: Corpus) -> None:
    """So the agreement tests above hold for the registry every 2020-12 corpus gets."""
    from wopgen.corpus.validation import _embedded

    resources = [(corpus.uri_of(path), doc.data) for path, doc in sorted(corpus.schemas.items())]
    assert _embedded(resources) is not None


A = "https://example.test/a.json"
B = "https://example.test/b.json"
C = "https://example.test/c.json"
LINKED = [
    (
        A,
        {"$id": A, "type": "object", "properties": {"b": {"$ref": "b.json#/$defs/small"}, "c": {"$ref": "b.json#big"}}},
    ),
    (B, {"$defs": {"small": {"type": "integer", "maximum": 5}, "big": {"$anchor": "big", "minimum": 100}}}),
]


@pytest.mark.parametrize(
    "resources",
    [
        [(A, {"type": "string"})],  # a URI that repeats
        [("c.json", {"type": "string"})],  # not absolute
        [(C + "#", {"type": "string"})],  # a fragment
        [(C, {"$id": "https://example.test/d.json"})],  # another $id
        [(C, {"$schema": "http://json-schema.org/draft-07/schema#"})],  # another dialect
        [(C, True)],  # not an object
        [(C, {"$defs": {"b": {"$id": B, "type": "string"}}})],  # an $id below the root (here claiming B)
        [(C, {"properties": {"x": {"$ref": "urn:wopgen:corpus#/$defs/0"}}})],  # the embedding document named
        [("urn:wopgen:corpus", {"type": "string"})],  # the embedding document's own URI
    ],
)
def test_schemas_are_embedded_only_where_it_means_the_same(resources: list[tuple[str, Any]]) -> None:
    from wopgen.corpus.validation import _embedded

    assert _embedded(LINKED) is not None
    assert _embedded([*LINKED, (C, {"$id": C, "$schema": "https://json-schema.org/draft/2020-12/schema"})]) is not None
    assert _embedded(LINKED + resources) is None


@pytest.mark.parametrize("embedded", [True, False])
def test_both_registries_resolve_refs_anchors_and_pointers_alike(
    embedded: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from wopgen.corpus import validation

    if not embedded:
        monkeypatch.setattr(validation, "_embedded", lambda _resources, _texts: None)
    compiled = CompiledSchemas(LINKED)
    assert compiled.is_valid(A, {"b": 5, "c": 100}) is True
    assert compiled.is_valid(A, {"b": 6}) is False
    assert compiled.is_valid(A, {"c": 99}) is False
    assert compiled.is_valid(B + "#/$defs/small", 4) is True
    assert compiled.is_valid(B + "#/$defs/small", "4") is False
    assert compiled.is_valid(B + "#big", 99) is False


def test_a_schema_of_another_dialect_is_read_in_its_own() -> None:
    """draft-07's array `items` is a tuple: compiled as its own resource, not embedded in 2020-12."""
    tuple_schema = {"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "integer"}]}
    compiled = CompiledSchemas([*LINKED, ("https://example.test/t.json", tuple_schema)])
    assert compiled.is_valid("https://example.test/t.json", [1, "any"]) is True
    assert compiled.is_valid("https://example.test/t.json", ["x"]) is False


def test_a_nested_id_claiming_another_schemas_uri_wins_as_it_does_one_by_one() -> None:
    """A subschema of a whose `$id` is b's URI shadows b in a registry of single schemas (and in
    `referencing`); embedded in one document b would win instead, so such a corpus is not embedded."""
    shadowing = [(A, {"$defs": {"b": {"$id": B, "type": "string"}}}), (B, {"type": "integer"})]
    compiled = CompiledSchemas(shadowing)
    assert compiled.is_valid(B, "text") is True
    assert compiled.is_valid(B, 1) is False


def test_texts_decide_what_the_schemas_hold_below_their_root() -> None:
    from wopgen.corpus.validation import _embedded

    plain = [(A, {"$id": A, "type": "object"})]
    assert _embedded(plain, ['{"$id": "https://example.test/a.json", "type": "object"}']) is not None
    assert _embedded(plain, ['{"$id": "https://example.test/a.json", "type": "object", "x": {"\\u0024id": 1}}']) is None
    assert _embedded(plain, ['{"$id": "https://example.test/a.json", "$defs": {"y": {"$id": "y.json"}}}']) is None


def test_verdicts_in_one_batch_are_those_of_one_target_at_a_time(corpus: Corpus) -> None:
    """`verdicts` judges every pair with one compiled validator (a validator per target cost SchemaStore
    2 GB and half its check time); each answer is the one `is_valid` gives alone, and each instance is
    judged against its own target, not another's."""
    pairs = [(corpus.target_uri(path, pointer), instance) for path, pointer, instance in _targets(corpus)]
    pairs += [(target, 12345) for target, _ in pairs[:40]]  # refused by most: every schema here is an object
    alone = [corpus.compiled.is_valid(target, instance) for target, instance in pairs]
    assert False in alone and True in alone
    assert corpus.compiled.verdicts(pairs) == alone


def test_a_batch_the_compiled_engine_refuses_is_judged_pair_by_pair() -> None:
    compiled = CompiledSchemas(
        [("https://example.test/a.json", {"type": "integer"}), ("https://example.test/b.json", {"type": "string"})]
    )
    pairs = [("https://example.test/a.json", 1), ("https://example.test/b.json", 1), ("https://elsewhere.test/c", 1)]
    assert compiled.verdicts(pairs) == [True, False, None]  # the third target reaches out: no batch compiles


def test_the_corpus_verdicts_explain_what_the_compiled_engine_refuses(corpus: Corpus) -> None:
    path, pointer, instance = next(t for t in _targets(corpus) if corpus.verdict(*t))  # a valid example
    pairs = [(pointer, instance), (pointer, 12345)]
    assert corpus.verdicts(path, pairs) == [corpus.verdict(path, p, i) for p, i in pairs] == [True, False]

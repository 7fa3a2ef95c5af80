"""`DocumentRefs`: the `$ref`s of a corpus's own OpenAPI / AsyncAPI document, followed as those
formats follow them, into the document, a shared fragment beside it, or a corpus schema."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from wopgen.corpus import load
from wopgen.corpus.api import DocumentRefs
from wopgen.corpus.graph import Located

OPENAPI = "spec/api/openapi.yaml"
TEXT = """\
openapi: 3.1.0
info: {title: Refs, version: "1"}
paths: {}
components:
  parameters:
    First: {$ref: '#/components/parameters/Second', description: Said where it is used.}
    Second: {$ref: '#/components/parameters/Third'}
    Third: {in: query, name: q, description: Said where it is defined.}
    Loop: {$ref: '#/components/parameters/Loop'}
    Shared: {$ref: 'shared.yaml#/Limit'}
    Nowhere: {$ref: '#/components/parameters/Gone'}
  schemas:
    Alias: {$ref: '#/components/schemas/Named', description: Only a note.}
    Named: {$ref: '../../schemas/thing.schema.json#/$defs/name'}
    Inline: {type: object}
    ToInline: {$ref: '#/components/schemas/Inline'}
"""
SHARED = "Limit: {in: query, name: limit, description: From the shared file.}\n"


def _refs(make_corpus: Callable[..., Path]) -> DocumentRefs:
    corpus = load(make_corpus(lambda files: files.update({OPENAPI: TEXT, "spec/api/shared.yaml": SHARED})))
    return DocumentRefs(corpus, OPENAPI, corpus.api[OPENAPI].data)


def test_a_chain_of_references_ends_at_the_object_with_the_first_description(
    make_corpus: Callable[..., Path],
) -> None:
    refs = _refs(make_corpus)
    found = refs.resolve({"$ref": "#/components/parameters/First"})
    assert found is not None
    assert (found["name"], found["description"]) == ("q", "Said where it is used.")
    assert refs.resolve({"in": "path", "name": "x"}) == {"in": "path", "name": "x"}


def test_a_reference_is_read_relative_to_the_file_it_is_written_in(make_corpus: Callable[..., Path]) -> None:
    found = _refs(make_corpus).resolve({"$ref": "#/components/parameters/Shared"})
    assert found is not None and found["description"] == "From the shared file."


def test_a_loop_or_a_reference_to_nothing_resolves_to_none(make_corpus: Callable[..., Path]) -> None:
    refs = _refs(make_corpus)
    assert refs.resolve({"$ref": "#/components/parameters/Loop"}) is None
    assert refs.resolve({"$ref": "#/components/parameters/Nowhere"}) is None
    assert refs.resolve({"$ref": "https://example.com/elsewhere.yaml"}) is None


def test_a_schema_reference_leads_through_pure_references_to_a_corpus_schema_or_an_inline_component(
    make_corpus: Callable[..., Path],
) -> None:
    refs = _refs(make_corpus)
    assert refs.schema_target({"$ref": "#/components/schemas/Alias"}) == Located(
        "schemas/thing.schema.json", "/$defs/name"
    )
    assert refs.schema_target({"$ref": "#/components/schemas/ToInline"}) == Located(
        OPENAPI, "/components/schemas/Inline"
    )
    assert refs.schema_target({"$ref": "#/components/schemas/Gone"}) is None


def test_a_document_that_is_no_corpus_file_follows_only_its_own_pointers() -> None:
    data = {"components": {"parameters": {"P": {"name": "p"}}}}
    refs = DocumentRefs(None, None, data)
    assert refs.resolve({"$ref": "#/components/parameters/P"}) == {"name": "p"}
    assert refs.resolve({"$ref": "other.yaml#/P"}) is None

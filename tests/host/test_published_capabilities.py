"""This repository's discovery documents are valid under the published OpenWOP v1 capabilities schema.

The published schemas are read from `<repo>/../shared/external/openwop-v1/schemas`; the test skips
when that folder is absent. The published `verifier` block is closed, which is why RFC 0901's
capability is advertised as the root family `verificationGates`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import referencing
from jsonschema import Draft202012Validator
from referencing.jsonschema import DRAFT202012

from host.host_helpers import REPO
from wopgen.generate.host_profiles import PROFILES, capabilities

PUBLISHED = REPO.parent / "shared" / "external" / "openwop-v1" / "schemas"


@pytest.fixture(scope="module")
def published() -> Draft202012Validator:
    if not (PUBLISHED / "capabilities.schema.json").is_file():
        pytest.skip("the published OpenWOP v1 schemas are not at ../shared/external")
    resources = []
    for path in sorted(PUBLISHED.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resource = referencing.Resource.from_contents(schema, default_specification=DRAFT202012)
        resources.append((schema.get("$id", path.name), resource))
        resources.append((f"./{path.name}", resource))
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(resources)
    schema = json.loads((PUBLISHED / "capabilities.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=registry)


def _problems(validator: Draft202012Validator, document: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


@pytest.mark.parametrize("spec", [p for p in PROFILES if not p.mutant], ids=lambda p: p.name)
def test_every_profile_discovery_document_is_valid_under_the_published_schema(published, spec):
    assert _problems(published, capabilities(spec, "0.0.0")) == []


def test_every_valid_capabilities_example_is_valid_under_the_published_schema(published):
    examples = sorted((REPO / "schemas/examples/capabilities/valid").glob("*.json"))
    assert examples
    for path in examples:
        assert _problems(published, json.loads(path.read_text())) == [], path.name


def test_the_deprecated_place_is_what_the_published_schema_refuses(published):
    document = capabilities(next(p for p in PROFILES if p.name == "full"), "0.0.0")
    moved = json.loads(json.dumps(document))
    moved["multiAgent"]["executionModel"]["verifier"]["gates"] = moved.pop("verificationGates")
    assert any("gates" in problem for problem in _problems(published, moved))

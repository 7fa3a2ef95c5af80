"""`wopgen models` on schemas whose `$defs` have no titles: class names fall back to the `$defs`
key, collision-safe, so typed events and `parse_run_event` still exist; what cannot be typed is a
`models-untyped` warning, never a silent drop."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

from support.corpus_factory import good_files, plain_json_names, schema
from support.generated_models import imported_package, takes
from support.helpers import hits
from wopgen.corpus import load
from wopgen.diagnostics import Diagnostic
from wopgen.generate.models import generate_models, pascal_case

PAYLOADS = "schemas/run-event-payloads.schema.json"


def _untitled(files: dict[str, Any]) -> None:
    for node in files[PAYLOADS]["$defs"].values():
        node.pop("title", None)


def _import(tmp_path: Path, corpus_root: Path) -> Any:
    """Generate the models under a package name of this test alone and import it, so no other
    test's `wop_models` is touched."""
    package = "untitled_" + tmp_path.name.replace("-", "_")
    files = generate_models(load(corpus_root), package=package)
    for relative, text in files.items():
        target = tmp_path / "pkg" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(tmp_path / "pkg"))
    try:
        return importlib.import_module(package)
    finally:
        sys.path.remove(str(tmp_path / "pkg"))


@pytest.mark.parametrize(
    ("key", "name"), [("runStarted", "RunStarted"), ("agent.verified", "AgentVerified"), ("3d", "Model3d")]
)
def test_pascal_case(key: str, name: str) -> None:
    assert pascal_case(key) == name


def test_untitled_payloads_still_give_typed_events(make_corpus: Any, tmp_path: Path) -> None:
    warnings: list[Diagnostic] = []
    generate_models(load(make_corpus(_untitled)), warnings=warnings)
    assert warnings == []
    models = _import(tmp_path, make_corpus(_untitled))
    event = models.parse_run_event({"type": "agent.verified", "payload": {"verdict": "pass"}})
    assert type(event).__name__ == "AgentVerifiedEvent"
    assert type(event.payload).__name__ == "AgentVerified"
    assert type(models.parse_run_event({"type": "run.started", "payload": {}})).__name__ == "RunStartedEvent"


def test_event_class_names_are_collision_safe(make_corpus: Any, tmp_path: Path) -> None:
    def clash(files: dict[str, Any]) -> None:
        _untitled(files)
        files["schemas/run-event.schema.json"]["$defs"]["RunEventType"]["enum"].append("run-started")
        payloads = files[PAYLOADS]["$defs"]
        payloads["_typeIndex"]["properties"]["run-started"] = {"$ref": "#/$defs/runStartedToo"}
        payloads["runStartedToo"] = {"type": "object"}

    models = _import(tmp_path, make_corpus(clash))
    # event types in sorted order: "run-started" takes the name first
    assert type(models.parse_run_event({"type": "run-started", "payload": {}})).__name__ == "RunStartedEvent"
    assert type(models.parse_run_event({"type": "run.started", "payload": {}})).__name__ == "RunStartedEvent2"


def test_event_type_without_payload_is_a_warning(make_corpus: Any) -> None:
    def no_payload(files: dict[str, Any]) -> None:
        files["schemas/run-event.schema.json"]["$defs"]["RunEventType"]["enum"].append("run.paused")

    warnings: list[Diagnostic] = []
    generate_models(load(make_corpus(no_payload)), warnings=warnings)
    assert hits(warnings, "models-untyped") == [(PAYLOADS, 8)]
    clean: list[Diagnostic] = []
    generate_models(load(make_corpus()), warnings=clean)
    assert clean == []


def test_root_class_not_exported_is_a_warning(make_corpus: Any) -> None:
    def odd_title(files: dict[str, Any]) -> None:
        files["schemas/decision.schema.json"]["title"] = "Ärger Wahl"  # the generator names it FieldRgerWahl

    warnings: list[Diagnostic] = []
    files = generate_models(load(make_corpus(odd_title)), warnings=warnings)
    assert hits(warnings, "models-untyped") == [("schemas/decision.schema.json", 4)]
    assert "decision_schema" not in files["wop_models/__init__.py"]


def test_plain_json_schema_files_are_generated_and_exported(make_corpus: Any, tmp_path: Path) -> None:
    # with `schema-suffix = ".json"` the library is fed `decision.json`, whose module is `decision`
    warnings: list[Diagnostic] = []
    files = generate_models(load(make_corpus(plain_json_names)), warnings=warnings)
    assert warnings == []
    assert "from .decision import Decision" in files["wop_models/__init__.py"]
    models = _import(tmp_path, make_corpus(plain_json_names))
    assert type(models.parse_run_event({"type": "run.started", "payload": {}})).__name__ == "RunStartedEvent"


def test_root_class_named_from_a_title_with_spaces(make_corpus: Any) -> None:
    def spaced(files: dict[str, Any]) -> None:
        files["schemas/decision.schema.json"]["title"] = "Decision Kind"
        files["schemas/thing.schema.json"]["title"] = "thing_record"

    warnings: list[Diagnostic] = []
    files = generate_models(load(make_corpus(spaced)), warnings=warnings)
    assert warnings == []
    assert "from .decision_schema import DecisionKind" in files["wop_models/__init__.py"]
    assert "from .thing_schema import ThingRecord" in files["wop_models/__init__.py"]


def test_the_root_is_exported_when_a_definition_takes_its_name(make_corpus: Any) -> None:
    """A definition whose class name is the schema's title takes the name; the library calls the root
    `<Title>Model`, and that, the class of the root's members, is what the package exports."""

    def clash(files: dict[str, Any]) -> None:
        thing = files["schemas/thing.schema.json"]
        thing["title"] = "Config"
        thing["$defs"] = {"config": {"type": "string"}}
        thing["properties"]["alias"] = {"$ref": "#/$defs/config"}

    files = generate_models(load(make_corpus(clash)))
    assert "from .thing_schema import ConfigModel" in files["wop_models/__init__.py"]
    assert "class Config(RootModel[StrictStr]):" in files["wop_models/thing_schema.py"]


def test_the_root_of_an_untitled_schema_is_exported_though_a_member_takes_its_name(tmp_path: Path) -> None:
    # the file `holder.schema.json` has a member `holder`: the library names that member's class `Holder`
    # and the root `Model`; the package exports the class holding the root's members
    files = good_files()
    body = {"type": "object", "properties": {"holder": {"type": "object"}, "count": {"type": "integer"}}}
    files["schemas/holder.schema.json"] = {k: v for k, v in schema("holder", body).items() if k != "title"}
    models = imported_package(files, tmp_path, "untitled_root_models")
    root = getattr(models, "Model", None)
    assert root is not None and "Model" in models.__all__ and "Holder" not in models.__all__
    assert takes(root, {"count": 1}) and not takes(root, {"count": "x"})


def test_roots_that_share_a_class_name_are_each_exported_under_their_file_name(tmp_path: Path) -> None:
    """The library names the root of every untitled schema `Model`, and two schemas may share a title: the
    package exports each such root under the PascalCase of its file name, so no import hides another, and
    a root named uniquely keeps its own name."""
    files = good_files()
    for name, member in (("cargo", "edition"), ("pyproject", "project")):
        body = {"type": "object", "properties": {member: {"type": "string"}}, "additionalProperties": False}
        files[f"schemas/{name}.schema.json"] = {k: v for k, v in schema(name, body).items() if k != "title"}
    for name in ("first-config", "second-config"):
        body = {"type": "object", "properties": {name: {"type": "integer"}}, "additionalProperties": False}
        files[f"schemas/{name}.schema.json"] = {**schema(name, body), "title": "Config"}
    models = imported_package(files, tmp_path, "shared_root_names")
    assert len(models.__all__) == len(set(models.__all__))
    assert {"Cargo", "Pyproject", "FirstConfig", "SecondConfig"} <= set(models.__all__)
    assert "Model" not in models.__all__ and "Config" not in models.__all__
    assert takes(models.Cargo, {"edition": "2021"}) and not takes(models.Cargo, {"project": "x"})
    assert takes(models.Pyproject, {"project": "x"}) and not takes(models.Pyproject, {"edition": "2021"})
    assert takes(models.FirstConfig, {"first-config": 1}) and not takes(models.FirstConfig, {"second-config": 1})
    assert takes(models.SecondConfig, {"second-config": 1}) and not takes(models.SecondConfig, {"first-config": 1})
    assert "RunStartedEvent" in models.__all__  # the repository-shaped rest is exported as before


QUANTITY = {"type": "object", "properties": {"amount": {"type": "string"}}}


@pytest.mark.parametrize(
    "definitions",
    [
        {"io.k8s.Quantity": QUANTITY},
        # a definition of the dotted one's module refers back to the root's: the library merges the two
        # modules into `_internal.py`, which the package's `__init__` imports from
        {
            "io.k8s.Quantity": {**QUANTITY, "properties": {**QUANTITY["properties"], "unit": {"$ref": "#/$defs/Unit"}}},
            "Unit": {"type": "object", "properties": {"name": {"type": "string"}}},
        },
    ],
    ids=["package", "internal-module"],
)
def test_the_root_of_a_schema_written_as_a_package_is_exported(tmp_path: Path, definitions: dict[str, Any]) -> None:
    """Definitions with dots in their names (`io.k8s.Quantity`, as Kubernetes names them) make the library
    write the schema as a package, its root class in the package's `__init__` or in its `_internal`
    module: the root is exported, with no warning that the library wrote nothing."""
    files = good_files()
    body = {
        "type": "object",
        "properties": {"size": {"$ref": "#/$defs/io.k8s.Quantity"}},
        "additionalProperties": False,
        "$defs": definitions,
    }
    files["schemas/claim.schema.json"] = schema("claim", body)
    warnings: list[Diagnostic] = []
    models = imported_package(files, tmp_path, "dotted_" + tmp_path.name.replace("-", "_"), warnings=warnings)
    assert hits(warnings, "models-untyped") == []
    assert "Claim" in models.__all__
    assert takes(models.Claim, {"size": {"amount": "1Gi"}})
    assert not takes(models.Claim, {"size": {"amount": 1}}) and not takes(models.Claim, {"other": 1})

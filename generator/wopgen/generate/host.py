"""`wopgen host generate`: render the in-memory host package from the corpus.

`generate(corpus) -> {relative path: text}` is pure. The package is plain Python from
templates/host/ with the corpus injected: the event types, the error codes and their statuses,
the routes of the API description, every schema bundled by `$id`, the capability document of each
profile and the sample eval suite. Problems that make a host impossible (no operations, an
operation without a handler, a profile or suite its own schema rejects) are diagnostics.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

from wopgen import __version__
from wopgen.corpus import Corpus
from wopgen.corpus.api import read_api
from wopgen.corpus.events import EVENT_SCHEMA, PAYLOADS_SCHEMA, TYPE_INDEX, type_index
from wopgen.corpus.graph import Located, Position
from wopgen.corpus.validation import ASSERTED_FORMATS
from wopgen.corpus.vocabulary import LOOP_FIXTURE
from wopgen.diagnostics import Diagnostic, define
from wopgen.generate.api import openapi_document
from wopgen.generate.host_profiles import PROFILES, capabilities
from wopgen.templates import environment

PACKAGE = "wop_host"
# Schemas the host templates validate against by name, and what the generator reads from them.
REQUIRED_SCHEMAS = (
    "agent-eval-suite",
    "capabilities",
    "error-envelope",
    "eval-summary",
    "orchestrator-decision",
    EVENT_SCHEMA,
    PAYLOADS_SCHEMA,
)

NO_OPERATIONS = define(
    "host-api-missing",
    "error",
    "The corpus describes no API operations (spec/api/*.yaml), so the host has no routes to serve.",
)
UNHANDLED = define(
    "host-operation-unhandled",
    "error",
    "An operation of the API description has no handler in the host templates (templates/host/app.py).",
)
BAD_PROFILE = define(
    "host-profile-invalid",
    "error",
    "A host profile's discovery document does not validate against capabilities.schema.json.",
)
MISSING_SCHEMA = define(
    "host-schema-missing",
    "error",
    "A schema the host is built from is missing from the corpus (or lacks the annotation the host reads).",
)
BAD_SUITE = define(
    "host-suite-invalid",
    "error",
    "The sample eval suite shipped with the host does not validate against agent-eval-suite.schema.json.",
)


BAD_FIXTURE = define(
    "host-fixture-invalid",
    "error",
    "A fixture workflow of the host's catalogue (templates/host/fixtures/) breaks workflow-definition.schema.json,"
    " or its file name is not its id.",
)
FIXTURES = "fixtures"  # the catalogue folder under templates/host/: one workflow definition per file


class HostGenerationError(Exception):
    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(f"{d.rule}: {d.message}" for d in diagnostics))
        self.diagnostics = diagnostics


def describes_operations(corpus: Corpus) -> bool:
    """Whether the corpus has an API description at all (a corpus without one has no host to build)."""
    return bool(read_api(corpus).operations)


def operations(corpus: Corpus) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    """The routable operations of the API description (read by `apispec.read_api`), and its shape problems.

    The shape problems are the `api-shape` findings of the operations file: a host built while
    one of them stands would miss a route or route it wrongly.
    """
    api = read_api(corpus)
    problems = [d for d in api.diagnostics if d.path == api.operations_path]
    found = [
        {
            "method": op.method.upper(),
            "path": op.path,
            "operationId": op.operation_id,
            "public": op.auth == "public",
            "requestSchema": op.request,
            "file": op.where.path,
            "line": op.where.line,
        }
        for op in api.operations
        if op.method and op.path.startswith("/") and op.operation_id
    ]
    if not found and not problems:
        problems.append(
            NO_OPERATIONS.at(corpus.settings.api, 1, "no operations found", "describe the operations in spec/api/")
        )
    return sorted(found, key=lambda o: (o["path"], o["method"])), problems


def _handled(source: str) -> set[str]:
    return set(re.findall(r'"((?:GET|POST|PUT|PATCH|DELETE) /[^"\s]*)"\s*:', source))


def _payload_defs(corpus: Corpus) -> dict[str, str]:
    index = type_index(corpus)
    return {event: payload.def_name for event, payload in index.payloads.items()} if index is not None else {}


def _dump(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def missing_schemas(corpus: Corpus) -> list[Diagnostic]:
    """The schemas the host is built from, and the conformance scenarios check a host against, that the
    corpus lacks (or that lack the annotation they read)."""
    found = []
    for name in REQUIRED_SCHEMAS:
        doc = corpus.schemas_by_name.get(name)
        if doc is None or not isinstance(doc.data, dict):
            found.append(
                MISSING_SCHEMA.at(
                    corpus.settings.schemas,
                    1,
                    f"{name}{corpus.settings.conventions.schema_suffix} is missing or broken",
                )
            )
            continue
        data = doc.data
        if name == "error-envelope" and not isinstance(data.get("x-wop-http-status"), dict):
            found.append(MISSING_SCHEMA.at(doc.path, 1, "error-envelope has no x-wop-http-status annotation"))
        elif name == PAYLOADS_SCHEMA and type_index(corpus) is None:
            found.append(MISSING_SCHEMA.at(doc.path, 1, f"{PAYLOADS_SCHEMA} has no {TYPE_INDEX}"))
    return found


def _reachable_formats(corpus: Corpus, start: Located) -> list[str] | None:
    """Every `format` a validation against the schema at `start` may meet: those named below it and
    below every node its `$ref`s reach, followed through the graph. None when that cannot be known
    (a `$ref` the graph cannot follow, or a `$dynamicRef`)."""
    found: set[str] = set()
    seen: set[Located] = set()
    todo = [start]
    while todo:
        where = todo.pop()
        if where in seen:
            continue
        seen.add(where)
        inside = where.pointer + "/"
        for item in corpus.graph.objects(where.path):
            if item.position is not Position.SCHEMA:
                continue
            if item.pointer != where.pointer and not item.pointer.startswith(inside):
                continue
            if "$dynamicRef" in item.node:
                return None
            if isinstance(item.node.get("format"), str):
                found.add(item.node["format"])
        for site in corpus.graph.sites_below(where):
            if site.target is None:
                return None
            todo.append(site.target)
    return sorted(found)


def _formats(corpus: Corpus) -> dict[str, list[str]]:
    """Validation target -> the formats it may meet, for each schema and each event payload of the
    type index (`<uri>#<pointer>`). The host treats as annotations, in its compiled validators, only the
    formats a target may meet: every one it is told about costs each validation a call back into Python."""
    targets = {corpus.uri_of(path): Located(path, "") for path in sorted(corpus.schemas)}
    index = type_index(corpus)
    if index is not None:
        for payload in index.payloads.values():
            targets[corpus.uri_of(index.doc.path) + "#" + payload.pointer] = Located(index.doc.path, payload.pointer)
    found = {uri: _reachable_formats(corpus, where) for uri, where in targets.items()}
    return {uri: formats for uri, formats in found.items() if formats is not None}


def semantics_files(package: str = PACKAGE) -> dict[str, str]:
    """`wopgen.semantics` copied verbatim into the host package, so the host decides with the same functions."""
    folder = resources.files("wopgen.semantics")
    return {
        f"{package}/semantics/{entry.name}": entry.read_text(encoding="utf-8")
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".py")
    }


def _fixtures(corpus: Corpus, env: Any, sources: list[str]) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The fixture catalogue by workflow id, checked against the corpus's workflow-definition schema."""
    schema = corpus.schemas_by_name.get("workflow-definition")
    validator = corpus.validator(schema.path) if schema is not None else None
    found: dict[str, Any] = {}
    problems: list[Diagnostic] = []
    for name in sources:
        if not (name.startswith(f"{FIXTURES}/") and name.endswith(".json")):
            continue
        where = f"templates/host/{name}"
        try:
            definition = json.loads(env.loader.get_source(env, name)[0])
        except ValueError as exc:
            problems.append(BAD_FIXTURE.at(where, 1, f"not JSON: {exc}"))
            continue
        for error in validator.iter_errors(definition) if validator is not None else ():
            problems.append(BAD_FIXTURE.at(where, 1, error.message))
        workflow_id = definition.get("id") if isinstance(definition, dict) else None
        if workflow_id != name.removeprefix(f"{FIXTURES}/").removesuffix(".json"):
            problems.append(BAD_FIXTURE.at(where, 1, f"the file name does not match the id {workflow_id!r}"))
            continue
        found[workflow_id] = definition
    return found, problems


def generate(corpus: Corpus, package: str = PACKAGE) -> dict[str, str]:
    """The host package as `{path: text}`; raises HostGenerationError when no honest host can be made."""
    missing = missing_schemas(corpus)
    if missing:
        raise HostGenerationError(missing)
    env = environment("host")
    loader = env.loader
    assert loader is not None
    sources = sorted(loader.list_templates())
    app_source = loader.get_source(env, "app.py")[0]
    ops, problems = operations(corpus)
    handled = _handled(app_source)
    for op in ops:
        if f"{op['method']} {op['path']}" not in handled:
            problems.append(
                UNHANDLED.at(
                    op["file"],
                    op["line"],
                    f"{op['method']} {op['path']} ({op['operationId']}) has no handler",
                    "add it to HANDLERS in templates/host/app.py",
                )
            )
    profiles: dict[str, Any] = {}
    validator = corpus.validator(corpus.schemas_by_name["capabilities"].path)
    for spec in PROFILES:
        document = capabilities(spec, __version__)
        for error in validator.iter_errors(document):
            problems.append(
                BAD_PROFILE.at("generator/wopgen/generate/host_profiles.py", 1, f"{spec.name}: {error.message}")
            )
        profiles[spec.name] = {
            "description": spec.description,
            "capabilities": document,
            "defects": list(spec.defects),
            "mutant": spec.mutant,
        }
    suites: dict[str, str] = {}
    suite_validator = corpus.validator(corpus.schemas_by_name["agent-eval-suite"].path)
    for name in sources:
        if name.startswith("suites/"):
            text = loader.get_source(env, name)[0]
            for error in suite_validator.iter_errors(json.loads(text)):
                problems.append(BAD_SUITE.at("templates/host/" + name, 1, error.message))
            suites[name] = text
    fixtures, fixture_problems = _fixtures(corpus, env, sources)
    problems.extend(fixture_problems)
    if problems:
        raise HostGenerationError(problems)

    envelope = corpus.schemas_by_name["error-envelope"].data
    context = {
        "package": package,
        "corpus_name": corpus.settings.id_base,  # not the folder name: output must not depend on the checkout
        "event_types": list(_payload_defs(corpus)),
        "event_count": len(_payload_defs(corpus)),
        "http_status": sorted(envelope["x-wop-http-status"].items()),
        "operations": ops,
        "operation_count": len(ops),
        "profile_names": [spec.name for spec in PROFILES if not spec.mutant],
        "loop_fixture": LOOP_FIXTURE,
    }
    files: dict[str, str] = {}
    for name in sources:
        if name.startswith(("suites/", f"{FIXTURES}/")):
            continue
        target = f"{package}/{name.removesuffix('.j2')}"
        files[target] = (
            env.get_template(name).render(context) if name.endswith(".j2") else loader.get_source(env, name)[0]
        )
    files.update(semantics_files(package))
    files[f"{package}/corpus.json"] = _dump(
        {
            "idBase": corpus.settings.id_base,
            "schemas": {corpus.uri_of(path): doc.data for path, doc in sorted(corpus.schemas.items())},
            "payloadDefs": _payload_defs(corpus),
            "formats": _formats(corpus),
            "assertedFormats": sorted(ASSERTED_FORMATS),
            "profiles": profiles,
            "suites": suites,
            "fixtures": fixtures,
            "openapi": openapi_document(corpus, read_api(corpus)),
        }
    )
    return files

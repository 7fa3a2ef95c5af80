"""The API pages of a corpus that keeps its own OpenAPI 3.1 / AsyncAPI 3 documents: what OpenAPI and
AsyncAPI say a reader of them sees (references followed, path-item parameters merged, response
headers), each schema of the corpus linked to its page, and a Swagger UI copy that needs no other file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from support.api_corpus import AUDIT_ASYNCAPI, api_files
from support.site_builds import built_site
from support.site_pages import api_nav, staged
from wopgen.catalogue import catalogue
from wopgen.checks.standard_api import standard_errors
from wopgen.corpus import load
from wopgen.corpus.graph import ref_strings
from wopgen.generate.bundle import UNBUNDLED, bundling
from wopgen.generate.site import render

Files = dict[str, Any]
OPENAPI = "spec/api/openapi.yaml"
ASYNCAPI = "spec/api/asyncapi.yaml"

OPENAPI_TEXT = """\
openapi: 3.1.0
info: {title: Things, version: "2.0"}
paths:
  /v1/things/{thingId}:
    parameters:
      - {in: path, name: thingId, required: true, schema: {type: string}, description: Which thing.}
      - {in: query, name: view, schema: {type: string}, description: The view the path item offers.}
    get:
      operationId: getThing
      summary: |
        Read one thing,
        as it is stored.
      parameters:
        - {in: query, name: view, schema: {type: integer}, description: The view this operation takes.}
        - $ref: '#/components/parameters/Trace'
      responses:
        '200':
          description: The thing.
          headers:
            ETag: {$ref: '#/components/headers/Version'}
            X-Calls-Left: {schema: {type: integer}, description: Calls left today.}
          content:
            application/json: {schema: {$ref: '../../schemas/thing.schema.json'}}
            text/plain: {schema: {type: string}}
        '404': {$ref: '#/components/responses/NotFound'}
  /v1/names:
    post:
      operationId: postName
      requestBody: {$ref: '#/components/requestBodies/Name'}
      responses:
        '201':
          description: Kept.
          content:
            application/json: {schema: {$ref: '#/components/schemas/Item'}}
components:
  parameters:
    Trace: {$ref: '#/components/parameters/TraceHeader'}
    TraceHeader: {in: header, name: X-Trace, schema: {type: string}, description: A trace id.}
  headers:
    Version: {schema: {type: string}, description: The version read.}
  responses:
    NotFound:
      description: No such thing.
      content:
        application/json: {schema: {$ref: '#/components/schemas/Problem'}}
  requestBodies:
    Name:
      required: true
      content:
        application/json: {schema: {$ref: '../../schemas/thing.schema.json#/$defs/name'}}
        text/plain: {schema: {type: string}}
  schemas:
    Item: {$ref: '#/components/schemas/StoredThing'}
    StoredThing: {$ref: '../../schemas/thing.schema.json'}
    Problem:
      type: object
      properties:
        message: {type: string}
"""

ASYNCAPI_TEXT = """\
asyncapi: 3.0.0
info: {title: Thing events, version: "2.0"}
channels:
  somewhere:
    address: null
    title: Delivered by the host
    messages:
      started: {$ref: '#/components/messages/RunStarted'}
  byRun:
    address: /runs/{runId}/events
    title: Run events
    parameters:
      runId: {$ref: '#/components/parameters/RunId'}
    messages:
      started: {$ref: '#/components/messages/RunStarted'}
      verified: {$ref: '#/components/messages/AgentVerified'}
      noted: {$ref: '#/components/messages/Noted'}
components:
  parameters:
    RunId: {description: The run to follow.}
  messages:
    RunStarted: {name: run.started, title: A run started, payload: {type: object}}
    AgentVerified: {name: agent.verified, summary: A verifier judged the run., payload: {type: object}}
    Noted:
      name: thing.noted
      description: |
        Something was noted.
        The rest of the description.
      payload: {type: object}
"""


def _site(
    make_corpus: Callable[..., Path], openapi: str = OPENAPI_TEXT, asyncapi: str = ASYNCAPI_TEXT
) -> dict[str, Any]:
    def edit(files: Files) -> None:
        files[OPENAPI] = openapi
        files[ASYNCAPI] = asyncapi

    return staged(render(load(make_corpus(edit)), rules=catalogue()))


def _http(make_corpus: Callable[..., Path], openapi: str = OPENAPI_TEXT) -> str:
    return str(_site(make_corpus, openapi=openapi)["docs/api/index.md"])


def _section(page: str, heading: str) -> str:
    """The part of `page` from the heading that starts with `heading` to the next heading."""
    start = page.index(heading)
    end = page.find("\n#", start + 1)
    return page[start : end if end >= 0 else len(page)]


def _events(make_corpus: Callable[..., Path], asyncapi: str = ASYNCAPI_TEXT) -> str:
    return str(_site(make_corpus, asyncapi=asyncapi)["docs/api/events.md"])


# --- the HTTP page ---------------------------------------------------------------------------------


def test_a_parameter_given_by_ref_shows_the_parameter_it_names(make_corpus: Callable[..., Path]) -> None:
    """Item 1: `$ref` parameters are followed, through a component that is itself a reference."""
    page = _section(_http(make_corpus), "### `GET /v1/things/{thingId}`")
    assert "| `X-Trace` | header | — | string | A trace id. |" in page
    assert "| `` |" not in page


def test_path_item_parameters_join_each_operation_and_yield_to_its_own(make_corpus: Callable[..., Path]) -> None:
    """Item 2: parameters of the path item are the operation's too; one of its own with the same
    name and place wins."""
    page = _section(_http(make_corpus), "### `GET /v1/things/{thingId}`")
    assert "| `thingId` | path | yes | string | Which thing. |" in page
    assert "| `view` | query | — | integer | The view this operation takes. |" in page
    assert "The view the path item offers." not in page


def test_a_response_given_by_ref_shows_its_description_and_body(make_corpus: Callable[..., Path]) -> None:
    """Item 3, and the name of an inline component schema (item 6) rather than its JSON pointer."""
    page = _http(make_corpus)
    assert "| 404 | No such thing. | `Problem` (`application/json`) |" in page
    assert "#/components/schemas/Problem" not in page


def test_a_summary_of_several_lines_is_one_line_in_the_table_and_the_heading(
    make_corpus: Callable[..., Path],
) -> None:
    """Item 4."""
    page = _http(make_corpus)
    assert "| `GET` | `/v1/things/{thingId}` | [`getThing`](#op-getthing) | Read one thing, as it is stored. |" in page
    assert "**Read one thing, as it is stored.** · `getThing`" in page
    assert "\nas it is stored" not in page and "stored.\n" not in page and "\n** ·" not in page


def test_a_body_of_several_media_types_is_shown_without_raw_html(make_corpus: Callable[..., Path]) -> None:
    """Item 5: a response cell lists them on one line, a request body as a list."""
    page = _http(make_corpus)
    assert "<br>" not in page
    assert "| 200 | The thing. | [Thing](../schemas/thing.md) (`application/json`); string (`text/plain`) |" in page
    assert (
        "**Request body** (required), one of:\n\n"
        "- [name](../schemas/thing.md#def-name) (`application/json`)\n"
        "- string (`text/plain`)\n"
    ) in page


def test_schemas_of_the_corpus_link_to_their_pages(make_corpus: Callable[..., Path]) -> None:
    """Item 6: a file reference (with or without a `$defs` pointer) and a component that only refers,
    however many times, to such a file link to the schema's page."""
    page = _http(make_corpus)
    assert "(`application/json`); string" in page
    post = _section(page, "### `POST /v1/names`")
    assert "| 201 | Kept. | [Thing](../schemas/thing.md) (`application/json`) |" in post
    assert "[name](../schemas/thing.md#def-name)" in post
    assert "schema.json" not in page and "#/components/schemas/" not in page


def test_response_headers_are_shown(make_corpus: Callable[..., Path]) -> None:
    """Item 7: each header with its type and description, a header given by `$ref` too."""
    page = _section(_http(make_corpus), "### `GET /v1/things/{thingId}`")
    assert "| Status | Response header | Type | Description |" in page
    assert "| 200 | `ETag` | string | The version read. |" in page
    assert "| 200 | `X-Calls-Left` | integer | Calls left today. |" in page


def test_the_page_names_the_corpus_document_it_is_rendered_from(make_corpus: Callable[..., Path]) -> None:
    site = _site(make_corpus)
    assert "Rendered from the corpus's own OpenAPI document `spec/api/openapi.yaml`" in site["docs/api/index.md"]
    assert "generated" not in site["docs/api/index.md"]
    assert "Rendered from the corpus's own AsyncAPI document `spec/api/asyncapi.yaml`" in site["docs/api/events.md"]


def test_the_built_pages_link_the_schemas_and_list_media_types_as_text(
    make_corpus: Callable[..., Path], tmp_path: Path
) -> None:
    """Items 5 and 6 in the HTML `mkdocs build --strict` writes (every link and anchor checked)."""

    def edit(files: Files) -> None:
        files[OPENAPI] = OPENAPI_TEXT
        files[ASYNCAPI] = ASYNCAPI_TEXT

    site = built_site(make_corpus(edit), tmp_path / "site", None)
    page = site["api/index.html"].decode("utf-8")
    assert '<a href="../schemas/thing/">Thing</a> (<code>application/<wbr>json</code>); string' in page
    assert '<a href="../schemas/thing/#def-name">name</a>' in page
    assert "&lt;br&gt;" not in page and "<br>" not in page
    assert "<strong>Read one thing, as it is stored.</strong>" in page


# --- the Swagger UI copy ---------------------------------------------------------------------------


def _leads_somewhere(document: Any, ref: str) -> bool:
    node = document
    for token in ref.removeprefix("#/").split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or token not in node:
            return False
        node = node[token]
    return True


def test_the_swagger_ui_copy_bundles_the_schemas_it_names(make_corpus: Callable[..., Path]) -> None:
    """Item 8: the site serves no `../../schemas/thing.schema.json` beside the page; the copy Swagger
    UI loads has every `$ref` inside itself, and each leads somewhere."""
    tree = render(load(make_corpus(lambda files: files.update({OPENAPI: OPENAPI_TEXT}))), rules=catalogue())
    spec = json.loads(str(tree["docs/api/openapi.try.json"]))
    refs = [ref for _where, ref in ref_strings(spec)]
    assert refs and all(ref.startswith("#/") for ref in refs), [r for r in refs if not r.startswith("#/")]
    assert all(_leads_somewhere(spec, ref) for ref in refs), [r for r in refs if not _leads_somewhere(spec, r)]
    schemas = spec["components"]["schemas"]
    assert schemas["StoredThing"] == {"$ref": "#/components/schemas/Thing"}
    assert schemas["Thing"]["properties"]["decision"] == {"$ref": "#/components/schemas/Decision"}
    assert "#/components/schemas/Thing_name" in refs  # a `$defs` entry is a component of its own
    assert "$id" not in schemas["Thing"]


@pytest.mark.parametrize("name", ["openapi.yml", "service.yaml"])
def test_the_try_page_loads_a_document_of_any_name(make_corpus: Callable[..., Path], name: str) -> None:
    """A corpus's own OpenAPI document is published under its own name; the Swagger UI page still
    loads its bundled copy and links the file as published."""
    renamed = OPENAPI.rsplit("/", 1)[0] + "/" + name
    tree = render(load(make_corpus(lambda files: files.update({renamed: OPENAPI_TEXT}))), rules=catalogue())
    assert f"docs/api/{name}" in tree
    assert "docs/api/openapi.try.json" in tree
    page = str(tree["docs/api/try.md"])
    assert "not available" not in page and f"[`{name}`]({name})" in page


def test_the_copy_takes_the_place_of_a_component_that_only_names_the_schema(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus(lambda files: files.update({OPENAPI: OPENAPI_TEXT.replace("StoredThing", "Thing")}))
    corpus = load(root)
    bundled = bundling(corpus, OPENAPI, corpus.api[OPENAPI].data).document
    schemas = bundled["components"]["schemas"]
    assert schemas["Item"] == {"$ref": "#/components/schemas/Thing"}
    assert schemas["Thing"]["type"] == "object"  # the schema itself, not a reference to itself


def test_the_copy_keeps_its_own_components_apart_from_the_schemas(make_corpus: Callable[..., Path]) -> None:
    text = OPENAPI_TEXT.replace("    Problem:\n", "    Decision:\n").replace("schemas/Problem'", "schemas/Decision'")
    corpus = load(make_corpus(lambda files: files.update({OPENAPI: text})))
    schemas = bundling(corpus, OPENAPI, corpus.api[OPENAPI].data).document["components"]["schemas"]
    assert schemas["Decision"]["properties"] == {"message": {"type": "string"}}  # the document's own
    assert schemas["corpus.Decision"]["enum"] == ["go", "stop"]  # the corpus schema, under its own name
    assert schemas["corpus.Thing"]["properties"]["decision"] == {"$ref": "#/components/schemas/corpus.Decision"}


def test_the_copy_sends_nobody_to_fetch_a_file_the_corpus_lacks(make_corpus: Callable[..., Path]) -> None:
    text = OPENAPI_TEXT.replace(
        "text/plain: {schema: {type: string}}\n        '404'",
        "text/plain: {schema: {$ref: '../../schemas/gone.schema.json'}}\n        '404'",
    )
    corpus = load(make_corpus(lambda files: files.update({OPENAPI: text})))
    bundled = bundling(corpus, OPENAPI, corpus.api[OPENAPI].data).document
    plain = bundled["paths"]["/v1/things/{thingId}"]["get"]["responses"]["200"]["content"]["text/plain"]["schema"]
    assert plain == {UNBUNDLED: "../../schemas/gone.schema.json"}


# --- the documents published beside the pages ------------------------------------------------------


def _refs_inside(document: Any) -> tuple[list[str], list[str]]:
    """The `$ref`s of `document`, and those of them that do not lead somewhere inside it."""
    refs = [ref for _where, ref in ref_strings(document)]
    return refs, [ref for ref in refs if not (ref.startswith("#") and _leads_somewhere(document, ref))]


def test_a_document_with_refs_into_the_schemas_is_published_bundled(make_corpus: Callable[..., Path]) -> None:
    """The copy beside the page is the bundled one: it parses, every `$ref` in it leads somewhere
    inside it, the OpenAPI validator reads it without another file, and the page says what was done."""
    tree = _site(make_corpus)
    published = yaml.safe_load(tree["docs/api/openapi.yaml"])
    refs, nowhere = _refs_inside(published)
    assert refs and not nowhere, nowhere
    assert "../../schemas/thing.schema.json" not in tree["docs/api/openapi.yaml"]
    assert set(published["components"]["schemas"]) >= {"Thing", "Decision", "StoredThing", "Problem"}
    assert standard_errors("openapi", "3.1.0", published) == []
    page = tree["docs/api/index.md"]
    assert "Published next to this page as [`openapi.yaml`](openapi.yaml), a copy of the document." in page
    assert "copy carries 2 corpus schemas (those it names and those they use)" in page
    assert "unresolved" not in page


def test_a_document_without_refs_out_of_it_is_published_as_written(make_corpus: Callable[..., Path]) -> None:
    tree = _site(make_corpus)
    assert tree["docs/api/asyncapi.yaml"] == ASYNCAPI_TEXT
    assert (
        "Published next to this page as written, [`asyncapi.yaml`](asyncapi.yaml): it needs no file the site does not publish beside it."
        in (tree["docs/api/events.md"])
    )


def test_a_pointer_to_nothing_in_a_document_as_written_is_named_on_the_page(
    make_corpus: Callable[..., Path],
) -> None:
    """The file stays as written (it names no other file), and the page says which reference in it
    leads nowhere."""
    text = ASYNCAPI_TEXT.replace("'#/components/messages/Noted'", "'#/components/messages/Lost'")
    tree = _site(make_corpus, asyncapi=text)
    assert tree["docs/api/asyncapi.yaml"] == text
    page = tree["docs/api/events.md"]
    assert "as written, [`asyncapi.yaml`](asyncapi.yaml).\n" in page  # it needs no other file, yet one ref is broken
    assert "    - `#/components/messages/Lost`: points at nothing in this document\n" in page


def test_a_json_document_and_an_asyncapi_document_are_bundled_alike(make_corpus: Callable[..., Path]) -> None:
    """A JSON document is published as JSON; an AsyncAPI payload that names a schema file is bundled."""
    asyncapi = ASYNCAPI_TEXT.replace(
        "RunStarted: {name: run.started, title: A run started, payload: {type: object}}",
        "RunStarted: {name: run.started, title: A run started, payload: {$ref: '../../schemas/thing.schema.json'}}",
    )

    def edit(files: Files) -> None:
        files["spec/api/openapi.json"] = json.dumps(yaml.safe_load(OPENAPI_TEXT), indent=4)
        files[ASYNCAPI] = asyncapi

    tree = staged(render(load(make_corpus(edit)), rules=catalogue()))
    for path in ("docs/api/openapi.json", "docs/api/asyncapi.yaml"):
        document = json.loads(tree[path]) if path.endswith(".json") else yaml.safe_load(tree[path])
        refs, nowhere = _refs_inside(document)
        assert refs and not nowhere, (path, nowhere)
        assert "Thing" in document["components"]["schemas"]
    events = yaml.safe_load(tree["docs/api/asyncapi.yaml"])
    assert events["components"]["messages"]["RunStarted"]["payload"] == {"$ref": "#/components/schemas/Thing"}
    assert standard_errors("asyncapi", "3.0.0", events) == []
    assert "a copy of the document" in tree["docs/api/events.md"]


GONE = OPENAPI_TEXT.replace(
    "text/plain: {schema: {type: string}}\n        '404'",
    "text/plain: {schema: {$ref: '../../schemas/gone.schema.json'}}\n        '404'",
)


def test_a_ref_to_a_file_the_corpus_lacks_is_named_on_the_page(make_corpus: Callable[..., Path]) -> None:
    """The copy keeps it as a note, not a `$ref` to fetch, and the page says the file has it unresolved."""
    tree = _site(make_corpus, openapi=GONE)
    published = yaml.safe_load(tree["docs/api/openapi.yaml"])
    answer = published["paths"]["/v1/things/{thingId}"]["get"]["responses"]["200"]["content"]["text/plain"]
    assert answer["schema"] == {UNBUNDLED: "../../schemas/gone.schema.json"}
    assert not _refs_inside(published)[1]
    page = tree["docs/api/index.md"]
    assert '!!! warning "The published file has unresolved references"' in page
    assert "    1 reference of the document leads nowhere in the published file," in page
    assert (
        "    - `../../schemas/gone.schema.json`: leads nowhere (`wopgen check` reports it as `api-ref-unresolved`); "
        "the copy keeps it as `x-wop-unbundled-ref`\n"
    ) in page


def test_a_document_whose_schemas_cannot_be_bundled_is_published_as_written(make_corpus: Callable[..., Path]) -> None:
    """Both names the corpus schemas could take are the document's own: the file is as written, the
    page says why and names the references that do not resolve there, and the Swagger UI page says
    it is not available."""
    text = OPENAPI_TEXT.replace(
        "    Problem:\n", "    Thing: {type: string}\n    corpus.Thing: {type: string}\n    Problem:\n"
    )
    tree = _site(make_corpus, openapi=text)
    assert tree["docs/api/openapi.yaml"] == text
    page = tree["docs/api/index.md"]
    assert "Published next to this page as written, [`openapi.yaml`](openapi.yaml): the corpus schemas it names" in page
    assert "already uses the names the corpus schemas would take" in page
    assert "    2 references of the document lead nowhere in the published file," in page
    assert "    - `../../schemas/thing.schema.json#/$defs/name`: left as written" in page
    assert "not available for this build" in tree["docs/api/try.md"]


def test_the_site_builds_with_an_unresolved_ref_in_a_published_file(
    make_corpus: Callable[..., Path], tmp_path: Path
) -> None:
    """`mkdocs build --strict` takes the warning, and publishes the copy with the note in it."""
    site = built_site(make_corpus(lambda files: files.update({OPENAPI: GONE})), tmp_path / "site", None)
    page = site["api/index.html"].decode("utf-8")
    assert "The published file has unresolved references" in page
    assert b"x-wop-unbundled-ref: ../../schemas/gone.schema.json" in site["api/openapi.yaml"]


# --- several documents of a kind -------------------------------------------------------------------

ADMIN = "spec/api/admin.openapi.yaml"
ADMIN_TEXT = """\
openapi: 3.1.0
info: {title: Things admin, version: "2.0"}
paths:
  /admin/things:
    delete:
      operationId: purgeThings
      summary: Forget every thing.
      responses:
        '200':
          description: What was forgotten.
          content:
            application/json: {schema: {$ref: '../../schemas/thing.schema.json'}}
"""
AUDIT = "spec/api/audit.asyncapi.yaml"


def _several(make_corpus: Callable[..., Path], **more: str) -> dict[str, Any]:
    """The staging tree of a corpus with two OpenAPI and two AsyncAPI documents (and `more` files)."""

    def edit(files: Files) -> None:
        files.update({OPENAPI: OPENAPI_TEXT, ADMIN: ADMIN_TEXT, ASYNCAPI: ASYNCAPI_TEXT, AUDIT: AUDIT_ASYNCAPI})
        files.update({path.replace("__", "/").replace("_", "."): text for path, text in more.items()})

    return render(load(make_corpus(edit)), rules=catalogue())


def test_every_document_of_a_kind_gets_its_page_in_the_nav(make_corpus: Callable[..., Path]) -> None:
    """The first of each kind keeps its page; the others get pages named after their files, in the nav."""
    tree = staged(_several(make_corpus))
    assert "Rendered from the corpus's own OpenAPI document `spec/api/openapi.yaml`" in tree["docs/api/index.md"]
    admin = tree["docs/api/admin.openapi.md"]
    assert admin.startswith("# HTTP API: admin.openapi.yaml\n")
    assert "Rendered from the corpus's own OpenAPI document `spec/api/admin.openapi.yaml`" in admin
    assert "| `DELETE` | `/admin/things` | [`purgeThings`](#op-purgethings) | Forget every thing. |" in admin
    assert "purgeThings" not in tree["docs/api/index.md"]
    audit = tree["docs/api/audit.asyncapi.md"]
    assert audit.startswith("# Event channel: audit.asyncapi.yaml\n") and "## Audit trail" in audit
    assert "Audit trail" not in tree["docs/api/events.md"]
    assert {"docs/api/openapi.yaml", "docs/api/admin.openapi.yaml", "docs/api/audit.asyncapi.yaml"} <= set(tree)
    assert api_nav(tree) == [
        "api/index.md",
        {"Event channel": "api/events.md"},
        {"HTTP API: admin.openapi.yaml": "api/admin.openapi.md"},
        {"Event channel: audit.asyncapi.yaml": "api/audit.asyncapi.md"},
        {"Try it": "api/try.md"},
        {"Try it: admin.openapi.yaml": "api/admin.openapi.try.md"},
    ]


def test_each_openapi_document_gets_its_swagger_ui_page(make_corpus: Callable[..., Path]) -> None:
    """One page per document, each loading its own bundled copy and linking its own HTTP page."""
    tree = _several(make_corpus)
    first = json.loads(str(tree["docs/api/openapi.try.json"]))
    admin = json.loads(str(tree["docs/api/admin.openapi.try.json"]))
    assert "/v1/names" in first["paths"] and list(admin["paths"]) == ["/admin/things"]
    assert "Thing" in admin["components"]["schemas"]
    page = str(tree["docs/api/admin.openapi.try.md"])
    assert page.count("# Try the HTTP API: admin.openapi.yaml\n") == 1
    assert 'url: "../admin.openapi.try.json"' in page and "[HTTP API](admin.openapi.md)" in page
    assert "[`admin.openapi.yaml`](admin.openapi.yaml)" in page
    assert 'url: "../openapi.try.json"' in str(tree["docs/api/try.md"])


def test_the_document_named_after_its_format_comes_first(make_corpus: Callable[..., Path]) -> None:
    """`admin.openapi.yaml` sorts before `openapi.yaml`, but the HTTP page is the one named openapi."""
    tree = staged(_several(make_corpus))
    assert "`spec/api/openapi.yaml`" in tree["docs/api/index.md"]
    assert "`spec/api/admin.openapi.yaml`" in tree["docs/api/admin.openapi.md"]


def test_a_further_document_takes_no_name_already_taken(make_corpus: Callable[..., Path]) -> None:
    """Files named like the pages every site has (index, events, try) get pages of their own."""
    tree = _several(
        make_corpus,
        spec__api__index_yaml=ADMIN_TEXT.replace("Things admin", "Indexed"),
        spec__api__try_json=json.dumps(yaml.safe_load(ADMIN_TEXT.replace("Things admin", "Tried"))),
        spec__api__events_yml=AUDIT_ASYNCAPI.replace("Audit events", "Eventful"),
    )
    nav = api_nav(tree)
    assert {"HTTP API: index.yaml": "api/index-2.md"} in nav
    assert {"HTTP API: try.json": "api/try-2.md"} in nav
    assert {"Event channel: events.yml": "api/events-2.md"} in nav
    assert {"Try it: index.yaml": "api/index-2.try.md"} in nav and {"Try it: try.json": "api/try-2.try.md"} in nav
    assert "`spec/api/openapi.yaml`" in str(tree["docs/api/index.md"])
    assert "Tried" in str(tree["docs/api/try-2.md"]) and "Swagger UI" in str(tree["docs/api/try.md"])
    assert json.loads(str(tree["docs/api/try.json"]))["info"]["title"] == "Tried"  # the file keeps its name
    assert "Eventful" in str(tree["docs/api/events-2.md"]) and "Eventful" not in str(tree["docs/api/events.md"])


def test_a_ref_into_another_api_document_names_it_beside_the_copy(make_corpus: Callable[..., Path]) -> None:
    """The page follows it; the copy keeps it, naming the other document by the file name the site
    publishes it under beside the copy, so it resolves there and the page warns of nothing."""
    admin = ADMIN_TEXT + "        default: {$ref: './openapi.yaml#/components/responses/NotFound'}\n"
    tree = staged(_several(make_corpus, spec__api__admin_openapi_yaml=admin))
    page = tree["docs/api/admin.openapi.md"]
    assert "| default | No such thing. |" in page  # followed into openapi.yaml
    assert "Its 1 reference into the other API documents names\nit by file name" in page
    assert "unresolved references" not in page and UNBUNDLED not in tree["docs/api/admin.openapi.yaml"]
    published = yaml.safe_load(tree["docs/api/admin.openapi.yaml"])
    default = published["paths"]["/admin/things"]["delete"]["responses"]["default"]
    assert default == {"$ref": "openapi.yaml#/components/responses/NotFound"}
    assert "components" not in published or published["components"]  # nothing empty added


def test_a_document_naming_its_sibling_by_file_name_is_published_as_written(make_corpus: Callable[..., Path]) -> None:
    admin = ADMIN_TEXT.replace("$ref: '../../schemas/thing.schema.json'", "type: object")
    admin += "        default: {$ref: 'openapi.yaml#/components/responses/NotFound'}\n"
    tree = staged(_several(make_corpus, spec__api__admin_openapi_yaml=admin))
    assert tree["docs/api/admin.openapi.yaml"] == admin
    assert (
        "as written, [`admin.openapi.yaml`](admin.openapi.yaml): it needs no file" in tree["docs/api/admin.openapi.md"]
    )


def test_the_built_site_has_every_document_s_pages(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    """`mkdocs build --strict` takes the further pages, their links and the nav."""

    def edit(files: Files) -> None:
        files.update({OPENAPI: OPENAPI_TEXT, ADMIN: ADMIN_TEXT, ASYNCAPI: ASYNCAPI_TEXT, AUDIT: AUDIT_ASYNCAPI})

    site = built_site(make_corpus(edit), tmp_path / "site", None)
    admin = site["api/admin.openapi/index.html"].decode("utf-8")
    assert '<a href="../../schemas/thing/">Thing</a>' in admin
    assert "Audit trail" in site["api/audit.asyncapi/index.html"].decode("utf-8")
    assert 'href="admin.openapi.try/"' in site["api/index.html"].decode("utf-8")  # in the nav
    assert "api/admin.openapi.try.json" in site
    refs, nowhere = _refs_inside(yaml.safe_load(site["api/admin.openapi.yaml"]))
    assert refs == [
        "#/components/schemas/Thing",
        "#/components/schemas/Thing_name",
        "#/components/schemas/Decision",
    ]
    assert not nowhere


# --- the event-channel page ------------------------------------------------------------------------


def test_a_channel_without_an_address_says_so(make_corpus: Callable[..., Path]) -> None:
    """Item 9: `address: null` is a channel with no fixed address, not one at `None`."""
    channel = _section(_events(make_corpus), "## Delivered by the host")
    assert "None" not in channel
    assert "**Address:** none fixed" in channel


def test_a_channel_parameter_given_by_ref_has_its_description(make_corpus: Callable[..., Path]) -> None:
    """Item 10."""
    assert "| `runId` | The run to follow. |" in _events(make_corpus)


def test_messages_without_an_rfc_annotation_claim_no_baseline(make_corpus: Callable[..., Path]) -> None:
    """Item 11: no message carries `x-wop-rfc` (nor `x-wop-content-free`): their columns are left
    out and the page says why, rather than calling every message baseline."""
    page = _events(make_corpus)
    assert "baseline" not in page and "Introduced by" not in page and "Content-free" not in page
    assert "| Message | Summary |\n|---|---|\n" in page
    assert "No message of this document carries `x-wop-rfc` or `x-wop-content-free`" in page


def test_an_rfc_annotation_on_some_message_brings_the_column_back(make_corpus: Callable[..., Path]) -> None:
    text = ASYNCAPI_TEXT.replace(
        "summary: A verifier judged the run.,", "summary: A verifier judged the run., x-wop-rfc: '0001',"
    )
    page = _events(make_corpus, text)
    assert "| Message | Summary | Introduced by |" in page
    assert "| [`agent.verified`](../events.md#event-agent-verified) | A verifier judged the run. | [RFC 0001](" in page
    assert "| [`run.started`](../events.md#event-run-started) | A run started | baseline |" in page
    assert "carries `x-wop-content-free`, so the tables leave out what it would tell" in page


def test_a_message_without_a_summary_is_summed_up_by_its_title_or_description(
    make_corpus: Callable[..., Path],
) -> None:
    """Item 12."""
    page = _events(make_corpus)
    assert "| [`run.started`](../events.md#event-run-started) | A run started |" in page
    assert "| `thing.noted` | Something was noted. |" in page
    assert "The rest of the description" not in page


# --- links from the prose to the API files ---------------------------------------------------------

LINKS = (
    "Read [the HTTP API](../api/openapi.yaml), [the admin API](../api/admin.openapi.yaml#/paths), "
    "[the events](../api/asyncapi.yaml) and [the folder](../api/).\n"
)


def test_a_link_to_an_api_document_leads_to_the_page_that_shows_it(make_corpus: Callable[..., Path]) -> None:
    """The site shows every API document on a page of its own, so a link to one is kept and leads
    there (the folder leads to the HTTP page), instead of losing its link as a file the site does not
    publish would."""

    def edit(files: Files) -> None:
        files.update({OPENAPI: OPENAPI_TEXT, ADMIN: ADMIN_TEXT, ASYNCAPI: ASYNCAPI_TEXT})
        files["spec/v1/overview.md"] += LINKS

    page = str(staged(render(load(make_corpus(edit)), rules=catalogue()))["docs/spec/v1/overview.md"])
    assert (
        "Read [the HTTP API](../../api/index.md), [the admin API](../../api/admin.openapi.md), "
        "[the events](../../api/events.md) and [the folder](../../api/index.md)."
    ) in page


def test_a_link_to_a_declarative_api_file_leads_to_the_page_rendered_from_it(make_corpus: Callable[..., Path]) -> None:
    def edit(files: Files) -> None:
        files.update(api_files())
        files["spec/v1/overview.md"] += (
            "See [operations](../api/operations.yaml) and [channels](../api/channels.yaml).\n"
        )

    page = str(staged(render(load(make_corpus(edit)), rules=catalogue()))["docs/spec/v1/overview.md"])
    assert "See [operations](../../api/index.md) and [channels](../../api/events.md)." in page


def test_the_try_page_of_an_api_of_event_channels_alone_says_there_is_no_http_operation(
    make_corpus: Callable[..., Path],
) -> None:
    """Nothing failed to render: an AsyncAPI document alone describes no operation to try."""
    tree = staged(render(load(make_corpus(lambda files: files.update({ASYNCAPI: ASYNCAPI_TEXT}))), rules=catalogue()))
    tried = str(tree["docs/api/try.md"])
    assert "has no OpenAPI document, only event channels, so there is no HTTP operation to\ntry here." in tried
    assert "could not be rendered" not in tried and "lists every operation" not in tried

"""The API pages of a corpus whose API folder holds both the declarative files (operations.yaml,
channels.yaml) and OpenAPI / AsyncAPI documents of its own: every document `wopgen check` reads has
its pages on the site, the generated ones first, each published under a name no other file of the
site's API folder takes; and each API page links to the file it is rendered from for editing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from support.api_corpus import AUDIT_ASYNCAPI, api_files
from support.corpus_factory import write
from support.helpers import diagnose
from support.site_builds import built_site
from support.site_pages import api_nav, staged
from wopgen.catalogue import catalogue
from wopgen.corpus import load
from wopgen.corpus.graph import ref_strings
from wopgen.generate.site import render

ADMIN_ALONE = """\
openapi: 3.1.0
info: {title: Things admin, version: "2.0"}
paths:
  /admin/things:
    delete:
      operationId: purgeThings
      summary: Forget every thing.
      responses:
        '200': {$ref: '#/components/responses/Forgotten'}
components:
  responses:
    Forgotten:
      description: What was forgotten.
      content:
        application/json: {schema: {$ref: '../../schemas/thing.schema.json'}}
"""
# The same, with a response of openapi.yaml (below) named by its file.
ADMIN = ADMIN_ALONE.replace(
    "components:\n",
    "        default: {$ref: './openapi.yaml#/components/responses/Refused', description: Refused.}\ncomponents:\n",
)
# Named as `wopgen api` names the document it generates from operations.yaml.
HAND_WRITTEN = """\
openapi: 3.1.0
info: {title: Written by hand, version: "2.0"}
paths:
  /hand/things:
    get:
      operationId: listThingsByHand
      summary: List the things.
      responses:
        '200': {$ref: 'admin.openapi.yaml#/components/responses/Forgotten', description: The things.}
components:
  responses:
    Refused: {description: Not now.}
"""


def _corpus(tmp_path: Path, *, site: str = "", **api: str | None) -> Path:
    """The API corpus (operations.yaml, channels.yaml) with `api` written into its API folder (a
    file name with `_` for `.`; None removes the file) and `site` added to [tool.wopgen.site]."""
    files = api_files()
    for name, text in api.items():
        path = "spec/api/" + name.replace("_", ".")
        if text is None:
            del files[path]
        else:
            files[path] = text
    if site:
        files["pyproject.toml"] += "\n[tool.wopgen.site]\n" + site
    return write(tmp_path / "corpus", files)


def _tree(root: Path) -> dict[str, Any]:
    return staged(render(load(root), rules=catalogue()))


def _clean(root: Path) -> None:
    """`wopgen check` reads every document of the API folder and finds nothing wrong with them."""
    assert [d for d in diagnose(root) if d.rule.startswith("api-")] == []


def _leads_somewhere(tree: dict[str, Any], published: str, ref: str) -> bool:
    """Whether `ref`, written in the file `published` of the site's API folder, points at something
    there: in that file (`#/...`) or in another file published beside it (`other.yaml#/...`)."""
    name, _, pointer = ref.partition("#")
    text = tree.get(f"docs/api/{name or published}")
    if text is None:
        return False
    node = yaml.safe_load(str(text))
    for token in pointer.removeprefix("/").split("/") if pointer else ():
        token = token.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or token not in node:
            return False
        node = node[token]
    return True


def _nowhere(tree: dict[str, Any], published: str) -> list[str]:
    """The `$ref`s of the published file that lead nowhere a reader of the site's API folder can follow."""
    refs = [ref for _where, ref in ref_strings(yaml.safe_load(str(tree[f"docs/api/{published}"])))]
    assert refs, published
    return [ref for ref in refs if not _leads_somewhere(tree, published, ref)]


def test_a_mixed_api_folder_shows_its_own_documents_after_the_generated_ones(tmp_path: Path) -> None:
    root = _corpus(tmp_path, admin_openapi_yaml=ADMIN_ALONE, audit_asyncapi_yaml=AUDIT_ASYNCAPI)
    _clean(root)
    tree = _tree(root)
    http, events = str(tree["docs/api/index.md"]), str(tree["docs/api/events.md"])
    assert "Rendered from the generated OpenAPI document ([`openapi.yaml`](openapi.yaml)" in http
    assert "`putThing`" in http and "purgeThings" not in http
    assert "Rendered from the generated AsyncAPI document" in events and "Audit trail" not in events
    admin = str(tree["docs/api/admin.openapi.md"])
    assert admin.startswith("# HTTP API: admin.openapi.yaml\n")
    assert "Rendered from the corpus's own OpenAPI document `spec/api/admin.openapi.yaml`" in admin
    assert "| `DELETE` | `/admin/things` | [`purgeThings`](#op-purgethings) | Forget every thing. |" in admin
    audit = str(tree["docs/api/audit.asyncapi.md"])
    assert audit.startswith("# Event channel: audit.asyncapi.yaml\n") and "## Audit trail" in audit
    assert {"docs/api/openapi.yaml", "docs/api/asyncapi.yaml", "docs/api/admin.openapi.yaml"} <= set(tree)
    assert "Fixture API" in str(tree["docs/api/openapi.yaml"])  # the generated document
    assert tree["docs/api/audit.asyncapi.yaml"] == AUDIT_ASYNCAPI
    assert _nowhere(tree, "admin.openapi.yaml") == []
    assert list(json.loads(str(tree["docs/api/admin.openapi.try.json"]))["paths"]) == ["/admin/things"]
    assert "/v1/things/{thingId}" in json.loads(str(tree["docs/api/openapi.try.json"]))["paths"]
    assert api_nav(tree) == [
        "api/index.md",
        {"Event channel": "api/events.md"},
        {"HTTP API: admin.openapi.yaml": "api/admin.openapi.md"},
        {"Event channel: audit.asyncapi.yaml": "api/audit.asyncapi.md"},
        {"Try it": "api/try.md"},
        {"Try it: admin.openapi.yaml": "api/admin.openapi.try.md"},
    ]


def test_a_document_named_like_a_generated_one_is_published_under_a_name_of_its_own(tmp_path: Path) -> None:
    """A hand-written openapi.yaml beside operations.yaml: the generated document keeps the name and
    the pages the site always gave it; the hand-written one is published as `openapi-2.yaml` with
    pages named so, its page says why, and the references between the published files still resolve."""
    root = _corpus(tmp_path, openapi_yaml=HAND_WRITTEN, admin_openapi_yaml=ADMIN)
    _clean(root)
    tree = _tree(root)
    assert "Fixture API" in str(tree["docs/api/openapi.yaml"])
    assert tree["docs/api/openapi-2.yaml"] == HAND_WRITTEN  # it names admin.openapi.yaml as published
    page = str(tree["docs/api/openapi-2.md"])
    assert page.startswith("# HTTP API: openapi.yaml\n")
    assert "Published next to this page as written, [`openapi-2.yaml`](openapi-2.yaml)" in page
    assert (
        "It is published as `openapi-2.yaml`, not under its own name `openapi.yaml`, which the site\n"
        "gives to the document generated from `spec/api/operations.yaml`." in page
    )
    assert "`listThingsByHand`" in page and "listThingsByHand" not in str(tree["docs/api/index.md"])
    admin = yaml.safe_load(str(tree["docs/api/admin.openapi.yaml"]))
    refused = admin["paths"]["/admin/things"]["delete"]["responses"]["default"]
    assert refused["$ref"] == "openapi-2.yaml#/components/responses/Refused"
    assert _nowhere(tree, "admin.openapi.yaml") == [] and _nowhere(tree, "openapi-2.yaml") == []
    assert "It is published as" not in str(tree["docs/api/admin.openapi.md"])
    try_page = str(tree["docs/api/openapi-2.try.md"])
    assert 'url: "../openapi-2.try.json"' in try_page and "[`openapi-2.yaml`](openapi-2.yaml)" in try_page
    assert list(json.loads(str(tree["docs/api/openapi-2.try.json"]))["paths"]) == ["/hand/things"]
    assert {"HTTP API: openapi.yaml": "api/openapi-2.md"} in api_nav(tree)
    assert {"Try it: openapi.yaml": "api/openapi-2.try.md"} in api_nav(tree)


def test_a_kind_the_declarative_files_leave_out_is_led_by_the_corpus_s_own_document(tmp_path: Path) -> None:
    """channels.yaml without operations.yaml: the hand-written openapi.yaml takes the HTTP page and
    the Swagger UI page and keeps its name, since nothing is generated for HTTP."""
    root = _corpus(tmp_path, operations_yaml=None, openapi_yaml=HAND_WRITTEN.split("components:")[0])
    tree = _tree(root)
    http = str(tree["docs/api/index.md"])
    assert http.startswith("# HTTP API\n") and "corpus's own OpenAPI document `spec/api/openapi.yaml`" in http
    assert "It is published as" not in http
    assert "Written by hand" in str(tree["docs/api/openapi.yaml"])
    assert "Rendered from the generated AsyncAPI document" in str(tree["docs/api/events.md"])
    assert 'url: "../openapi.try.json"' in str(tree["docs/api/try.md"])
    assert api_nav(tree) == ["api/index.md", {"Event channel": "api/events.md"}, {"Try it": "api/try.md"}]


def test_a_kind_with_no_document_says_so_instead_of_linking_one(tmp_path: Path) -> None:
    """channels.yaml alone: nothing is generated for HTTP, so the HTTP page links to no openapi.yaml
    (which `mkdocs build --strict` would refuse) but says there is none, and the site builds."""
    root = _corpus(tmp_path, operations_yaml=None)
    tree = _tree(root)
    http = str(tree["docs/api/index.md"])
    assert http.startswith("# HTTP API\n") and "the API folder has no document of this kind" in http
    assert "openapi.yaml" not in http and "docs/api/openapi.yaml" not in tree
    assert "not available for this build" in str(tree["docs/api/try.md"])
    site = built_site(root, tmp_path / "site", None)
    assert "no document of this kind" in site["api/index.html"].decode("utf-8")
    assert "Run events" in site["api/events/index.html"].decode("utf-8")


def test_a_document_named_like_the_swagger_ui_copy_keeps_both_files(tmp_path: Path) -> None:
    """Without declarative files too: the copy Swagger UI loads is `openapi.try.json`, so a document
    of that name is published under another."""
    root = _corpus(
        tmp_path,
        operations_yaml=None,
        channels_yaml=None,
        openapi_yaml=ADMIN_ALONE.replace("Things admin", "Named openapi").replace("purgeThings", "purgeAll"),
        openapi_try_json=json.dumps(yaml.safe_load(ADMIN_ALONE)),
    )
    _clean(root)
    tree = _tree(root)
    assert json.loads(str(tree["docs/api/openapi.try-2.json"]))["info"]["title"] == "Things admin"
    assert json.loads(str(tree["docs/api/openapi.try.json"]))["info"]["title"] == "Named openapi"
    page = str(tree["docs/api/openapi.try-2.md"])
    assert "not under its own name `openapi.try.json`, which the site\ngives to the copy" in page


def _edit_link(site: dict[str, bytes], page: str) -> str | None:
    html = site[page].decode("utf-8")
    marker = '" title="Edit this page"'
    if marker not in html:
        return None
    return html.split(marker, 1)[0].rsplit('<a href="', 1)[1]


def test_each_api_page_links_to_the_file_it_is_rendered_from(tmp_path: Path) -> None:
    """With a repository named, each API page's edit link opens its source: operations.yaml for the
    generated HTTP and Swagger UI pages, channels.yaml for the event channel, the document itself for
    a page of the corpus's own document. Without one, no page has an edit link."""
    site = 'repo-url = "https://example.org/wop"\n'
    named = _corpus(tmp_path, site=site, admin_openapi_yaml=ADMIN, openapi_yaml=HAND_WRITTEN)
    sources = json.loads(str(render(load(named), rules=catalogue())["sources.json"]))
    assert {page: path for page, path in sources.items() if page.startswith("api/")} == {
        "api/index.md": "spec/api/operations.yaml",
        "api/try.md": "spec/api/operations.yaml",
        "api/events.md": "spec/api/channels.yaml",
        "api/openapi-2.md": "spec/api/openapi.yaml",
        "api/openapi-2.try.md": "spec/api/openapi.yaml",
        "api/admin.openapi.md": "spec/api/admin.openapi.yaml",
        "api/admin.openapi.try.md": "spec/api/admin.openapi.yaml",
    }
    built = built_site(named, tmp_path / "site", None)
    edit = "https://example.org/wop/blob/HEAD/"
    assert _edit_link(built, "api/index.html") == edit + "spec/api/operations.yaml"
    assert _edit_link(built, "api/events/index.html") == edit + "spec/api/channels.yaml"
    assert _edit_link(built, "api/try/index.html") == edit + "spec/api/operations.yaml"
    assert _edit_link(built, "api/openapi-2/index.html") == edit + "spec/api/openapi.yaml"
    assert _edit_link(built, "api/admin.openapi/index.html") == edit + "spec/api/admin.openapi.yaml"
    assert _edit_link(built, "schemas/thing/index.html") == edit + "schemas/thing.schema.json"
    assert _edit_link(built, "rules/index.html") is None  # made from many files: none to edit
    plain = built_site(_corpus(tmp_path / "plain", admin_openapi_yaml=ADMIN_ALONE), tmp_path / "plain-site", None)
    assert [page for page in plain if page.endswith(".html") and _edit_link(plain, page)] == []


def test_a_link_into_a_mixed_api_folder_leads_to_the_page_of_the_file_it_names(tmp_path: Path) -> None:
    """The prose links the corpus's files: `operations.yaml` leads to the generated HTTP page, the
    hand-written `openapi.yaml` (published as `openapi-2.yaml`) to its own page, and so does `admin`."""
    root = _corpus(tmp_path, openapi_yaml=HAND_WRITTEN, admin_openapi_yaml=ADMIN)
    overview = root / "spec/v1/overview.md"
    overview.write_text(
        overview.read_text() + "\nSee [operations](../api/operations.yaml), [the written one](../api/openapi.yaml) "
        "and [admin](../api/admin.openapi.yaml).\n"
    )
    page = str(_tree(root)["docs/spec/v1/overview.md"])
    assert (
        "See [operations](../../api/index.md), [the written one](../../api/openapi-2.md) "
        "and [admin](../../api/admin.openapi.md)."
    ) in page

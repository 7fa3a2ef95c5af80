"""The interactive API page: Swagger UI over openapi.yaml, entirely offline.

The Swagger UI assets come from the `swagger-ui-bundle-v2` package (Swagger UI is Apache-2.0; its
license ships next to the assets), are copied into the site and loaded from there: no CDN. The
document Swagger UI loads stands on its own (see `api.openapi_data`): a corpus's own openapi.yaml,
whose `$ref`s name schema files the site does not serve at those paths, is published with the
schemas bundled into it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from wopgen.generate.site import api as site_api
from wopgen.generate.site.context import Pages, SiteContext

PAGE = "api/try.md"
SPEC = "api/openapi.try.json"  # what Swagger UI loads
ASSETS = "assets/swagger-ui"
_FILES = ("swagger-ui-bundle.js", "swagger-ui.css")
_DISTRIBUTION = "swagger-ui-bundle-v2"


def _bundle() -> tuple[str, dict[str, bytes]] | None:
    """Swagger UI's version and the files the page needs, or None when the package is missing."""
    try:
        import swagger_ui_bundle  # type: ignore[import-untyped]

        folder = swagger_ui_bundle.swagger_ui_path  # the vendored Swagger UI dist folder
        found: dict[str, bytes] = {name: folder.joinpath(name).read_bytes() for name in _FILES}
        release = version(_DISTRIBUTION)
    except (ImportError, OSError, PackageNotFoundError):
        return None
    licence = _licence()
    if licence:
        found["LICENSE"] = licence
    return release, found


def _licence() -> bytes:
    from importlib.metadata import distribution

    for file in distribution(_DISTRIBUTION).files or ():
        if file.name.upper().startswith("LICENSE"):
            return file.read_text().encode("utf-8")
    return b""


def pages(site: SiteContext, published: Pages) -> Pages:
    """The page (and the assets) when an OpenAPI document is published and the bundle is installed."""
    bundle = _bundle()
    published_as, found = site_api.openapi_data(site)
    document = found if f"api/{published_as}" in published else None
    if bundle is None or document is None:
        reason = "the API description could not be rendered" if document is None else "Swagger UI is not installed"
        return {PAGE: site.render("api-try.md.j2", available=False, reason=reason)}
    release, files = bundle
    out: Pages = {f"{ASSETS}/{name}": data for name, data in files.items()}
    out[SPEC] = _for_swagger_ui(document)
    out[PAGE] = site.render(
        "api-try.md.j2", available=True, release=release, openapi=published_as, spec=SPEC.split("/")[-1], assets=ASSETS
    )
    return out


def _for_swagger_ui(document: Mapping[str, Any]) -> str:
    """The OpenAPI document as JSON, minus `jsonSchemaDialect`: Swagger UI shows a warning over the
    whole page for any dialect but its default, although the schemas are plain 2020-12 either way."""
    shown = {key: value for key, value in document.items() if key != "jsonSchemaDialect"}
    return json.dumps(shown, indent=1, sort_keys=True, ensure_ascii=False) + "\n"

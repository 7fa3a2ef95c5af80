"""The interactive API pages: Swagger UI over openapi.yaml, entirely offline.

The Swagger UI assets come from the `swagger-ui-bundle-v2` package (Swagger UI is Apache-2.0; its
license ships next to the assets), are copied into the site and loaded from there: no CDN. The
document Swagger UI loads stands on its own (see `api.openapi_data`): a corpus's own openapi.yaml,
whose `$ref`s name schema files the site does not serve at those paths, is published with the
schemas bundled into it.

Each OpenAPI document of the API folder gets a page of its own (`api.placed` names them), rather
than one page that switches between them: a page's deep links (`#/tag/operation`) then name one
document's operations, and the page needs no more of Swagger UI than the one bundle it loads.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from wopgen.generate.site import api as site_api
from wopgen.generate.site.context import Pages, SiteContext

PAGE = site_api.TRY
SPEC = site_api.TRY_SPEC  # what Swagger UI loads
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


def nav(site: SiteContext) -> list[object]:
    """The Swagger UI pages in the nav: the first OpenAPI document's, as always, then the others'."""
    further: list[object] = [
        {f"Try it: {place.label}": place.try_page} for place in site_api.placed(site) if place.try_page and place.label
    ]
    return [{"Try it": PAGE}, *further]


def pages(site: SiteContext, published: Pages) -> Pages:
    """The page of each OpenAPI document (and the assets, once) when the document is published and
    the bundle is installed; without them, the page says why. A site whose API folder has no OpenAPI
    document (event channels alone) still has the first page (the nav lists it), saying so; a site
    without an API folder has none (see `Parts`)."""
    bundle = _bundle()
    places = [place for place in site_api.placed(site) if place.try_page] or [
        site_api.Placed("openapi", site_api.HTTP, "", try_page=PAGE, try_spec=SPEC)
    ]
    out: Pages = {}
    for place in places:
        found = site_api.openapi_data(site, place) if place.published else None
        document = found if f"{site_api.FOLDER}/{place.published}" in published else None
        http = posixpath.basename(place.page)
        if bundle is None or document is None:
            reason = "the API description could not be rendered" if document is None else "Swagger UI is not installed"
            out[place.try_page] = site.render(
                "api-try.md.j2",
                available=False,
                described=bool(place.published),  # else an API of event channels alone: no HTTP operation to try
                reason=reason,
                heading=place.label,
                http=http,
            )
            continue
        release, files = bundle
        out.update({f"{ASSETS}/{name}": data for name, data in files.items()})
        out[place.try_spec] = _for_swagger_ui(document)
        out[place.try_page] = site.render(
            "api-try.md.j2",
            available=True,
            release=release,
            openapi=place.published,
            spec=posixpath.basename(place.try_spec),
            assets=ASSETS,
            heading=place.label,
            http=http,
        )
    return out


def _for_swagger_ui(document: Mapping[str, Any]) -> str:
    """The OpenAPI document as JSON, minus `jsonSchemaDialect`: Swagger UI shows a warning over the
    whole page for any dialect but its default, although the schemas are plain 2020-12 either way."""
    shown = {key: value for key, value in document.items() if key != "jsonSchemaDialect"}
    return json.dumps(shown, indent=1, sort_keys=True, ensure_ascii=False) + "\n"

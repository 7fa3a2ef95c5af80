"""Schema reference pages: an index, one page per schema with its field tables and examples, and the
raw schema files published at the path of their `$id`."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from wopgen.generate.site import schemadoc
from wopgen.generate.site.context import Pages, SiteContext
from wopgen.generate.site.paths import SCHEMAS, Target, def_anchor, example_anchor

INDEX = f"{SCHEMAS}/index.md"


@dataclass(frozen=True)
class ExampleView:
    name: str
    anchor: str
    why: str
    block: str  # the mark of its highlighted JSON (see `wopgen.generate.site.blocks`)


def first_sentence(text: str) -> str:
    """The description's first sentence, as the schema index's summary. A sentence ends at `. `, but not after
    an abbreviation (`e.g.`), and one of fewer than four words (a citation such as `RFC 0097 §B.`) runs
    on into the next."""
    text = " ".join(text.split())
    end = text.find(". ")
    while end >= 0 and (_ABBREVIATION.search(text, 0, end + 1) or len(text[: end + 1].split()) < 4):
        end = text.find(". ", end + 2)
    return text if end < 0 else text[: end + 1]


# The text before a `. ` ends with an abbreviation, not a sentence.
_ABBREVIATION = re.compile(r"(?<![\w.])(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp)\.$", re.IGNORECASE)


def _data(site: SiteContext, path: str) -> dict[str, Any]:
    data = site.corpus.schemas[path].data
    return data if isinstance(data, dict) else {}


def linker(site: SiteContext, page: str) -> schemadoc.RefLinker:
    return lambda holder: site.paths.schema_ref(page, holder)


def title(site: SiteContext, path: str) -> str:
    """What a schema is called on the site: its `title`, else its file name."""
    value = _data(site, path).get("title")
    return value if isinstance(value, str) and value.strip() else site.corpus.schema_name(path)


def _direction(site: SiteContext, path: str) -> str:
    value = _data(site, path).get(site.corpus.settings.conventions.direction_key)
    return value if isinstance(value, str) and value.strip() else ""


def index(site: SiteContext) -> str:
    """Every schema, grouped by who produces its instances (the directions in the order the
    conventions list them, then any other value, then the schemas that declare none). This page is
    how a reader reaches a schema page: schema pages are not in the navigation."""
    known = site.corpus.settings.conventions.directions
    groups: dict[str, list[dict[str, str]]] = {}
    for path in sorted(site.corpus.schemas):
        data = _data(site, path)
        groups.setdefault(_direction(site, path), []).append(
            {
                "name": site.corpus.schema_name(path),
                "href": site.paths.href(INDEX, Target(site.paths.schema_page(path))),
                "title": str(data.get("title", "")),
                "summary": schemadoc.cell(first_sentence(str(data.get("description", "")))),
                "raw": site.paths.href(INDEX, Target(site.paths.raw_schema(path))),
            }
        )
    order = sorted(groups, key=lambda d: (d == "", d not in known, known.index(d) if d in known else 0, d))
    return site.render(
        "schema-index.md.j2",
        total=len(site.corpus.schemas),
        key=site.corpus.settings.conventions.direction_key,
        groups=[(direction, groups[direction]) for direction in order],
    )


def _examples(site: SiteContext, name: str, kind: str) -> list[ExampleView]:
    views = []
    for example in site.examples(name, kind):
        stem = PurePosixPath(example.path).stem
        text = json.dumps(example.doc.data, indent=2, ensure_ascii=False)
        block = site.blocks.add(text)
        views.append(ExampleView(stem, example_anchor(kind, stem), " ".join(example.why.split()), block))
    return views


def page(site: SiteContext, path: str) -> str:
    name = site.corpus.schema_name(path)
    page_path = site.paths.schema_page(path)
    data = _data(site, path)
    return site.render(
        "schema.md.j2",
        name=name,
        title=title(site, path),
        uri=site.corpus.uri_of(path),
        raw=site.paths.href(page_path, Target(site.paths.raw_schema(path))),
        index=site.paths.href(page_path, Target(INDEX)),
        sections=schemadoc.sections(data, linker(site, page_path), def_anchor),
        valid=_examples(site, name, "valid"),
        invalid=_examples(site, name, "invalid"),
    )


def pages(site: SiteContext) -> Pages:
    out: Pages = {INDEX: index(site)}
    for path in sorted(site.corpus.schemas):
        out[site.paths.schema_page(path)] = page(site, path)
        out[site.paths.raw_schema(path)] = site.corpus.schemas[path].text
    return out

"""The site's navigation stays the same size however many schemas and RFCs the corpus has: the nav
lists each section's index page, the schema and RFC pages stay out of it, the index links every one
of them and search still finds them."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any

import yaml

from support.corpus_factory import good_files, rfc_text, schema, write
from support.site_pages import staged
from wopgen.catalogue import catalogue
from wopgen.corpus import load
from wopgen.generate.site import render
from wopgen.generate.site.build import build
from wopgen.generate.site.tables import TABLES

REPO = Path(__file__).resolve().parents[3]
RULES = catalogue()
_LINK = re.compile(r"\]\(([^)#\s]+)\)")


def _corpus(root: Path, extra: int) -> Path:
    """The good corpus plus `extra` more schemas and as many more RFCs."""
    files = good_files()
    for n in range(extra):
        name = f"extra-{n:02d}"
        files[f"schemas/{name}.schema.json"] = schema(name, {"type": "object"}, direction="client-sent")
        files[f"spec/rfcs/{n + 2:04d}-more.md"] = rfc_text(f"{n + 2:04d}", affects=f"`schemas/{name}.schema.json`")
    return write(root, files)


def _text(tree: dict[str, str | bytes], path: str) -> str:
    """A staged file as text, each table of a page as the pipe table it stands for."""
    return staged({path: tree[path], TABLES: tree.get(TABLES, "{}")})[path]


def _config(tree: dict[str, str | bytes]) -> dict[str, Any]:
    text = _text(tree, "mkdocs.yml")
    return dict(yaml.safe_load(text.split("INHERIT:", 1)[1].split("\n", 1)[1]))


def _index_targets(tree: dict[str, str | bytes], index: str) -> set[str]:
    """The pages the Markdown links of `index` lead to, as docs-relative paths."""
    folder = posixpath.dirname(index)
    return {posixpath.normpath(posixpath.join(folder, href)) for href in _LINK.findall(_text(tree, f"docs/{index}"))}


def test_the_nav_does_not_grow_with_schemas_or_rfcs(tmp_path: Path) -> None:
    small = render(load(_corpus(tmp_path / "small", 0)), rules=RULES)
    large = render(load(_corpus(tmp_path / "large", 12)), rules=RULES)
    assert sum(1 for p in large if p.startswith("docs/schemas/extra-")) == 12
    assert _config(small)["nav"] == _config(large)["nav"]
    nav = json.dumps(_config(large)["nav"])
    assert "schemas/thing.md" not in nav and "rfcs/0001-things.md" not in nav
    assert "schemas/index.md" in nav and "rfcs/index.md" in nav
    assert _config(large)["not_in_nav"].split() == [
        "/rfcs/**/*.md",
        "!/rfcs/index.md",
        "/schemas/**/*.md",
        "!/schemas/index.md",
    ]


def test_the_schema_index_links_every_schema_page_grouped_by_direction(tmp_path: Path) -> None:
    for root in (REPO, _corpus(tmp_path / "corpus", 3)):
        corpus = load(root)
        tree = render(corpus, rules=RULES)
        pages = {f"schemas/{corpus.schema_name(p)}.md" for p in corpus.schemas}
        assert pages and pages <= _index_targets(tree, "schemas/index.md"), root
        rfcs = {f"rfcs/{Path(p).name}" for p in corpus.rfcs}
        assert rfcs and rfcs <= _index_targets(tree, "rfcs/index.md"), root
    index = _text(tree, "docs/schemas/index.md")
    headings = re.findall(r"^## (.+)$", index, re.M)
    assert headings == ["Client-sent", "Host-emitted", "Artifact"]
    client = index.split("## Client-sent", 1)[1].split("## Host-emitted", 1)[0]
    assert "[thing](thing.md)" in client and "[extra-02](extra-02.md)" in client and "decision" not in client


def test_a_schema_without_a_direction_is_listed_last(tmp_path: Path) -> None:
    files = good_files()
    files["schemas/loose.schema.json"] = {
        k: v for k, v in schema("loose", {"type": "string"}).items() if k != "x-wop-direction"
    }
    index = _text(render(load(write(tmp_path / "corpus", files)), rules=RULES), "docs/schemas/index.md")
    headings = re.findall(r"^## (.+)$", index, re.M)
    assert headings[-1] == "No direction declared"
    assert "[loose](loose.md)" in index.split("## No direction declared", 1)[1]


def test_a_built_schema_page_is_the_same_with_four_times_the_schemas(tmp_path: Path) -> None:
    built = {}
    for label, extra in (("small", 0), ("large", 12)):
        out = tmp_path / f"site-{label}"
        build(load(_corpus(tmp_path / label, extra)), out, rules=RULES)  # mkdocs --strict: an unlisted page would warn
        built[label] = out
    for page in ("schemas/thing/index.html", "rfcs/0001-things/index.html", "spec/v1/overview/index.html"):
        assert (built["small"] / page).read_bytes() == (built["large"] / page).read_bytes(), page
    thing = (built["large"] / "schemas/thing/index.html").read_text(encoding="utf-8")
    assert "extra-00" not in thing  # no link to another schema's page rides along in the nav
    assert "<code>thing.<wbr>schema.<wbr>json</code>" in thing  # identifiers wrap at dots in a real build
    active = re.search(r'md-tabs__item--active">\s*<a[^>]*>\s*([^<\s]+)', thing)
    assert active is not None and active.group(1) == "Schemas"  # the reader still sees where they are
    rfc = (built["large"] / "rfcs/0001-things/index.html").read_text(encoding="utf-8")
    active = re.search(r'md-tabs__item--active">\s*<a[^>]*>\s*([^<\s]+)', rfc)
    assert active is not None and active.group(1) == "RFCs"
    search = json.loads((built["large"] / "search/search_index.json").read_text(encoding="utf-8"))
    found = {d["location"].split("#")[0] for d in search["docs"] if "agent.verified" in d["text"]}
    assert "schemas/run-event-payloads/" in found  # pages out of the nav are still searched
    head = next(d["text"] for d in search["docs"] if d["location"] == "schemas/thing/")
    assert "<code>thing.schema.json</code>" in head  # indexed as written, before the line breaks went in
    assert {d["location"] for d in search["docs"]} >= {f"schemas/extra-{n:02d}/" for n in range(12)}

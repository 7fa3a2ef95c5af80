"""Pieces of HTML a rendering made (highlighted code blocks, tables) are reused by the next build
only when made by the same code from the same source: the same site, only new sources are made."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from support.site_builds import built_site
from wopgen.catalogue import catalogue
from wopgen.corpus import load
from wopgen.generate.site import converted, render
from wopgen.generate.site.converted import PageCache


def test_only_a_new_example_is_highlighted(make_corpus: Callable[..., Path], tmp_path: Path, made: list[str]) -> None:
    root, cache = make_corpus(), tmp_path / "cache"
    built_site(root, tmp_path / "first", cache)
    example = root / "schemas/examples/thing/valid/named.json"
    example.write_text(json.dumps({"name": "renamed", "decision": "go"}) + "\n", encoding="utf-8")
    made.clear()
    changed = built_site(root, tmp_path / "changed", cache)
    assert made == ['block:{\n  "name": "renamed",\n  "decision": "go"\n}']
    assert changed == built_site(root, tmp_path / "plain", None)


def test_only_a_changed_table_is_written_again(
    make_corpus: Callable[..., Path], tmp_path: Path, made: list[str]
) -> None:
    root, cache = make_corpus(), tmp_path / "cache"
    built_site(root, tmp_path / "first", cache)
    thing = root / "schemas/thing.schema.json"
    data = json.loads(thing.read_text(encoding="utf-8"))
    data["properties"]["name"]["description"] = "A name, told differently."
    thing.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    made.clear()
    changed = built_site(root, tmp_path / "changed", cache)
    remade = [m for m in made if m.startswith("table:")]
    assert len(remade) == 1
    assert changed == built_site(root, tmp_path / "plain", None)
    assert b"A name, told differently." in changed["schemas/thing/index.html"]


def test_pieces_of_other_code_or_shape_are_made_again(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    root = make_corpus()
    corpus, rules = load(root), catalogue()
    tree = render(corpus, rules=rules)
    cache = PageCache(tmp_path / "site.json")
    pieces = {**json.loads(tree["blocks.json"]), **json.loads(tree["tables.json"])}
    cache.keep_pieces(pieces)
    cache.save()
    assert PageCache(tmp_path / "site.json").pieces() == pieces
    forged = {key: "<p>forged</p>" for key in pieces}
    forged_tree = render(corpus, rules=rules, known=forged)  # they are used, blocks and tables alike
    assert forged_tree["blocks.json"] != tree["blocks.json"] and forged_tree["tables.json"] != tree["tables.json"]
    data = json.loads((tmp_path / "site.json").read_text(encoding="utf-8"))
    data["pieces"]["code"] = "another toolchain"
    (tmp_path / "site.json").write_text(json.dumps(data), encoding="utf-8")
    assert PageCache(tmp_path / "site.json").pieces() == {}
    data["pieces"] = {"code": converted.code_digest(), "html": {"a": 5, "b": "<p>b</p>"}}
    (tmp_path / "site.json").write_text(json.dumps(data), encoding="utf-8")
    assert PageCache(tmp_path / "site.json").pieces() == {"b": "<p>b</p>"}
    data["pieces"] = {"code": converted.code_digest(), "html": ["not", "a", "table"]}
    (tmp_path / "site.json").write_text(json.dumps(data), encoding="utf-8")
    assert PageCache(tmp_path / "site.json").pieces() == {}

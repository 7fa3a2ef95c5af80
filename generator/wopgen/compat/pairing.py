"""Pairing the branches of two unions, and the members of two lists generally: by what a branch names
(`ref_identity`), by the constants that tell branches apart, then by similarity (`assign`)."""

from __future__ import annotations

from typing import Any

from wopgen.compat import cover
from wopgen.compat.normalize import Loc, Resolver
from wopgen.compat.plan import stem, top_def

SIMILAR_ENOUGH = 0.5  # below this share of common features two branches are different things
MAX_EXACT_ASSIGNMENT = 12


def assign(scores: list[list[float]], threshold: float) -> list[tuple[int, int]]:
    """Pairs (row, column) of greatest total score, each row and column used once, every pair at
    or above `threshold`. Exact over the subsets of the smaller side up to MAX_EXACT_ASSIGNMENT
    members, greedy (best pair first) beyond."""
    rows = len(scores)
    cols = len(scores[0]) if scores else 0
    if rows == 0 or cols == 0:
        return []
    if rows > cols:
        flipped = assign([[scores[r][c] for r in range(rows)] for c in range(cols)], threshold)
        return sorted((r, c) for c, r in flipped)
    if cols > MAX_EXACT_ASSIGNMENT:
        ranked = sorted(
            ((scores[r][c], r, c) for r in range(rows) for c in range(cols)), key=lambda t: (-t[0], t[1], t[2])
        )
        used_r: set[int] = set()
        used_c: set[int] = set()
        found = []
        for score, r, c in ranked:
            if score >= threshold and r not in used_r and c not in used_c:
                used_r.add(r)
                used_c.add(c)
                found.append((r, c))
        return sorted(found)
    # best[mask]: the greatest total over the rows done so far, using the columns in mask
    best: dict[int, tuple[float, tuple[tuple[int, int], ...]]] = {0: (0.0, ())}
    for r in range(rows):
        step: dict[int, tuple[float, tuple[tuple[int, int], ...]]] = {}
        for mask, (total, chosen) in best.items():
            options = [(mask, total, chosen)]  # row r left unpaired
            for c in range(cols):
                if not mask & (1 << c) and scores[r][c] >= threshold:
                    options.append((mask | (1 << c), total + scores[r][c], (*chosen, (r, c))))
            for new_mask, new_total, new_chosen in options:
                current = step.get(new_mask)
                if current is None or new_total > current[0]:
                    step[new_mask] = (new_total, new_chosen)
        best = step
    return sorted(max(best.values(), key=lambda v: v[0])[1])


def share(bkeys: dict[int, frozenset[Any]], hkeys: dict[int, frozenset[Any]], i: int, j: int) -> bool:
    return bool(bkeys[i] & hkeys[j])


def branch_types(resolver: Resolver, loc: Loc) -> frozenset[str] | None:
    node = resolver.unwrap(loc).node
    return cover.types(node) if isinstance(node, dict) else None


def keys_of(found: set[str]) -> set[str]:
    """The keyword paths of a branch's features, without their values."""
    return {feature.split("=", 1)[0] for feature in found}


def disagree(left: dict[str, str], right: dict[str, str]) -> bool:
    """Whether two branches hold different constants under the same name: different things, however alike."""
    return any(right[name] != value for name, value in left.items() if name in right)


def ref_identity(resolver: Resolver, loc: Loc) -> frozenset[str]:
    """What a branch names: the target of its `$ref`, wherever that is spelled from, or the definition
    it is (a shape compared as the one branch of itself, reached through a `$ref` or not)."""
    node = loc.node
    if not isinstance(node, dict) or not isinstance(node.get("$ref"), str):
        if top_def(loc.pointer) is None or loc.pointer.count("/") != 2:
            return frozenset()
        return frozenset({f"{stem(loc.doc.path)}#{loc.pointer}", "name " + ref_label("#" + loc.pointer)})
    target = resolver.target(loc, node["$ref"])
    if target is None:
        return frozenset({"$ref " + node["$ref"]})
    return frozenset({f"{stem(target.doc.path)}#{target.pointer}", "name " + ref_label(node["$ref"])})


def ref_label(ref: str) -> str:
    """The name a `$ref` gives its target: the last pointer token, else the file name. A token that
    is itself a URI (a bundle keys each definition by its `$id`) names the file it ends in, so
    `#/definitions/https:~1~1example.test~11.0~1tag.json` and `https://example.test/2.0/tag.json`
    give the same name."""
    uri, _, fragment = ref.partition("#")
    if fragment.strip("/"):
        token = fragment.rstrip("/").rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
        return stem(token.rsplit("/", 1)[-1]) if "/" in token else token
    return stem(uri.rsplit("/", 1)[-1]) or ref

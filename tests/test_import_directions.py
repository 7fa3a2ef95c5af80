"""Import directions between the packages of `wopgen` (DESIGN.md, "The house"): read from the
source with `ast`, function-level imports included, so a late import cannot hide an edge."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "generator" / "wopgen"

# (importing package, imported package) pairs that must never occur.
FORBIDDEN = {
    ("generate", "checks"),  # generators never validate; the CLI asks the gate first
    ("conformance", "generate"),  # the runner takes a generated tree from its caller
    ("corpus", "checks"),
    ("corpus", "cli"),
    ("corpus", "generate"),
    ("corpus", "compat"),
    ("corpus", "conformance"),
}


def _part(module: str) -> str:
    """The package of a module: `wopgen.corpus.graph` -> `corpus`, `wopgen.report` -> `report`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(source: str, module: str) -> Iterator[str]:
    """Every `wopgen` module that `source` (the text of `module`) imports, anywhere in it."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name.split(".")[0] == "wopgen")
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the importing module's package
                base = module.split(".")[: -node.level]
                yield ".".join([*base, node.module] if node.module else base)
            elif node.module and node.module.split(".")[0] == "wopgen":
                yield node.module
                yield from (f"{node.module}.{alias.name}" for alias in node.names)


def package_edges(sources: dict[str, str]) -> dict[tuple[str, str], list[str]]:
    """(from package, to package) -> the modules that make the edge."""
    edges: dict[tuple[str, str], list[str]] = {}
    for module, source in sources.items():
        for target in imports(source, module):
            edge = (_part(module), _part(target))
            if edge[0] != edge[1] and target.startswith("wopgen."):
                edges.setdefault(edge, []).append(module)
    return edges


def violations(edges: dict[tuple[str, str], list[str]]) -> list[str]:
    found = [f"{a} -> {b} ({', '.join(sorted(set(ms)))})" for (a, b), ms in edges.items() if (a, b) in FORBIDDEN]
    found += [
        f"{a} -> cli ({', '.join(sorted(set(ms)))})" for (a, b), ms in edges.items() if b == "cli" and a != "__main__"
    ]
    return sorted(found)


def cycles(edges: dict[tuple[str, str], list[str]]) -> list[tuple[str, ...]]:
    """Every package that can reach itself, with the route."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    found = []
    for start in sorted(graph):
        stack: list[tuple[str, tuple[str, ...]]] = [(start, (start,))]
        seen: set[str] = set()
        while stack:
            here, route = stack.pop()
            for nxt in sorted(graph.get(here, ())):
                if nxt == start:
                    found.append((*route, start))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*route, nxt)))
    return found


def _sources() -> dict[str, str]:
    return {_module_name(path): path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}


def test_the_packages_import_in_the_allowed_directions_only() -> None:
    edges = package_edges(_sources())
    assert violations(edges) == []
    assert cycles(edges) == []
    assert ("checks", "generate") in edges  # sanity: the reader sees real edges


def test_the_reader_finds_a_late_import_and_a_cycle() -> None:
    sources = {
        "wopgen.generate.thing": "def f():\n    from wopgen.checks import gate\n",
        "wopgen.checks.gate": "from wopgen.generate import thing\n",
        "wopgen.corpus.x": "import wopgen.cli.app\n",
    }
    edges = package_edges(sources)
    assert violations(edges) == [
        "corpus -> cli (wopgen.corpus.x)",
        "corpus -> cli (wopgen.corpus.x)",
        "generate -> checks (wopgen.generate.thing)",
    ]
    assert ("checks", "generate", "checks") in cycles(edges)


def test_only_entry_points_ask_the_catalogue() -> None:
    """The catalogue imports every module that declares rules, so a module below the CLI that
    imported it back would close a cycle; those modules take `define` from `wopgen.diagnostics`."""
    askers = {
        module
        for module, source in _sources().items()
        if any(t == "wopgen.catalogue" or t.startswith("wopgen.catalogue.") for t in imports(source, module))
    }
    assert askers and all(m.startswith("wopgen.cli") for m in askers), sorted(askers)


def test_the_catalogue_lists_every_module_that_declares_rules() -> None:
    from wopgen.catalogue import rule_modules

    declaring = set()
    for module, source in _sources().items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "define":
                declaring.add(module)
    declaring -= {"wopgen.diagnostics"}
    assert declaring == {m.__name__ for m in rule_modules()}

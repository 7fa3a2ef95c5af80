"""The executable check: generate the host from the corpus and run every scenario against it.

Runs only for a corpus that describes API operations (a corpus without them has no host). The
host runs the `full` profile in strict mode, so a scenario that skips is a finding too: the full
profile advertises everything, and every scenario must really exercise it. A scenario about refusing
what a host does not offer runs, strict, against the `core` profile instead, which offers nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wopgen.corpus.api import SHAPE
from wopgen.diagnostics import Diagnostic, define

if TYPE_CHECKING:
    from types import ModuleType

    from wopgen.corpus import Corpus

HOST_BROKEN = define(
    "host-import-failed",
    "error",
    "The host generated from the corpus and templates/host/ raises while it is imported, so no scenario can run.",
)

PROFILE = "full"
BARE = "core"  # the profile that offers nothing beyond the run surface


def host_module(corpus: Corpus) -> ModuleType:
    """Generate the host from `corpus` and import it (raises HostGenerationError when it cannot be made).

    The checks generate the tree and hand it to the conformance runner, which imports no generator.
    """
    from wopgen.conformance.inprocess import load_package
    from wopgen.generate.host import PACKAGE, generate

    return load_package(generate(corpus), PACKAGE)


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    # Imported here, not at the top: `wopgen check` skips this check when its findings are cached,
    # and then needs neither the generator nor the conformance suite. (The gate imports the checks.)
    from wopgen.checks.gate import blocking
    from wopgen.conformance.findings import diagnostics, unreachable
    from wopgen.conformance.inprocess import in_process
    from wopgen.conformance.runner import SKIPPED, DiscoveryError, run
    from wopgen.conformance.scenarios import SCENARIOS
    from wopgen.generate.host import HostGenerationError, describes_operations

    if not describes_operations(corpus) or blocking(corpus):
        return  # no host; or one that cannot be generated until the blocking findings are fixed
    try:
        module = host_module(corpus)
    except HostGenerationError as exc:
        yield from (d for d in exc.diagnostics if d.rule != SHAPE.id)  # the api check reports those
        return
    except Exception as exc:  # generated code: any failure is a host bug to report, not a crash of check
        where = exc.__traceback__
        while where is not None and where.tb_next is not None:
            where = where.tb_next
        origin = f" ({where.tb_frame.f_code.co_filename}:{where.tb_lineno})" if where is not None else ""
        yield HOST_BROKEN.at(
            "templates/host",
            1,
            f"the generated host does not import: {type(exc).__name__}: {exc}{origin}",
            "run `wopgen host generate` and import the package to see the full traceback",
        )
        return
    try:
        results = run(SCENARIOS, in_process(module, PROFILE), corpus, strict=True)
        # A scenario about refusing what a host does not offer skips on the full profile: it runs,
        # strict, against the profile that offers nothing, so that it too is really exercised.
        refusing = [r.scenario for r in results if r.scenario.unoffered and r.status == SKIPPED]
        bare = run(refusing, in_process(module, BARE), corpus, strict=True) if refusing else []
    except DiscoveryError as exc:
        yield unreachable(corpus, str(exc))
        return
    yield from diagnostics(corpus, [r for r in results if r.scenario not in refusing], f"generated host ({PROFILE})")
    yield from diagnostics(corpus, bare, f"generated host ({BARE})")

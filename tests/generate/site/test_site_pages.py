"""The docs site as a pure function of the corpus: what each page says and where its links go."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

import wopgen.corpus.markdown as corpus_markdown
from support.corpus_factory import rfc_text, schema
from support.helpers import RFC_0901_SCHEMAS
from support.site_pages import staged
from wopgen.catalogue import catalogue
from wopgen.cli import cli
from wopgen.conformance.scenarios import SCENARIOS
from wopgen.corpus import load
from wopgen.generate.api import api_documents, dump, quoting_yaml_1_2_numbers
from wopgen.generate.site import build_date, render
from wopgen.generate.site.api import pages as api_pages
from wopgen.generate.site.context import SiteContext

REPO = Path(__file__).resolve().parents[3]


def pages(root: Path) -> dict[str, str]:
    """The staged pages, each table as the pipe table it stands for (see `support.site_pages`)."""
    return staged(render(load(root), rules=catalogue()))


def test_render_is_byte_identical_run_to_run(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    assert render(load(root), rules=catalogue()) == render(load(root), rules=catalogue())


def test_status_banner_becomes_an_admonition_and_links_follow_the_pages(make_corpus: Callable[..., Path]) -> None:
    def edit(files: dict[str, Any]) -> None:
        files["spec/v1/overview.md"] += (
            "\nShapes: [thing](../../schemas/thing.schema.json), "
            "[a rejected one](../../schemas/examples/thing/invalid/empty-name.json), "
            "[the log](../../CHANGELOG.md#100---2026-05-01), [the tests](../../tests/test_things.py), "
            "`[code](../../schemas/thing.schema.json)`.\n\n```text\n[fenced](../../schemas/thing.schema.json)\n```\n"
        )

    overview = pages(make_corpus(edit))["docs/spec/v1/overview.md"]
    assert '!!! success "Status: Stable"' in overview
    assert "> **Status" not in overview
    assert "[RFC 0001](../../rfcs/0001-things.md)" in overview
    assert "[thing](../../schemas/thing.md)" in overview
    assert "[a rejected one](../../schemas/thing.md#example-invalid-empty-name)" in overview
    assert "[the log](../../changelog.md#100---2026-05-01)" in overview
    assert "the tests," in overview  # a file the site does not publish keeps its words, not the link
    assert "`[code](../../schemas/thing.schema.json)`" in overview  # code is left alone
    assert "[fenced](../../schemas/thing.schema.json)" in overview
    assert "[events](#events)" in overview  # in-page anchors are kept as written


def test_a_repository_file_the_site_does_not_publish_links_into_the_repository(
    make_corpus: Callable[..., Path],
) -> None:
    """With `repository-url`, a link to a file of the corpus the site does not publish goes to the repository's
    view of it; a link to a path the corpus lacks (which `check` reports) or leaving the root, and an image,
    keep their words, as without a repository."""

    def edit(files: dict[str, Any]) -> None:
        files["pyproject.toml"] += 'repository-url = "https://github.com/example/spec"\n'
        files["tests/test_things.py"] = "def test_nothing() -> None:\n    pass\n"
        files["spec/v1/overview.md"] += (
            "\nSee [the tests](../../tests/test_things.py#L1), [gone](../../tests/gone.py), "
            "[outside](../../../elsewhere.py) and ![a chart](../../tests/test_things.py).\n"
        )

    overview = pages(make_corpus(edit))["docs/spec/v1/overview.md"]
    assert "[the tests](https://github.com/example/spec/blob/HEAD/tests/test_things.py#L1)" in overview
    assert "See [the tests](" in overview and ", gone, outside and a chart." in overview


def test_a_json_pointer_into_a_schema_lands_on_its_definition_or_the_page(make_corpus: Callable[..., Path]) -> None:
    def edit(files: dict[str, Any]) -> None:
        files["spec/v1/overview.md"] += (
            "\n[name](../../schemas/thing.schema.json#/$defs/name/minLength), "
            "[required](../../schemas/thing.schema.json#/required).\n"
        )

    overview = pages(make_corpus(edit))["docs/spec/v1/overview.md"]
    assert "[name](../../schemas/thing.md#def-name)" in overview
    assert "[required](../../schemas/thing.md)" in overview


def test_rfc_index_groups_by_status_and_rfc_page_has_a_card(make_corpus: Callable[..., Path]) -> None:
    def edit(files: dict[str, Any]) -> None:
        files["spec/rfcs/0002-more.md"] = (
            files["spec/rfcs/0001-things.md"].replace("0001", "0002").replace("`Accepted`", "`Draft`")
        )

    site = pages(make_corpus(edit))
    index = site["docs/rfcs/index.md"]
    assert index.index("## Accepted") < index.index("[RFC 0001](0001-things.md)") < index.index("## Draft")
    assert "| [RFC 0002](0002-more.md) | Things |" in index
    assert "wop-badge--draft" in index
    page = site["docs/rfcs/0001-things.md"]
    assert '<div class="wop-card" markdown>' in page
    assert "[`schemas/thing.schema.json`](../schemas/thing.md)" in page
    assert "| **Updated** | 2026-05-08" in page
    assert '??? note "Status history"' in page
    # the card keeps the essentials; Affects is folded under a collapsed block
    assert '??? info "Affects 2 items' in page and "| **Affects** |" not in page
    assert "| **RFC** |" not in page  # the header table is replaced by the card


def test_rfc_pages_rewrite_the_links_the_loader_found_without_parsing_again(
    make_corpus: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def edit(files: dict[str, Any]) -> None:
        files["spec/rfcs/0001-things.md"] += "\nSee [the shape](../../schemas/thing.schema.json) and `[code](x.md)`.\n"

    corpus = load(make_corpus(edit))
    assert corpus.rfcs["spec/rfcs/0001-things.md"].doc.links  # the loader has read the page
    for path in corpus.docs:  # and every other page: from here on, any parse is a second one
        assert corpus.docs[path].path == path
    assert corpus.changelog is not None  # the changelog too (parsed when first asked for)

    def refuse(*args: Any) -> Any:
        raise AssertionError("a page was read a second time")

    # No page is read again: the links, headings and lines are the loader's. (A page's list items are
    # parsed when the site first lays its lists out; the check never asks for them.)
    monkeypatch.setattr(corpus_markdown, "_read", refuse)
    page = render(corpus, rules=catalogue())["docs/rfcs/0001-things.md"]
    assert isinstance(page, str)
    assert "See [the shape](../schemas/thing.md) and `[code](x.md)`." in page
    assert "| **RFC** |" not in page and page.count("RFC 0001: Things") == 1  # title and table still cut


def test_links_are_rewritten_on_the_lines_the_reader_numbers(make_corpus: Callable[..., Path]) -> None:
    # A line separator (U+2028) or a form feed ends no line for the reader: the link after one is
    # still found on its line and rewritten there.
    def edit(files: dict[str, Any]) -> None:
        files["spec/v1/overview.md"] += "\nOne\u2028two\x0cthree.\n\n[thing](../../schemas/thing.schema.json)\n"

    overview = pages(make_corpus(edit))["docs/spec/v1/overview.md"]
    assert "\n[thing](../../schemas/thing.md)\n" in overview


def test_schema_page_has_field_tables_refs_examples_and_the_raw_schema(make_corpus: Callable[..., Path]) -> None:
    site = pages(make_corpus())
    thing = site["docs/schemas/thing.md"]
    assert "| `name` | [name](#def-name) | yes |" in thing
    assert "| `decision` | [Decision](decision.md) | — |" in thing  # a $ref to another file links its page
    assert "## `name` (ThingName) { #def-name }" in thing
    assert "closed: no other members" in thing
    assert "#### empty-name { #example-invalid-empty-name }" in thing
    assert "**Why it fails:** name has minLength 1" in thing
    assert "[raw schema](../spec/v1/thing.schema.json)" in thing
    assert site["docs/spec/v1/thing.schema.json"] == (make_corpus() / "schemas/thing.schema.json").read_text()
    assert '**Values:** `"go"`, `"stop"`' in site["docs/schemas/decision.md"]


def test_event_catalogue_lists_every_type_with_its_annotations(make_corpus: Callable[..., Path]) -> None:
    events = pages(make_corpus())["docs/events.md"]
    row = next(line for line in events.splitlines() if line.startswith("| [`agent.verified`]"))
    assert "[`agentVerified`](schemas/run-event-payloads.md#def-agentVerified)" in row
    assert "[RFC 0001](rfcs/0001-things.md)" in row
    assert row.rstrip().endswith("| yes |")
    started = next(line for line in events.splitlines() if line.startswith("| [`run.started`]"))
    assert "| always | baseline | no |" not in started  # runStarted does not state x-wop-content-free
    assert "not stated" in started
    assert '| `verdict` | enum | yes | one of `"pass"`, `"fail"`, `"revise"` |' in events


def _capabilities(files: dict[str, Any], version: dict[str, Any]) -> None:
    """A discovery schema whose `executionModel.version` is `version`."""
    files["schemas/capabilities.schema.json"] = {
        **files["schemas/decision.schema.json"],
        "$id": "https://openwop.dev/spec/v1/capabilities.schema.json",
        "title": "Capabilities",
        "type": "object",
        "properties": {"multiAgent": {"$ref": "#/$defs/executionModel"}},
        "$defs": {"executionModel": {"type": "object", "properties": {"version": version}}},
    }
    del files["schemas/capabilities.schema.json"]["enum"]


def test_capabilities_page_reads_the_ladder_from_the_schema(make_corpus: Callable[..., Path]) -> None:
    def edit(files: dict[str, Any]) -> None:
        ladder = "1 = the loop (RFC 0037); 2 = verifier turn (RFC 0001)."
        _capabilities(files, {"type": "integer", "minimum": 1, "maximum": 2, "description": ladder})
        payloads = files["schemas/run-event-payloads.schema.json"]["$defs"]
        payloads["agentVerified"]["x-wop-capability"] = "multiAgent.version"

    page = pages(make_corpus(edit))["docs/capabilities.md"]
    assert "| 1 | the loop | RFC 0037 | — |" in page
    assert (
        "| 2 | verifier turn | [RFC 0001](rfcs/0001-things.md) | [`agent.verified`](events.md#event-agent-verified) |"
        in page
    )
    assert "| `multiAgent.version` | [`agent.verified`](events.md#event-agent-verified) |" in page
    assert "| `multiAgent.version` | integer | minimum `1`; maximum `2` |" in page


def test_capabilities_page_finds_an_execution_model_written_inline(make_corpus: Callable[..., Path]) -> None:
    """The published corpus writes it as `properties.multiAgent.properties.executionModel`, with no `$defs`."""

    def edit(files: dict[str, Any]) -> None:
        version = {"type": "integer", "description": "1 = the loop (RFC 0037)."}
        model = {"type": "object", "properties": {"version": version}}
        files["schemas/capabilities.schema.json"] = {
            **files["schemas/decision.schema.json"],
            "$id": "https://openwop.dev/spec/v1/capabilities.schema.json",
            "title": "Capabilities",
            "type": "object",
            "properties": {"multiAgent": {"type": "object", "properties": {"executionModel": model}}},
        }
        del files["schemas/capabilities.schema.json"]["enum"]

    page = pages(make_corpus(edit))["docs/capabilities.md"]
    assert "no discovery schema" not in page
    assert "| 1 | the loop | RFC 0037 | — |" in page
    assert "| `multiAgent.executionModel.version` | integer |" in page


def test_events_page_leaves_out_what_no_payload_states(make_corpus: Callable[..., Path]) -> None:
    """Without any `x-wop-*` annotation in the corpus, "always", "baseline" and "not stated" would be
    claims the schemas never made."""

    def edit(files: dict[str, Any]) -> None:
        for node in files["schemas/run-event-payloads.schema.json"]["$defs"].values():
            for key in [k for k in node if k.startswith("x-wop-")]:
                del node[key]

    page = pages(make_corpus(edit))["docs/events.md"]
    assert "carries `x-wop-capability`, `x-wop-rfc` or `x-wop-content-free`, so this page leaves out" in page
    assert "| Event | Payload |\n|---|---|\n| [`run.started`](#event-run-started) |" in page
    for claim in ("Gated by", "Introduced by", "Content-free", "always", "baseline", "not stated"):
        assert claim not in page
    fixture = pages(make_corpus())["docs/events.md"]  # x-wop-rfc and x-wop-content-free on agentVerified
    assert "| Event | Payload | Introduced by | Content-free |" in fixture
    assert "| baseline | not stated |" in fixture and "carries `x-wop-capability`, so" in fixture

    def gate(files: dict[str, Any]) -> None:
        files["schemas/run-event-payloads.schema.json"]["$defs"]["agentVerified"]["x-wop-capability"] = "multiAgent.v"

    annotated = pages(make_corpus(gate))["docs/events.md"]
    assert "| Event | Payload | Gated by | Introduced by | Content-free |" in annotated
    assert "| always | baseline | not stated |" in annotated and "leaves out" not in annotated


def test_rule_catalogue_page_lists_every_rule(make_corpus: Callable[..., Path]) -> None:
    page = pages(make_corpus())["docs/rules.md"]
    listed = set(re.findall(r"^\| `([a-z0-9-]+)` \|", page, re.M))
    assert listed == {rule.id for rule in catalogue()}


def test_security_page(make_corpus: Callable[..., Path]) -> None:
    site = pages(make_corpus())
    assert "## `verifier-no-content-leak`" in site["docs/security.md"]
    assert "**Witnessed by:** `tests/test_things.py`" in site["docs/security.md"]


def test_conformance_scenarios_page() -> None:
    conformance = pages(REPO)["docs/conformance.md"]
    listed = re.findall(r"^\| `([a-z0-9-]+)` \|", conformance, re.M)
    assert listed == [s.name for s in SCENARIOS]  # what `wopgen conformance` runs, in its order
    assert "| `core-run-surface` | always on | — |" in conformance
    # it checks how a host refuses evaluation it does not offer, so it skips a host that offers it
    assert "| `agent-eval-unadvertised` | when not offered | — |" in conformance
    assert "check shapes" not in conformance  # core scenarios run requests, not only shapes
    gating = "| `verifier-gating` | gated | `multiAgent.executionModel.verifier.gating` | [RFC 0090](rfcs/0090-verifier-turn.md) |"
    assert gating in conformance


def test_security_page_shows_what_each_entry_says(make_corpus: Callable[..., Path]) -> None:
    """An entry shaped as upstream OpenWOP writes them (threat model, witness class, a note and no
    statement or RFC) and one shaped as this repository's (RFC, statement, scenarios, note) each show
    what they hold, and no placeholder for what they do not."""

    def edit(files: dict[str, Any]) -> None:
        files["pyproject.toml"] += 'repository-url = "https://github.com/example/spec"\n'
        files["SECURITY/threat-model-secret-leakage.md"] = "# Secret leakage\n"
        files["spec/security/invariants.yaml"] = (
            "invariants:\n"
            "  - id: secret-leakage-eventlog-payload\n"
            "    tier: protocol\n"
            "    severity: critical\n"
            "    threat_model: SECURITY/threat-model-secret-leakage.md\n"
            "    witness: witnessable-gated\n"
            "    tests:\n"
            "      - tests/test_things.py\n"
            "    note: |\n"
            "      Persisted payloads MUST NOT hold key material,\n"
            "      whatever the event type.\n"
            "\n"
            "      It covers:\n"
            "        - the event log;\n"
            "        - the debug bundle,\n"
            "          once written.\n"
            "      A paragraph after the list.\n"
            "    non_testability_rationale: |\n"
            "      No public surface shows it.\n"
            "  - id: verifier-no-content-leak\n"
            "    tier: protocol\n"
            "    severity: high\n"
            "    rfc: '0001'\n"
            "    statement: >-\n"
            "      A verified payload never carries\n"
            "      the content it verified.\n"
            "    tests: [tests/test_things.py]\n"
            "    scenarios: [agent-verified-shape]\n"
            "    note: The schema is closed.\n"
        )

    page = pages(make_corpus(edit))["docs/security.md"]
    upstream, own = page.split("## `secret-leakage-eventlog-payload`")[1].split("## `verifier-no-content-leak`")
    assert "—" not in upstream and "RFC" not in upstream
    assert "| Tier | Severity | Threat model | Witness |" in upstream
    link = "https://github.com/example/spec/blob/HEAD/SECURITY/threat-model-secret-leakage.md"
    assert (
        f"| protocol | critical | [`SECURITY/threat-model-secret-leakage.md`]({link}) | witnessable-gated |" in upstream
    )
    # The note is the description: its paragraphs and its list kept, not an admonition.
    assert "Persisted payloads MUST NOT hold key material, whatever the event type.\n\nIt covers:\n\n" in upstream
    assert "- the event log;\n- the debug bundle, once written.\n\nA paragraph after the list." in upstream
    assert "**Why no test witnesses it:** No public surface shows it." in upstream
    assert "!!! note" not in upstream
    assert "| Tier | Severity | RFC |" in own
    assert "| protocol | high | [RFC 0001](rfcs/0001-things.md) |" in own
    assert "A verified payload never carries the content it verified." in own
    assert "**Conformance scenarios:** `agent-verified-shape`" in own
    assert "!!! note\n\n    The schema is closed." in own


def test_api_pages_render_the_generated_documents() -> None:
    site = pages(REPO)
    http = site["docs/api/index.md"]
    assert "| `POST` | `/v1/runs` | [`createRun`](#op-createrun) |" in http
    assert "### `GET /.well-known/openwop` { #op-getdiscovery }" in http
    assert "no authentication" in http
    assert "**Request body** (required): [RunCreateRequest](../schemas/run-create-request.md)" in http
    assert "[ErrorEnvelope](../schemas/error-envelope.md)" in http
    assert site["docs/api/openapi.yaml"].startswith("openapi: 3.1.0")
    events = site["docs/api/events.md"]
    assert "[`agent.verified`](../events.md#event-agent-verified)" in events
    assert "**Address:** `/v1/runs/{runId}/events`" in events


def test_api_pages_read_the_documents_without_parsing_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the API pages parsed YAML; they read the documents as built")

    corpus = load(REPO)  # the loader reads spec/api/*.yaml; the pages must not parse anything after it
    monkeypatch.setattr(yaml, "safe_load", refuse)
    monkeypatch.setattr(yaml, "load", refuse)
    out = api_pages(SiteContext(corpus, catalogue()))
    assert "| `POST` | `/v1/runs` | [`createRun`](#op-createrun) |" in out["api/index.md"]


@quoting_yaml_1_2_numbers
class _PythonDumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def test_the_c_emitter_writes_what_the_python_emitter_writes() -> None:
    documents = api_documents(load(REPO))
    assert documents
    for document in documents.values():
        assert dump(document) == dump(document, _PythonDumper)


def test_the_site_picks_up_rfc_0901_without_hand_edits() -> None:
    site = pages(REPO)
    for name in RFC_0901_SCHEMAS:
        assert f"docs/schemas/{name}.md" in site, name
    events = site["docs/events.md"]
    assert "verification.started" in events and "verification.completed" in events
    http = site["docs/api/index.md"]
    assert "`getVerificationResult`" in http and "`runSampleVerification`" in http
    conformance = site["docs/conformance.md"]
    assert all(f"`{s.name}`" in conformance for s in SCENARIOS if s.rfc == "0901")


OPTIONAL_PAGES = {
    "docs/events.md": "Event catalogue",
    "docs/capabilities.md": "Capabilities",
    "docs/api/index.md": "API",
    "docs/api/try.md": "Try it",
    "docs/security.md": "Security invariants",
    "docs/conformance.md": "Conformance scenarios",
    "docs/changelog.md": "Changelog",
}


def test_a_corpus_without_the_material_of_a_page_has_no_such_page(tmp_path: Path) -> None:
    """A corpus `wopgen init` writes has no API, events, discovery schema or invariants, and lacks the
    schemas the conformance scenarios need: none of those pages is published to say there is nothing
    to show, and neither the nav nor the home page names them. The repository's corpus has them all."""
    root = tmp_path / "fresh"
    assert CliRunner().invoke(cli, ["init", str(root), "--title", "Acme"]).exit_code == 0
    (root / "CHANGELOG.md").unlink()
    site = pages(root)
    assert not set(OPTIONAL_PAGES) & set(site)
    config, home = site["mkdocs.yml"], site["docs/index.md"]
    assert not [title for title in OPTIONAL_PAGES.values() if f"- {title}" in config or f"  - {title}:" in config]
    assert "  - API:" not in config and "\n  - Schemas:\n    - schemas/index.md\n  - Reference:" in config
    assert not re.findall(r"\]\((events|capabilities|api/index|security|conformance|changelog)\.md\)", home)
    assert "[1 schema](schemas/index.md) with field tables and examples." in home  # one schema, not "1 schemas"
    assert "    The [rule catalogue](rules.md) of `wopgen check`.\n" in home
    full = pages(REPO)
    assert set(OPTIONAL_PAGES) <= set(full)
    assert all(
        f"{title}: " in full["mkdocs.yml"] or f"- {page[5:]}" in full["mkdocs.yml"]
        for page, title in OPTIONAL_PAGES.items()
    )


def test_nav_and_build_date(make_corpus: Callable[..., Path]) -> None:
    root = make_corpus()
    config = pages(root)["mkdocs.yml"]
    assert "INHERIT:" in config and "site/mkdocs.yml" in config
    assert "  - RFCs:\n    - rfcs/index.md\n" in config and "rfcs/0001-things.md" not in config
    assert build_date(load(root)) == "2026-06-01"  # the newest date the corpus states


def test_capabilities_page_reads_rungs_written_as_phases(make_corpus: Callable[..., Path]) -> None:
    """Upstream writes each rung as `N = Phase N (what, RFC NNNN).`, the last one followed by a sentence of
    its own: every rung is read, its RFC cited apart, and the sentence after it left out."""

    def edit(files: dict[str, Any]) -> None:
        ladder = (
            "Profile version. 1 = Phase 1 (the loop + handoff). 2 = Phase 2 (verifier turn, the `agent.verified` "
            "event, RFC 0001). A host advertising `version: N` MUST implement all phases 1..N."
        )
        _capabilities(files, {"type": "integer", "description": ladder})

    page = pages(make_corpus(edit))["docs/capabilities.md"]
    assert "| 1 | Phase 1 (the loop + handoff) | — | — |" in page
    assert "| 2 | Phase 2 (verifier turn, the `agent.verified` event) | [RFC 0001](rfcs/0001-things.md) |" in page
    assert "A host advertising" not in page.split("## Flags")[0]
    assert "No event payload declares the capability that gates it (`x-wop-capability`)." in page


def test_a_payload_that_refers_to_another_schema_shows_its_fields(make_corpus: Callable[..., Path]) -> None:
    """A payload `$def` that is a `$ref` to a schema of its own (upstream's `interruptRequested`) shows that
    schema's fields, and names it, instead of saying the payload declares none."""

    def edit(files: dict[str, Any]) -> None:
        files["schemas/run-event-payloads.schema.json"]["$defs"]["runStarted"] = {
            "$ref": "https://openwop.dev/spec/v1/thing.schema.json"
        }

    page = pages(make_corpus(edit))["docs/events.md"]
    started = page.split("## `run.started`")[1].split("## `")[0]
    assert (
        "- **Payload:** [`runStarted`](schemas/run-event-payloads.md#def-runStarted), which is [`Thing`](schemas/thing.md)"
        in started
    )
    assert "| `name` |" in started
    assert "declares no fields" not in started


def test_rfc_card_reads_affects_as_affects_paths_says(make_corpus: Callable[..., Path]) -> None:
    """With `affects-paths = "path-like"`, backticked fields, routes and expressions stay code (not "repository
    files"), code keeps its characters (`>=`, not `&gt;=`), and a card whose items are not all files counts
    items."""

    def edit(files: dict[str, Any]) -> None:
        files["pyproject.toml"] += 'affects-paths = "path-like"\n'
        files["spec/rfcs/0001-things.md"] = rfc_text(
            affects="`schemas/thing.schema.json` (adds `capabilities.multiAgent.x`) · lands at `version >= 6`"
        )

    page = pages(make_corpus(edit))["docs/rfcs/0001-things.md"]
    assert "[`schemas/thing.schema.json`](../schemas/thing.md) (adds `capabilities.multiAgent.x`)" in page
    assert "lands at `version >= 6`" in page
    assert "(repository file)" not in page and "version &gt;" not in page
    assert '??? info "Affects 3 items' in page  # the fixture adds "the docs", which is no file


def test_a_schema_of_inline_object_branches_shows_each_form(make_corpus: Callable[..., Path]) -> None:
    """A `oneOf` of objects written inline (upstream's orchestrator decision) shows each branch's members under
    its title, and its openness; the value itself is not called open, since each form says."""

    def edit(files: dict[str, Any]) -> None:
        files["schemas/thing.schema.json"] = schema(
            "thing",
            {
                "type": "object",
                "oneOf": [
                    {
                        "title": "Go",
                        "type": "object",
                        "required": ["kind", "to"],
                        "additionalProperties": False,
                        "properties": {"kind": {"const": "go"}, "to": {"type": "string", "minLength": 1}},
                    },
                    {
                        "title": "Stop",
                        "type": "object",
                        "required": ["kind"],
                        "properties": {"kind": {"const": "stop"}, "why": {"type": "string"}},
                    },
                ],
            },
        )
        files["schemas/examples/thing/valid/ok.json"] = {"kind": "stop"}
        files["schemas/examples/thing/invalid/empty-name.json"] = {"kind": "go"}

    page = pages(make_corpus(edit))["docs/schemas/thing.md"]
    root = page.split("{ #schema-root }")[1]
    assert "**Type:** object: Go or Stop" in root and "open: readers ignore" not in root.split("**Form 1")[0]
    assert "a value takes exactly one of the branches its type lists" in root
    assert "**Form 1: Go** · closed: no other members\n\n| Field |" in root
    assert "| `to` | string | yes | minLength `1` |" in root
    assert "**Form 2: Stop** · open: readers ignore members they do not know" in root
    assert "| `why` | string | — |" in root


def test_a_pattern_shows_as_written_with_its_pipes(make_corpus: Callable[..., Path]) -> None:
    """A pattern in a field table reads as the regex it is: not a JSON string (no doubled backslashes) and no
    `\\|` inside its code span, where the site's tables would show the backslash."""

    def edit(files: dict[str, Any]) -> None:
        files["schemas/thing.schema.json"]["properties"]["code"] = {"type": "string", "pattern": "^(a|b)\\.c$"}

    page = pages(make_corpus(edit))["docs/schemas/thing.md"]
    assert "| `code` | string | — | pattern `^(a|b)\\.c$` |" in page


def test_a_branch_naming_no_type_reads_as_what_it_asks(make_corpus: Callable[..., Path]) -> None:
    """A branch of a typed union that names no type of its own (upstream's `anyOf: [{enum}, {pattern}]`, a `oneOf`
    of `required` lists) reads as what it asks of a value of that type, not "any"; `allOf` parts that only add
    conditions leave the type alone, and the conditions are counted among the constraints."""

    def edit(files: dict[str, Any]) -> None:
        files["schemas/thing.schema.json"]["properties"].update(
            {
                "model": {"type": "string", "anyOf": [{"enum": ["wasm", "vm"]}, {"pattern": "^x-[a-z]+$"}]},
                "signing": {
                    "type": "object",
                    "oneOf": [
                        {"required": ["keyId"], "not": {"required": ["keyRef"]}},
                        {"required": ["keyRef", "url"]},
                    ],
                },
                "signal": {
                    "type": "object",
                    "allOf": [
                        {"if": {"required": ["a"]}, "then": {"required": ["b"]}},
                        {"if": {"required": ["c"]}, "then": {"required": ["d"]}},
                    ],
                },
                "loose": {"anyOf": [{"enum": [1]}, {"pattern": "^a"}]},
                "tagged": {
                    "type": "object",
                    "oneOf": [
                        {"required": ["kind"], "properties": {"kind": {"const": "go"}}},
                        {"required": ["kind"], "properties": {"kind": {"const": "stop"}}},
                    ],
                },
                "based": {"allOf": [{"$ref": "#/$defs/name"}, {"if": {"required": ["a"]}, "then": {}}]},
            }
        )

    page = pages(make_corpus(edit))["docs/schemas/thing.md"]
    assert '| `model` | string: one of `"wasm"`, `"vm"` or matching `^x-[a-z]+$` |' in page
    assert "| `signing` | object: (with `keyId`; without `keyRef`) or with `keyRef` and `url` |" in page
    assert "| `signal` | object | — | 2 conditions (`if`/`then`; see the schema) |" in page
    # Without a type on the holder, a branch of only a pattern takes any value that is not a string: "any".
    assert "| `loose` | enum or any |" in page
    # What sets the branches apart is shown, here the tag's value.
    assert '| `tagged` | object: (with `kind`; `kind`: const `"go"`) or (with `kind`; `kind`: const `"stop"`) |' in page
    assert "| `based` | [name](#def-name) | — | 1 condition (`if`/`then`; see the schema) |" in page


def test_members_of_a_nullable_object_are_listed(make_corpus: Callable[..., Path]) -> None:
    """A member that is null or an object written inline (upstream's `run-ancestry-response.parent`) lists the
    object's members as `parent.runId`; a member of two object branches lists neither's, which would mix them."""

    def edit(files: dict[str, Any]) -> None:
        files["schemas/thing.schema.json"]["properties"].update(
            {
                "parent": {
                    "oneOf": [
                        {"type": "null"},
                        {"type": "object", "required": ["runId"], "properties": {"runId": {"type": "string"}}},
                    ]
                },
                "either": {
                    "oneOf": [
                        {"type": "object", "properties": {"left": {"type": "string"}}},
                        {"type": "object", "properties": {"right": {"type": "string"}}},
                    ]
                },
                "shared": {"oneOf": [{"$ref": "#/$defs/other"}, {"type": "object", "properties": {"x": {}}}]},
            }
        )
        files["schemas/thing.schema.json"]["$defs"] = {"other": {"type": "object"}}

    page = pages(make_corpus(edit))["docs/schemas/thing.md"]
    assert "| `parent` | null or object | — |" in page
    assert "| `parent.runId` | string | yes |" in page
    assert "`either.left`" not in page and "`either.right`" not in page and "`shared.x`" not in page


@pytest.mark.parametrize(
    ("description", "summary"),
    [
        ("RFC 0097 §B. A standing goal, kept across runs. More.", "RFC 0097 §B. A standing goal, kept across runs."),
        ("Names a host, e.g. the primary one. Then more.", "Names a host, e.g. the primary one."),
        ("Names a host (e.g. the primary one). Then more.", "Names a host (e.g. the primary one)."),
        ("What a run records of its steps. Then more.", "What a run records of its steps."),
        ("No sentence end", "No sentence end"),
    ],
)
def test_the_schema_index_summary_is_a_whole_first_sentence(description: str, summary: str) -> None:
    """The summary is the first sentence: not a leading citation alone (upstream's `goal`: "RFC 0097 §B."), and
    not cut at an abbreviation."""
    from wopgen.generate.site.schemas import first_sentence

    assert first_sentence(description) == summary


def test_rfc_card_keeps_the_rows_beyond_the_standard_fields(make_corpus: Callable[..., Path]) -> None:
    """A metadata row every RFC does not have (upstream's withdrawn RFC 0090 has a `Withdrawal note`) is a row of
    the card, its links rewritten for the site; the standard rows are not repeated."""

    def edit(files: dict[str, Any]) -> None:
        files["spec/rfcs/0001-things.md"] = files["spec/rfcs/0001-things.md"].replace(
            "| **Superseded by** | — |\n",
            "| **Superseded by** | — |\n| **Withdrawal note** | Covered by [the overview](../v1/overview.md). |\n",
        )

    page = pages(make_corpus(edit))["docs/rfcs/0001-things.md"]
    card = page.split("</div>")[0]
    assert "| **Withdrawal note** | Covered by [the overview](../spec/v1/overview.md). |" in card
    assert card.count("**Status**") == 1 and "**Title**" not in card

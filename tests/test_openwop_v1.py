"""`wopgen` on the published OpenWOP v1 corpus (a partial copy in ../shared/external), mapped by the
shipped examples/openwop-v1.toml: every finding left is a true problem of that corpus."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from support.generated_models import count_library_runs, same_package
from wopgen.cli import cli
from wopgen.corpus import load
from wopgen.corpus.settings import load_settings
from wopgen.generate import models

ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = ROOT.parent / "shared" / "external" / "openwop-v1"
CONFIG = ROOT / "examples" / "openwop-v1.toml"
VERIFIER = "RFCS/0090-agent-verifier-and-convergence.md"
SHADOW = "RFCS/0090-shadow-run-contract.md"

pytestmark = pytest.mark.skipif(not EXTERNAL.is_dir(), reason="../shared/external/openwop-v1 is absent")


def report(root: Path) -> dict[str, Any]:
    # --no-cache: checking material the project does not own writes nothing into it
    result = CliRunner().invoke(
        cli, ["--config", str(CONFIG), "--root", str(root), "check", "--no-cache", "--format", "json"]
    )
    assert result.exit_code in (0, 1), result.output
    found: dict[str, Any] = json.loads(result.output)
    return found


def check(root: Path) -> list[dict[str, object]]:
    diagnostics: list[dict[str, object]] = report(root)["diagnostics"]
    return diagnostics


def test_only_true_findings_remain() -> None:
    found = sorted((str(d["rule"]), str(d["path"]), int(str(d["line"]))) for d in check(EXTERNAL))
    # RFC 0090 is Accepted with every acceptance box unticked and no deferral stated.
    open_boxes = [f for f in found if f[0] == "rfc-acceptance-open"]
    assert len(open_boxes) == 7
    assert {path for _, path, _ in open_boxes} == {VERIFIER}
    rest = [f for f in found if f[0] != "rfc-acceptance-open"]
    assert rest == [
        # Accepted, and Active on the day it was opened ("Draft → Active same-day"), with no waiver.
        ("rfc-comment-window", "RFCS/0037-multi-agent-execution-model.md", 10),
        # Accepted a day after it was opened, so Active inside the 7-day window; no waiver anywhere.
        ("rfc-comment-window", "RFCS/0058-run-execution-bounds.md", 10),
        # Active on the day they were opened, with no waiver in Updated (RFC 0001: a 7-day window).
        ("rfc-comment-window", "RFCS/0059-agent-workspace.md", 10),
        ("rfc-comment-window", "RFCS/0061-agent-loop-lifecycle.md", 10),
        # Accepted three days after it was opened (Active the day after, per its amendment record), no waiver.
        ("rfc-comment-window", "RFCS/0081-agent-evaluation-and-scorecards.md", 10),
        # RFC 0090 (verifier) is Accepted inside its window too, but Updated states the waiver by lazy
        # consensus RFC 0001 allows, so it is not reported.
        ("rfc-compatibility", SHADOW, 13),  # "n/a (withdrawn …)" is not one of the three classes
        # Two RFC files carry the number 0090 (RFC 0001: numbers are not reused).
        ("rfc-number-duplicate", SHADOW, 5),
        # The second RFC 0090 (withdrawn) is "Superseded by RFC 0081 §D + ...", and RFC 0081's Supersedes
        # is "—": the two records disagree.
        ("rfc-supersession", "RFCS/0081-agent-evaluation-and-scorecards.md", 13),
        # Descriptions state a default no `default` declares: "Default `completion`", "Defaults to …",
        # "default when absent is `warn`", "Default when omitted: `input`", "Defaults to `finder` when not
        # specified".
        ("schema-default-undeclared", "schemas/artifact-type-pack-manifest.schema.json", 113),
        ("schema-default-undeclared", "schemas/capabilities.schema.json", 80),
        ("schema-default-undeclared", "schemas/capabilities.schema.json", 209),
        ("schema-default-undeclared", "schemas/capabilities.schema.json", 231),
        ("schema-default-undeclared", "schemas/capabilities.schema.json", 816),
        ("schema-default-undeclared", "schemas/capabilities.schema.json", 2101),
        ("schema-default-undeclared", "schemas/node-pack-manifest.schema.json", 242),
        ("schema-default-undeclared", "schemas/prompt-template.schema.json", 132),
        ("schema-default-undeclared", "schemas/security-advisory.schema.json", 101),
    ]


FIXTURES = EXTERNAL / "conformance-fixtures"


def test_the_conformance_fixtures_are_validated() -> None:
    """Every fixture the settings map to a schema is read and validates: the workflow definitions at
    the top of the catalogue, its prompt templates and its pack manifest. The one JSON file left (the
    synthetic OAuth provider) has no schema in the corpus."""
    workflows = sorted(FIXTURES.glob("*.json"))
    prompts = sorted(FIXTURES.glob("prompt-templates/*.json"))
    packs = sorted(FIXTURES.glob("pack-manifests/*.json"))
    assert (len(workflows), len(prompts), len(packs), len(list(FIXTURES.rglob("*.json")))) == (82, 7, 1, 91)
    found = report(EXTERNAL)
    assert found["checked"]["instances"] == len(workflows) + len(prompts) + len(packs)
    assert [d for d in found["diagnostics"] if str(d["rule"]).startswith("instance-")] == []
    corpus = load(EXTERNAL, load_settings(EXTERNAL, CONFIG))
    assert sorted(i.path for i in corpus.instances) == sorted(
        p.relative_to(EXTERNAL).as_posix() for p in [*workflows, *prompts, *packs]
    )


def test_a_broken_fixture_is_the_one_instance_finding(tmp_path: Path) -> None:
    copy = tmp_path / "openwop"
    shutil.copytree(EXTERNAL, copy)
    fixture = copy / "conformance-fixtures" / "conformance-noop.json"
    data = json.loads(fixture.read_text(encoding="utf-8"))
    data["nodes"][0]["typeId"] = 7  # a node type id is a string
    fixture.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    line = next(n for n, text in enumerate(fixture.read_text().splitlines(), 1) if '"typeId": 7' in text)
    found = [d for d in check(copy) if str(d["rule"]).startswith("instance-")]
    assert [(d["rule"], d["path"], d["line"]) for d in found] == [
        ("instance-invalid", "conformance-fixtures/conformance-noop.json", line)
    ]
    assert str(found[0]["message"]).startswith(
        "does not validate against schemas/workflow-definition.schema.json: `type` at $.nodes[0].typeId"
    )


def _breaks_type(data: dict[str, Any]) -> None:
    data["properties"]["code"]["type"] = "strin"


def _breaks_ref(data: dict[str, Any]) -> None:
    data["properties"]["retry"] = {"$ref": "#/$defs/missing"}


@pytest.mark.parametrize(
    ("breaks", "rule"), [(_breaks_type, "schema-metaschema"), (_breaks_ref, "schema-ref-unresolved")]
)
def test_broken_envelope_schema_is_reported(
    tmp_path: Path, breaks: Callable[[dict[str, Any]], None], rule: str
) -> None:
    copy = tmp_path / "openwop"
    shutil.copytree(EXTERNAL, copy)
    envelope = copy / "schemas" / "envelopes" / "error.schema.json"
    data = json.loads(envelope.read_text(encoding="utf-8"))
    breaks(data)
    envelope.write_text(json.dumps(data, indent=2), encoding="utf-8")
    found = {(str(d["rule"]), str(d["path"])) for d in check(copy)}
    assert (rule, "schemas/envelopes/error.schema.json") in found


def test_models_type_every_event(tmp_path: Path) -> None:
    out = tmp_path / "models"
    runner = CliRunner()
    result = runner.invoke(cli, ["--config", str(CONFIG), "--root", str(EXTERNAL), "models", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "models-untyped" not in result.output
    envelope = json.loads((EXTERNAL / "schemas" / "run-event.schema.json").read_text(encoding="utf-8"))
    event_types = envelope["$defs"]["RunEventType"]["enum"]
    assert len(event_types) > 100
    init = (out / "wop_models" / "__init__.py").read_text(encoding="utf-8")
    assert "def parse_run_event(" in init
    known = init.split("_KNOWN_TYPES = frozenset(", 1)[1].split(")", 1)[0]
    assert sorted(t for t in event_types) == sorted(
        line.strip().strip('",') for line in known.splitlines() if '"' in line
    )


def test_models_take_one_library_run_and_equal_the_whole_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most of the published event types are cloned from the first; the 18 whose descriptions hold a
    quote or a backslash are written by the library in the same run. The result is the package the
    library writes when it generates every variant itself."""
    corpus = load(EXTERNAL, load_settings(EXTERNAL, CONFIG))
    clonable, written = models.fed_variants(models.generator_input(corpus)[1])
    assert len(clonable) > 50 and written  # both kinds are exercised here
    runs = count_library_runs(monkeypatch)
    ours = models.generate_models(corpus)
    assert len(runs) == 1
    monkeypatch.setattr(models, "clone_variants", lambda *given: None)
    same_package(ours, models.generate_models(corpus))


def test_site_builds(tmp_path: Path) -> None:
    out = tmp_path / "site"
    # --no-cache, as for check: the page cache would otherwise be written under EXTERNAL/build
    args = ["--config", str(CONFIG), "--root", str(EXTERNAL), "site", "build", "--out", str(out), "--no-cache"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert (out / "rfcs" / "0090-agent-verifier-and-convergence" / "index.html").is_file()
    assert (out / "schemas" / "envelopes" / "error" / "index.html").is_file()
    assert "https://github.com/openwop/openwop" in (out / "index.html").read_text(encoding="utf-8")

"""RFC 0901 through `wopgen compat`: against the real corpus before it, the change is additive.

The base is read from git history, not rebuilt by hand: the newest merge in HEAD's history that
joins a line holding RFC 0901 with one that does not gives, as that other parent, the corpus just
before the RFC arrived. It is exported with `git archive` into tmp_path. The head is the work tree's
corpus, copied. Without that history (a shallow clone, an export without .git) the test skips and
says why.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from support.helpers import RFC_0901_SCHEMAS
from wopgen.compat import compare
from wopgen.corpus import load

REPO = Path(__file__).resolve().parents[2]
RFC = "spec/rfcs/0901-verification-gates-rubrics-and-structured-findings.md"
# The RFC's file before it was renumbered (0091 belongs to another RFC in the published series).
FORMER = "spec/rfcs/0091-verification-gates-rubrics-and-structured-findings.md"
CORPUS = ("schemas", "spec", "pyproject.toml", "CHANGELOG.md")


def git(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, check=False)


def holds_rfc(commit: str) -> bool:
    return any(git("cat-file", "-e", f"{commit}:{path}").returncode == 0 for path in (RFC, FORMER))


def commit_before_rfc() -> str | None:
    """The parent, without RFC 0901, of the newest merge that brought RFC 0901 and the line before it together."""
    if shutil.which("git") is None:
        return None
    merges = git("log", "--merges", "--format=%H %P", "HEAD")
    if merges.returncode != 0:
        return None
    for line in merges.stdout.decode().splitlines():
        _, *parents = line.split()
        if git("cat-file", "-e", f"{parents[-1]}^{{commit}}").returncode != 0:
            return None  # history cut short (a shallow clone)
        without = [p for p in parents if not holds_rfc(p)]
        if without and len(without) < len(parents):
            return without[0]
    return None


@pytest.fixture(scope="module")
def before() -> str:
    commit = commit_before_rfc()
    if commit is None:
        pytest.skip("git history before RFC 0901 is not available here (no git, a shallow clone or an export)")
    return commit


def export(commit: str, target: Path) -> Path:
    archive = git("archive", "--format=tar", commit, *CORPUS)
    assert archive.returncode == 0, archive.stderr.decode()
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(target, filter="data")
    return target


def copy_head(target: Path) -> Path:
    for part in CORPUS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, target / part)
        else:
            shutil.copy(source, target / part)
    return target


def test_the_base_really_is_the_corpus_before_rfc_0901(before: str, tmp_path: Path) -> None:
    base = export(before, tmp_path / "base")
    assert not (base / RFC).exists() and (base / "schemas/capabilities.schema.json").exists()
    assert not (base / "schemas/verification-gate.schema.json").exists()


def test_rfc_0901_is_additive_against_the_corpus_before_it(before: str, tmp_path: Path) -> None:
    changes = compare(load(export(before, tmp_path / "base")), load(copy_head(tmp_path / "head")))
    assert [(c.rule, c.path, c.message) for c in changes if c.severity.value != "info"] == []
    found = {(c.rule, c.path.rsplit("/", 1)[-1]) for c in changes}
    added = {f"{name}.schema.json" for name in RFC_0901_SCHEMAS}
    assert {("compat-schema-added", name) for name in added} <= found
    assert ("compat-capability-added", "capabilities.schema.json") in found
    assert ("compat-event-type-added", "run-event-payloads.schema.json") in found
    assert ("compat-event-type-added", "run-event.schema.json") in found
    operations = {c.message for c in changes if c.rule == "compat-operation-added"}
    assert any("getVerificationResult" in m for m in operations)
    assert any("runSampleVerification" in m for m in operations)
    events = {c.message for c in changes if c.rule == "compat-event-type-added"}
    assert {m for m in events if "verification." in m} == {
        "event type 'verification.started' added",
        "event type 'verification.completed' added",
        'event type "verification.started" added',
        'event type "verification.completed" added',
    }


def test_a_breaking_edit_in_the_same_change_would_be_caught(before: str, tmp_path: Path) -> None:
    """The comparison is not vacuous: dropping a member of an older host-emitted payload is an error."""
    head = copy_head(tmp_path / "head")
    path = head / "schemas/run-event-payloads.schema.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["$defs"]["agentVerified"]["properties"]["criteria"]
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    changes = compare(load(export(before, tmp_path / "base")), load(head))
    assert {c.path for c in changes if c.severity.value == "error"} >= {"schemas/run-event-payloads.schema.json"}

"""The audit trail of accepted breaks: `wopgen compat --accepted FILE`."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from wopgen.cli import cli
from wopgen.compat.accepted import AcceptedError, apply, read_accepted
from wopgen.compat.change import Change, Side
from wopgen.diagnostics import Severity


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def sides(tmp_path: Path) -> tuple[str, str]:
    """Two schema files: the head drops the union branch `batch` (an error) and adds `note` (info)."""
    base = {
        "$defs": {
            "Message": {"anyOf": [{"$ref": "#/$defs/One"}, {"$ref": "#/$defs/Batch"}]},
            "One": {"type": "object", "properties": {"id": {"type": "string"}}},
            "Batch": {"type": "array", "items": {"$ref": "#/$defs/One"}},
        }
    }
    head: dict[str, Any] = json.loads(json.dumps(base))
    head["$defs"]["Message"]["anyOf"].pop()
    head["$defs"]["One"]["properties"]["note"] = {"type": "string"}
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(base, indent=2), encoding="utf-8")
    new.write_text(json.dumps(head, indent=2), encoding="utf-8")
    return str(old), str(new)


ENTRY = """\
[[accepted]]
rule = "compat-branch-removed"
location = "old.json#/$defs/Message"
reason = "batching removed on purpose"
"""


def accepted(tmp_path: Path, text: str) -> str:
    path = tmp_path / "accepted.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_an_accepted_break_becomes_info_citing_the_reason(tmp_path: Path) -> None:
    old, new = sides(tmp_path)
    without = run("compat", "--against", old, "--head", new, "--format", "json")
    assert without.exit_code == 1
    file = accepted(tmp_path, "# decisions\n\n" + ENTRY)
    result = run("compat", "--against", old, "--head", new, "--accepted", file, "--format", "json")
    assert result.exit_code == 0, result.output
    changes = json.loads(result.output)["changes"]
    (branch,) = [c for c in changes if c["rule"] == "compat-branch-removed"]
    assert branch["severity"] == "info" and branch["accepted"] == "batching removed on purpose"
    assert f"({file}:3)" in branch["message"]
    assert not [c for c in changes if c["rule"].startswith("compat-accepted-")]


def test_a_stale_entry_is_reported_at_its_line(tmp_path: Path) -> None:
    old, new = sides(tmp_path)
    stale = ENTRY + '\n[[accepted]]\nrule = "compat-property-removed"\nlocation = "old.json"\nreason = "gone"\n'
    file = accepted(tmp_path, stale)
    result = run("compat", "--against", old, "--head", new, "--accepted", file, "--format", "json")
    assert result.exit_code == 0  # a stale entry is a warning
    (found,) = [c for c in json.loads(result.output)["changes"] if c["rule"] == "compat-accepted-stale"]
    assert found["severity"] == "warning"
    assert found["head"] == {"path": file, "pointer": "", "line": 6}
    assert run("compat", "--against", old, "--head", new, "--accepted", file, "--fail-on", "warning").exit_code == 1


def test_an_expired_entry_no_longer_applies(tmp_path: Path) -> None:
    old, new = sides(tmp_path)
    file = accepted(tmp_path, ENTRY + "expires = 2020-01-31\n")
    result = run("compat", "--against", old, "--head", new, "--accepted", file, "--format", "json")
    assert result.exit_code == 1
    rules = {(c["rule"], c["severity"]) for c in json.loads(result.output)["changes"]}
    assert ("compat-branch-removed", "error") in rules and ("compat-accepted-expired", "warning") in rules


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[[accepted]\n", "not valid TOML"),
        ('[[accepted]]\nrule = "compat-branch-removed"\nlocation = "x"\n', "reason"),
        ('[[accepted]]\nrule = "branch-removed"\nlocation = "x"\nreason = "r"\n', "compat- rule"),
        (ENTRY + "owner = 'me'\n", "unknown key 'owner'"),
        (ENTRY + "expires = 'soon'\n", "expires must be a date"),
        (ENTRY + "expires = 07:32:00\n", "expires must be a date"),
        (ENTRY + "expires = 2030-01-01T00:00:00\n", "expires must be a date"),  # a datetime is a date in Python
        (ENTRY + "expires = 2030-01-01T00:00:00Z\n", "expires must be a date"),
        ("accept = 1\n", "unknown key 'accept'"),
    ],
)
def test_a_malformed_file_is_a_usage_error(tmp_path: Path, text: str, says: str) -> None:
    old, new = sides(tmp_path)
    result = run("compat", "--against", old, "--head", new, "--accepted", accepted(tmp_path, text))
    assert result.exit_code == 2, result.output
    assert says in result.output


def test_a_file_nested_too_deeply_is_a_usage_error(tmp_path: Path) -> None:
    old, new = sides(tmp_path)
    file = accepted(tmp_path, "x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    result = run("compat", "--against", old, "--head", new, "--accepted", file)
    assert result.exit_code == 2, result.output
    assert "nested too deeply" in result.output


def test_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    old, new = sides(tmp_path)
    result = run("compat", "--against", old, "--head", new, "--accepted", str(tmp_path / "nope.toml"))
    assert result.exit_code == 2


def test_matching_is_by_rule_file_and_pointer_subtree(tmp_path: Path) -> None:
    file = tmp_path / "a.toml"
    file.write_text(ENTRY + "expires = 2030-01-01\n", encoding="utf-8")
    label, entries = read_accepted(file)
    (entry,) = entries
    assert entry.expires == date(2030, 1, 1)

    def change(rule: str, path: str, pointer: str) -> Change:
        return Change(rule, Severity.ERROR, "m", Side(path, pointer, 1), None)

    inside = change("compat-branch-removed", "history/old.json", "/$defs/Message/anyOf/1")
    sibling = change("compat-branch-removed", "old.json", "/$defs/MessageX")
    other_rule = change("compat-const-changed", "old.json", "/$defs/Message")
    out = apply([inside, sibling, other_rule], label, entries, today=date(2026, 1, 1))
    assert [c.severity for c in out] == [Severity.INFO, Severity.ERROR, Severity.ERROR]
    after = apply([inside], label, entries, today=date(2031, 1, 1))
    assert [c.rule for c in after] == ["compat-branch-removed", "compat-accepted-expired"]
    assert after[0].severity is Severity.ERROR


def test_read_rejects_a_bad_expiry(tmp_path: Path) -> None:
    file = tmp_path / "a.toml"
    file.write_text(ENTRY + 'expires = "2026-02-30"\n', encoding="utf-8")
    with pytest.raises(AcceptedError, match="expires must be a date"):
        read_accepted(file)

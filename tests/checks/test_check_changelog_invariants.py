from __future__ import annotations

from support.helpers import hits

LOG = "CHANGELOG.md"
INV = "spec/security/invariants.yaml"


def test_unreleased_must_come_first(findings):
    def edit(files):
        files[LOG] = "# Changelog\n\n## [1.0.0] - 2026-05-01\n\n## [Unreleased]\n"

    assert hits(findings(edit), "changelog-unreleased") == [(LOG, 3), (LOG, 5)]


def test_version_heading_shape_and_date(findings):
    def edit(files):
        files[LOG] = "# Changelog\n\n## [Unreleased]\n\n## 1.0.0\n\n## [0.9.0] - 2026-13-01\n"

    assert hits(findings(edit), "changelog-version") == [(LOG, 5), (LOG, 7)]


def test_versions_newest_first(findings):
    def edit(files):
        files[LOG] = "# Changelog\n\n## [Unreleased]\n\n## [1.0.0] - 2026-05-01\n\n## [1.1.0] - 2026-06-01\n"

    assert hits(findings(edit), "changelog-order") == [(LOG, 7)]


def test_duplicate_version(findings):
    def edit(files):
        files[LOG] = "# Changelog\n\n## [Unreleased]\n\n## [1.0.0] - 2026-05-01\n\n## [1.0.0] - 2026-05-01\n"

    assert hits(findings(edit), "changelog-duplicate") == [(LOG, 7)]


def test_invariant_shape(findings):
    def edit(files):
        files[INV] = (
            "invariants:\n"
            "  - id: a\n    tier: galactic\n    severity: critical\n    tests: []\n"
            "  - tier: advisory\n    severity: low\n"
            "  - id: a\n    tier: advisory\n    severity: meh\n"
        )

    found = hits(findings(edit), "invariant-shape")
    assert (INV, 3) in found  # tier
    assert (INV, 6) in found  # no id
    assert (INV, 8) in found  # duplicate id
    assert (INV, 10) in found  # severity


def test_protocol_invariant_needs_an_existing_test(findings):
    def edit(files):
        files[INV] = files[INV].replace("tests/test_things.py", "tests/test_gone_*.py")

    assert hits(findings(edit), "invariant-untested") == [(INV, 5)]


def test_invariant_glob_that_leaves_the_root_does_not_count(findings):
    def edit(files):
        files[INV] = files[INV].replace("tests/test_things.py", "../../**/*.py")

    assert hits(findings(edit), "invariant-untested") == [(INV, 5)]


def test_a_test_path_outside_the_repository_is_a_shape_finding(findings):
    """Beside a test that exists, `../../../etc/passwd` passed unremarked: it can witness nothing here."""

    def edit(files):
        files[INV] = files[INV].replace(
            "      - tests/test_things.py\n", "      - tests/test_things.py\n      - ../../../etc/passwd\n"
        )

    found = findings(edit)
    assert hits(found, "invariant-shape") == [(INV, 7)] and hits(found, "invariant-untested") == []


def test_a_test_that_is_no_path_is_reported_at_its_own_line(findings):
    def edit(files):
        files[INV] = files[INV].replace("      - tests/test_things.py\n", "      - tests/test_things.py\n      - 5\n")

    assert hits(findings(edit), "invariant-shape") == [(INV, 7)]


def test_malformed_yaml_is_a_diagnostic(findings):
    def edit(files):
        files[INV] = "invariants:\n  - id: [unclosed\n"

    found = [d for d in findings(edit) if d.rule == "corpus-invalid-yaml"]
    assert [d.path for d in found] == [INV] and found[0].line >= 2

"""schema-default-undeclared: a default a description states is declared with the `default` keyword."""

from __future__ import annotations

from typing import Any

import pytest

from support.helpers import hits

PATH = "schemas/thing.schema.json"
RULE = "schema-default-undeclared"


def _with_mode(files: dict[str, Any], member: dict[str, Any]) -> None:
    files[PATH]["properties"]["mode"] = member
    files["schemas/examples/thing/valid/named.json"] = {"name": "x", "decision": "go"}


def test_a_default_only_in_the_description_is_flagged(findings):
    def edit(files):
        _with_mode(files, {"type": "string", "enum": ["fast", "slow"], "description": "How; absent means `fast`."})

    found = [d for d in findings(edit) if d.rule == RULE]
    assert [d.path for d in found] == [PATH]
    assert found[0].line > 1


def test_a_declared_default_that_says_something_else_is_flagged(findings):
    def edit(files):
        _with_mode(files, {"type": "integer", "default": 3, "description": "Attempts. Defaults to `2`."})

    assert len(hits(findings(edit), RULE)) == 1


def test_a_declared_default_that_agrees_passes(findings):
    def edit(files):
        _with_mode(files, {"type": "integer", "default": 2, "description": "Attempts. Defaults to `2`."})
        files[PATH]["properties"]["on"] = {"type": "boolean", "default": True, "description": "Default: `true`."}

    assert hits(findings(edit), RULE) == []


@pytest.mark.parametrize(
    "description",
    [
        "Where to look. Defaults to `tenant` when omitted.",
        "Per CSAF. Defaults to `tenant` when not specified.",
        "Where the binding comes from. Default when omitted: `tenant`.",
        "Scope. Default when absent: `tenant`.",
        "Optional; default when absent is `tenant`. Under `tenant` the host looks up...",
        'Default: `"tenant"` if omitted.',
    ],
)
def test_a_default_stated_for_the_members_absence_is_flagged(findings, description):
    def edit(files):
        _with_mode(files, {"type": "string", "enum": ["tenant", "user"], "description": description})

    found = [d for d in findings(edit) if d.rule == RULE]
    assert [d.message for d in found] == [
        "the description gives the default 'tenant' but the schema declares no `default`"
    ]


def test_a_default_under_another_condition_is_not_the_members(findings):
    def edit(files):
        _with_mode(
            files,
            {"type": "string", "description": "Defaults to `user` when `shared` is set; `tenant` otherwise."},
        )
        files[PATH]["properties"]["by"] = {"type": "string", "description": "Defaults to `x` when omitted by a host."}

    assert hits(findings(edit), RULE) == []


def test_other_defaults_named_in_passing_are_not_this_members(findings):
    def edit(files):
        _with_mode(
            files,
            {
                "type": "object",
                "description": "Overrides the default `inputMapping`; below the spec default `0.7` it escalates.",
            },
        )
        files[PATH]["properties"]["count"] = {
            "type": "integer",
            "description": "Default: `verifierCount` for `unanimous`, 1 otherwise.",
        }
        files[PATH]["properties"]["level"] = {"type": "object", "description": "Default `0.5`."}
        files[PATH]["properties"]["entry"] = {
            "type": "string",
            "description": "Overrides the Docker image's default `ENTRYPOINT`.",
        }

    assert hits(findings(edit), RULE) == []


def test_defaults_inside_enum_values_are_instance_data(findings):
    def edit(files):
        _with_mode(files, {"enum": [{"description": "absent means `x`"}]})

    assert hits(findings(edit), RULE) == []


def test_a_value_the_member_refuses_is_no_default_of_it(findings):
    """`global.interval` names another setting: the member's own pattern refuses it as a value."""

    def edit(files):
        _with_mode(files, {"type": "string", "pattern": "^[0-9]+s$", "description": "Defaults to `global.interval`."})

    assert hits(findings(edit), RULE) == []


def test_a_quoted_string_default_is_what_the_quotes_hold(findings):
    def edit(files):
        _with_mode(files, {"type": "string", "description": "Header to read, defaults to `'x-token'`."})

    found = [d for d in findings(edit) if d.rule == RULE]
    assert [d.hint for d in found] == ['add "default": "x-token" beside the description, or correct one of the two']


INVALID = "schema-default-invalid"


def test_a_default_its_schema_refuses_is_reported_where_it_is_written(findings):
    def edit(files):
        files[PATH]["properties"]["limits"] = {
            "type": "object",
            "properties": {"max": {"type": "integer"}},
            "required": ["max"],
            "default": {},
        }

    found = [d for d in findings(edit) if d.rule == INVALID]
    assert [d.path for d in found] == [PATH]
    assert found[0].message == (
        "the `default` {} is refused by the schema it is written in: 'max' is a required property"
    )
    assert found[0].line > 1


def test_a_default_its_schema_takes_is_no_finding(findings):
    def edit(files):
        files[PATH]["properties"]["limits"] = {
            "type": "object",
            "properties": {"max": {"type": "integer"}},
            "default": {"max": 3},
        }
        files[PATH]["properties"]["mode"] = {"enum": ["fast", "slow"], "default": "fast"}

    assert hits(findings(edit), INVALID) == []


@pytest.mark.parametrize(
    ("description", "flagged"),
    [
        ("The executable. Defaults to `productName`.", False),  # the value of another member, named
        ("Where data goes. Defaults to `<module_name>.data`.", False),  # a placeholder
        ("The query parameter. Defaults to `query`.", True),  # a value, though a member elsewhere is named so
        ("The name, e.g. `PNG`. Defaults to `ext`.", False),  # the value of a member of the same object
        ("The name, e.g. `PNG`. Defaults to `EXT`.", True),  # a value: no member is named so
    ],
)
def test_a_default_that_names_another_member_or_a_placeholder_is_no_value(findings, description, flagged):
    def edit(files):
        _with_mode(files, {"type": "string", "description": description})
        files[PATH]["properties"]["productName"] = {"type": "string"}
        files[PATH]["properties"]["ext"] = {"type": "string"}
        files[PATH]["$defs"]["search"] = {"type": "object", "properties": {"query": {"type": "string"}}}

    assert bool(hits(findings(edit), RULE)) is flagged

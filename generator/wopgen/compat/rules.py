"""The compat rule catalogue: stable ids, default severities, direction tables and examples.

A schema's `x-wop-direction` decides which side a change can break:
`client-sent` (a client produces it, a host validates it: stricter validation breaks clients),
`host-emitted` (a host produces it, clients read it: taking something away breaks readers) and
`artifact` (both sides write and read it: either rule breaks it). A rule whose severity depends on
the direction lists it in `_BY_DIRECTION`; the catalogue shows the strictest one.
"""

from __future__ import annotations

from wopgen.diagnostics import Rule, Severity, define

CLIENT, HOST, ARTIFACT = "client-sent", "host-emitted", "artifact"
DIRECTIONS = (CLIENT, HOST, ARTIFACT)

_BY_DIRECTION: dict[str, dict[str, str]] = {}


def _rule(rule_id: str, summary: str, example: str, severity: str = "", **by_direction: str) -> Rule:
    """Define a compat rule; `client`, `host`, `artifact` give per-direction severities."""
    table = {CLIENT: by_direction.get("client", severity), HOST: by_direction.get("host", severity)}
    table[ARTIFACT] = by_direction.get("artifact", severity)
    strictest = max((Severity(s) for s in table.values()), key=lambda s: s.rank)
    if len(set(table.values())) > 1:
        summary += f" Severity by direction: client-sent {table[CLIENT]}, host-emitted {table[HOST]}, artifact {table[ARTIFACT]}."
    _BY_DIRECTION[rule_id] = table
    return define(rule_id, strictest.value, summary, example)


def narrows(rule_id: str) -> bool:
    """Whether a change of this rule takes values away and nothing more: it breaks client-sent schemas
    and not host-emitted ones."""
    table = _BY_DIRECTION.get(rule_id, {})
    return table.get(CLIENT) == Severity.ERROR.value and table.get(HOST) != Severity.ERROR.value


def severity_for(rule: Rule, direction: str) -> Severity:
    table = _BY_DIRECTION.get(rule.id, {})
    return Severity(table.get(direction, table.get(ARTIFACT, rule.severity.value)))


# --- files and roles ---------------------------------------------------------------------------

SCHEMA_REMOVED = _rule(
    "compat-schema-removed",
    "A schema file of the base is gone from the head; everything that validated against it breaks.",
    "base: schemas/run-resume-request.schema.json; head: no such file",
    "error",
)
SCHEMA_ADDED = _rule(
    "compat-schema-added",
    "A new schema file; additive.",
    "base: no schemas/eval-summary.schema.json; head: the file exists",
    "info",
)
SCHEMA_RENAMED = _rule(
    "compat-schema-renamed",
    "A schema file, or a $defs/definitions entry, was removed and one with the same normalised shape added: "
    "what validates is unchanged, but references by its $id, path or pointer break.",
    "base: schemas/resource-reference.schema.json; head: schemas/resource-template-reference.schema.json, same shape",
    "warning",
)
SCHEMA_INVALID = _rule(
    "compat-schema-invalid",
    "A schema of the base or the head is rejected by its metaschema (a keyword of the wrong type, such as "
    '"required": 5), or a schema of the base cannot be read at all, so the comparison is refused rather than '
    "run on a meaning no validator gives it.",
    'head: "required": 5',
    "error",
)
DIRECTION_CHANGED = _rule(
    "compat-direction-changed",
    "The x-wop-direction of a schema changed, so the rules that protect its producers and readers change too.",
    'base: "x-wop-direction": "host-emitted"; head: "x-wop-direction": "artifact"',
    "warning",
)
DEF_REMOVED = _rule(
    "compat-def-removed",
    "A $defs (or draft-07 definitions) entry is gone, whether other files referenced it or not. The wire "
    "meaning is compared through the references; what breaks is code and documents that address it by pointer.",
    "base: verifier.schema.json#/$defs/verdict; head: no $defs/verdict",
    "warning",
)

# --- members -----------------------------------------------------------------------------------

PROPERTY_REMOVED = _rule(
    "compat-property-removed",
    "A property is gone: readers lose a member they relied on and senders of it are now rejected or ignored.",
    'base: "properties": {"runId": {...}, "note": {...}}; head: "properties": {"runId": {...}}',
    "error",
)
PROPERTY_UNLISTED = _rule(
    "compat-property-unlisted",
    "A property was removed from a client-sent object that stays open (no additionalProperties or "
    "unevaluatedProperties closing it, no patternProperties): any value is now accepted under that name, which is "
    "looser validation and additive for what clients send.",
    'client-sent base: "properties": {"_meta": {...}, "name": {...}}; head: "properties": {"name": {...}}',
    "info",
)
PROPERTY_ADDED = _rule(
    "compat-property-added",
    "A new optional property; additive everywhere, closed shapes included (readers ignore what they do not know).",
    'base: "properties": {"verdict": {...}}; head: "properties": {"verdict": {...}, "score": {...}}',
    "info",
)
CAPABILITY_REMOVED = _rule(
    "compat-capability-removed",
    "A field of the discovery document (capabilities) is gone; clients that read it can no longer tell what the "
    "host offers.",
    'base: executionModel "properties": {"statefulResume": {...}}; head: no statefulResume',
    "error",
)
CAPABILITY_ADDED = _rule(
    "compat-capability-added",
    "A new optional field of the discovery document; additive (a host that does not advertise it stays v1).",
    'base: executionModel without "verifier"; head: "verifier": {"$ref": "#/$defs/verifier"}',
    "info",
)
REQUIRED_ADDED = _rule(
    "compat-required-added",
    "A property became required. Senders that leave it out are rejected; readers gain a guarantee.",
    'base: "required": ["runId"]; head: "required": ["runId", "status"]',
    client="error",
    host="info",
    artifact="error",
)
REQUIRED_REMOVED = _rule(
    "compat-required-removed",
    "A required property became optional: readers lose a guarantee; senders gain freedom.",
    'base: "required": ["runId", "status"]; head: "required": ["runId"]',
    client="info",
    host="error",
    artifact="error",
)

# --- values ------------------------------------------------------------------------------------

TYPE_CHANGED = _rule(
    "compat-type-changed",
    "The type changed to one that neither contains nor is contained in the old one.",
    'base: "type": "string"; head: "type": "integer"',
    "error",
)
TYPE_NARROWED = _rule(
    "compat-type-narrowed",
    "The type accepts less than before (number to integer, a type list shortened, a type added where none was).",
    'base: "type": "number"; head: "type": "integer"',
    client="error",
    host="info",
    artifact="error",
)
TYPE_WIDENED = _rule(
    "compat-type-widened",
    "The type accepts more than before (integer to number, a type list grown, a type removed).",
    'base: "type": "integer"; head: "type": "number"',
    client="info",
    host="error",
    artifact="error",
)
ENUM_VALUE_REMOVED = _rule(
    "compat-enum-value-removed",
    "An enum value is gone: senders of it are rejected and readers lose a meaning.",
    'base: "enum": ["pass", "fail", "revise"]; head: "enum": ["pass", "fail"]',
    "error",
)
ENUM_VALUE_ADDED = _rule(
    "compat-enum-value-added",
    "A new enum value. Additive for requests (looser) and for host output (readers ignore unknown values); a "
    "warning for artifacts, whose older readers may act on every value.",
    'base: "enum": ["golden", "rubric"]; head: "enum": ["golden", "rubric", "regression"]',
    client="info",
    host="info",
    artifact="warning",
)
ENUM_VALUE_COVERED = _rule(
    "compat-enum-value-covered",
    "An enum value left one anyOf branch while another branch of the union still accepts it (a "
    "case-insensitive pattern beside the list, say), or joined one while another already accepted it: "
    "no value is rejected or new.",
    'base: "anyOf": [{"enum": ["es2022", "ES2022"]}, {"pattern": "^[Ee][Ss]2022$"}]; head: "enum": ["es2022"]',
    "info",
)
CONST_CHANGED = _rule(
    "compat-const-changed",
    "A const value changed, appeared or disappeared.",
    'base: "const": "left"; head: "const": "right"',
    client="error",
    host="error",
    artifact="error",
)
BOUND_TIGHTENED = _rule(
    "compat-bound-tightened",
    "A bound accepts less: minimum/maximum, exclusive bounds, minLength/maxLength, minItems/maxItems, "
    "minProperties/maxProperties, multipleOf or uniqueItems.",
    'base: "maxLength": 64; head: "maxLength": 32',
    client="error",
    host="info",
    artifact="error",
)
BOUND_LOOSENED = _rule(
    "compat-bound-loosened",
    "A bound accepts more: readers may meet values they never saw before.",
    'base: "minimum": 1; head: "minimum": 0',
    client="info",
    host="warning",
    artifact="warning",
)
VERSION_CEILING_LOWERED = _rule(
    "compat-version-ceiling-lowered",
    "The maximum of an integer `version` (the execution-model ladder) went down: hosts at the top rung become invalid.",
    'base: "version": {"type": "integer", "maximum": 6}; head: "maximum": 5',
    "error",
)
VERSION_CEILING_RAISED = _rule(
    "compat-version-ceiling-raised",
    "The maximum of an integer `version` went up: a new rung of the ladder; additive, since rungs are cumulative.",
    'base: "version": {"type": "integer", "maximum": 5}; head: "maximum": 6',
    "info",
)
PATTERN_CHANGED = _rule(
    "compat-pattern-changed",
    "A pattern appeared, disappeared or changed; whether it accepts more or less cannot be decided, so review it.",
    'base: "pattern": "^[a-z]+$"; head: "pattern": "^[a-z0-9]+$"',
    "warning",
)
FORMAT_CHANGED = _rule(
    "compat-format-changed",
    "A format a JSON Schema draft defines appeared, disappeared or changed; review what it means for producers "
    "and readers. A name no draft defines is ignored by validators, so it coming or going is no change.",
    'base: "format": "date"; head: "format": "date-time"',
    "warning",
)
CLOSED = _rule(
    "compat-additional-properties-closed",
    "additionalProperties (or unevaluatedProperties) went from open to false or to a schema that refuses some "
    "value (one that accepts every JSON value leaves it open): senders of extra members are rejected, and host "
    "output can no longer grow.",
    'base: no "additionalProperties"; head: "additionalProperties": false',
    "error",
)
OPENED = _rule(
    "compat-additional-properties-opened",
    "additionalProperties (or unevaluatedProperties) went from false to open: a closed host or artifact shape "
    "may now carry anything (for content-free payloads this is the safety property).",
    'base: "additionalProperties": false; head: "additionalProperties": true',
    client="info",
    host="error",
    artifact="error",
)
BRANCH_ADDED = _rule(
    "compat-branch-added",
    "A oneOf/anyOf branch was added: senders gain a shape, readers may meet a shape they do not know.",
    'base: "oneOf": [{"$ref": "#/$defs/left"}]; head: "oneOf": [{"$ref": "#/$defs/left"}, {"$ref": "#/$defs/right"}]',
    client="info",
    host="warning",
    artifact="warning",
)
BRANCH_OVERLAPS = _rule(
    "compat-branch-overlaps",
    "A oneOf branch was added that takes values a kept branch takes: a value of both matched one branch "
    "before and matches two now, so the oneOf refuses it.",
    'base: "oneOf": [{"type": "string"}, {"type": "number"}]; head: "oneOf": [{"type": "string"}, '
    '{"type": "number"}, {"type": ["string", "null"]}]',
    client="error",
    host="warning",
    artifact="error",
)
BRANCH_REMOVED = _rule(
    "compat-branch-removed",
    "A oneOf/anyOf branch was removed: senders of that shape are rejected.",
    'base: "anyOf": [{"type": "string"}, {"type": "integer"}]; head: "anyOf": [{"type": "string"}]',
    client="error",
    host="warning",
    artifact="error",
)
UNION_ADDED = _rule(
    "compat-union-added",
    "A oneOf/anyOf appeared where the schema had none (and none of its keywords moved into it): a new "
    "constraint, so a value none of its branches accepts is rejected.",
    'base: "type": "object"; head: "type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]',
    client="error",
    host="info",
    artifact="error",
)
UNION_REMOVED = _rule(
    "compat-union-removed",
    "A oneOf/anyOf is gone as a whole (none of its branches became the schema): the constraint it made is "
    "lifted, so values it rejected are accepted and readers may meet them.",
    'base: "type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]; head: "type": "object"',
    client="info",
    host="warning",
    artifact="warning",
)
BRANCH_COVERED = _rule(
    "compat-branch-covered",
    "A union branch was removed whose every value the union still accepts (another branch of it, kept or new, "
    "takes them: an open catch-all such as a base result type, or a type split into branches), or an anyOf "
    "branch was added whose every value it already accepted; no value changes side. Code generated from the "
    "union gains or loses a type.",
    'base: "anyOf": [{"$ref": "#/$defs/result"}, {"allOf": [{"$ref": "#/$defs/result"}, {"required": ["id"]}]}]; '
    'head: "anyOf": [{"$ref": "#/$defs/result"}]',
    "info",
)
KEYWORD_CHANGED = _rule(
    "compat-keyword-changed",
    "Another validation keyword changed (allOf, not, if/then/else, contains, propertyNames, prefixItems, "
    "dependentRequired, ...); its effect is not classified, so review it.",
    'base: "propertyNames": {"pattern": "^[a-z]+$"}; head: no propertyNames',
    "warning",
)

# --- events, errors, operations ----------------------------------------------------------------

EVENT_TYPE_REMOVED = _rule(
    "compat-event-type-removed",
    "An event type is gone from the RunEventType enum or from the payload _typeIndex.",
    'base: _typeIndex "properties": {"agent.verified": {...}}; head: no agent.verified',
    "error",
)
EVENT_TYPE_ADDED = _rule(
    "compat-event-type-added",
    "A new event type; additive, because clients ignore event types they do not know.",
    'base: "enum": ["run.started"]; head: "enum": ["run.started", "agent.verified"]',
    "info",
)
EVENT_PAYLOAD_CHANGED = _rule(
    "compat-event-payload-changed",
    "An existing event type changed shape: its payload carries at least one breaking change (listed with it).",
    'base: agentVerified "required": ["verdict"]; head: verdict removed from properties',
    "error",
)
ERROR_CODE_REMOVED = _rule(
    "compat-error-code-removed",
    "An error code is gone from the error envelope's x-wop-http-status or from an operation in spec/api.",
    'base: "x-wop-http-status": {"validation_error": 400, "conflict": 409}; head: no "conflict"',
    "error",
)
ERROR_CODE_ADDED = _rule(
    "compat-error-code-added",
    "A new error code; additive.",
    'base: {"validation_error": 400}; head: {"validation_error": 400, "capability_not_provided": 501}',
    "info",
)
ERROR_STATUS_CHANGED = _rule(
    "compat-error-status-changed",
    "An error code is now sent with a different HTTP status; the code changed meaning.",
    'base: "capability_not_provided": 501; head: "capability_not_provided": 400',
    "error",
)
OPERATION_REMOVED = _rule(
    "compat-operation-removed",
    "An operation of spec/api is gone (matched by operationId).",
    "base: operationId getEvalSummary; head: no such operation",
    "error",
)
OPERATION_ADDED = _rule(
    "compat-operation-added",
    "A new operation in spec/api; additive.",
    "base: no getEvalSummary; head: operationId getEvalSummary",
    "info",
)
OPERATION_CHANGED = _rule(
    "compat-operation-changed",
    "An operation's method, path, request or response schema changed.",
    "base: getRun GET /v1/runs/{runId}; head: getRun GET /v1/run/{runId}",
    "error",
)
RESPONSE_REMOVED = _rule(
    "compat-response-removed",
    "A response status of an operation is gone.",
    "base: createRun responses 201, 400, 501; head: 201, 400",
    "error",
)
RESPONSE_ADDED = _rule(
    "compat-response-added",
    "A new response status of an operation; additive when it only answers new situations.",
    "base: getEvalSummary responses 200, 404; head: 200, 404, 409",
    "info",
)

# --- inputs and the audit trail ----------------------------------------------------------------

REF_LINK_OUTSIDE = _rule(
    "compat-ref-link-outside",
    "The tree of a git ref holds a symlink (or hard link) that leads outside the tree; it is not extracted, so "
    "whatever it stands for is not compared.",
    "base ref: schemas/shared.schema.json -> /etc/passwd",
    "error",
)
SETTINGS_UNREADABLE = _rule(
    "compat-settings-unreadable",
    "The [tool.wopgen] table of a compared version (a git ref or a folder) cannot be read (a TOML error, a key "
    "this wopgen does not know, a value of the wrong type), so its files are read with the current settings' "
    "layout: a part it keeps elsewhere would show as removed or added.",
    "base: pyproject.toml [tool.wopgen] schemas = 5",
    "warning",
)
ACCEPTED_STALE = _rule(
    "compat-accepted-stale",
    "An entry of the accepted-changes file matches no change of this comparison: the break it accepted is gone "
    "(or its rule or location is mistyped), so the entry no longer documents anything.",
    '[[accepted]] rule = "compat-property-removed", location = "schemas/thing.schema.json#/properties/gone"',
    "warning",
)
ACCEPTED_EXPIRED = _rule(
    "compat-accepted-expired",
    "An entry of the accepted-changes file is past its expiry date; the changes it matches count again.",
    "[[accepted]] ... expires = 2026-01-31 (today is later)",
    "warning",
)

# --- RFCs and baselines ------------------------------------------------------------------------

RFC_CLAIMS_ADDITIVE = _rule(
    "compat-rfc-claims-additive",
    "An RFC added or changed in the head says Compatibility `additive`, but a file in its Affects carries a "
    "breaking change.",
    "RFC 0090 Compatibility `additive`, Affects `schemas/capabilities.schema.json`; head removes limits.schemaRounds",
    "error",
)
BASELINE_UNAVAILABLE = _rule(
    "compat-baseline-unavailable",
    "[tool.wopgen] baseline names a ref that this checkout's git history does not have, so the compatibility "
    "comparison was skipped.",
    'baseline = "v1.0.0" in a shallow clone without tags',
    "info",
)


HINTS: dict[str, str] = {
    SCHEMA_REMOVED.id: "restore the file (or keep a deprecated copy), or allow the removal with a breaking RFC",
    SCHEMA_ADDED.id: "additive: list the new schema in the changelog",
    SCHEMA_RENAMED.id: "keep the old name as an alias ($ref to the new one) until users have moved, and say so in "
    "the changelog",
    SCHEMA_INVALID.id: "fix the schema so its metaschema accepts it (wopgen check names every problem), then compare "
    "again",
    DIRECTION_CHANGED.id: "make sure the schema's producers and readers agree with the new role; name the change in "
    "an RFC",
    DEF_REMOVED.id: "keep the definition (it costs nothing) or rename it with an alias; code generated from it loses "
    "a type",
    PROPERTY_UNLISTED.id: "additive for senders; if hosts still read the member, keep it listed",
    PROPERTY_ADDED.id: "additive: list the new member in the changelog",
    CAPABILITY_ADDED.id: "additive: hosts that do not advertise it stay v1",
    ENUM_VALUE_ADDED.id: "readers must ignore values they do not know; say so where the value is documented",
    EVENT_TYPE_ADDED.id: "additive: clients ignore event types they do not know",
    ERROR_CODE_ADDED.id: "additive: document when hosts send the new code",
    OPERATION_ADDED.id: "additive: list the operation in the changelog",
    RESPONSE_ADDED.id: "make sure clients treat the new status as they treat its class (4xx, 5xx)",
    VERSION_CEILING_RAISED.id: "additive: the new rung adds to the ones below it",
    PATTERN_CHANGED.id: "check that every value the old pattern accepted still matches (or that no sender uses the "
    "ones it drops)",
    FORMAT_CHANGED.id: "check that values valid under the old format stay valid under the new one",
    KEYWORD_CHANGED.id: "read the change: compat cannot tell whether it accepts more or less",
    BRANCH_ADDED.id: "readers of this union must handle or ignore the new shape",
    BRANCH_OVERLAPS.id: "make the new branch refuse what the kept one takes (a discriminating const), or use anyOf",
    UNION_REMOVED.id: "readers must accept the values the union used to rule out",
    BRANCH_COVERED.id: "nothing to do for validation; code generated from the union gains or loses a named type",
    REF_LINK_OUTSIDE.id: "replace the link with the file itself in that commit's tree, or compare against a folder",
    ACCEPTED_STALE.id: "remove the entry from the accepted-changes file, or correct its rule or location",
    ACCEPTED_EXPIRED.id: "fix the break, or renew the entry with a new date and a reason",
    RFC_CLAIMS_ADDITIVE.id: "make the change additive, or set Compatibility to `breaking` or `safety-fix` with a "
    "migration plan",
    BASELINE_UNAVAILABLE.id: "fetch it (git fetch origin <ref>, or a deeper clone) or change [tool.wopgen] baseline",
}


def hint_for(rule_id: str, severity: Severity) -> str:
    """What to do about a change: the rule's own advice, else the advice for its severity."""
    if severity is Severity.INFO and rule_id not in HINTS:
        return "nothing to do: additive or allowed; mention it in the changelog"
    return HINTS.get(rule_id) or default_hint(severity)


def default_hint(severity: Severity) -> str:
    if severity is Severity.ERROR:
        return (
            "keep the old contract (add an optional member, a new value or a new type instead), or ship it with an "
            "Active or Accepted RFC whose Compatibility is `breaking` or `safety-fix` and whose Affects names this file"
        )
    if severity is Severity.WARNING:
        return (
            "review whether producers and readers of this schema still agree; say so in the RFC that makes the change"
        )
    return ""

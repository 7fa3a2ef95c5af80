"""The event log validates in parts what it would validate whole, and refuses in the same words.

Where the envelope allows it (`schemas.envelope_parts`), an append validates the payload only: the
members the log builds are valid by construction or checked once (the runId per log, the type per
event type, each new timestamp). Hypothesis drives the log with payloads, run ids, clocks and causation
ids, valid and not, and holds every outcome to the whole validation (`schemas.event_judge`, then
`schemas.event_errors`) and every accepted event to `jsonschema` over the corpus. Corpora whose envelope
constrains what the log builds (lengths, bounds, members it never writes) validate each event whole.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from wopgen.checks.conformance import host_module
from wopgen.corpus import Corpus, load
from wopgen.generate.bundle import bundled_schema

PAYLOADS = "run-event-payloads"
GOOD_STAMP = "2026-01-01T00:00:00.000Z"
REFUSAL = "host bug: refusing to append an invalid {} event: "
UNKNOWN_TYPE = "agent.loop.iterated"  # not an event type of the corpus

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3),
    max_leaves=6,
)
valid_stamps = st.just(GOOD_STAMP) | from_schema({"type": "string", "format": "date-time"})
stamps = st.one_of(
    valid_stamps,
    valid_stamps,
    valid_stamps,
    st.sampled_from(["yesterday", "", "2026-13-01T00:00:00Z", "2026-01-01 00:00:00"])
    | st.none()
    | st.integers()
    | st.text(max_size=25),
)
causations = st.one_of(st.none(), st.none(), st.text(max_size=8), st.integers())
PROPERTY = settings(
    max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _definitions(corpus: Corpus) -> dict[str, str]:
    index = corpus.schemas_by_name[PAYLOADS].data["$defs"]["_typeIndex"]["properties"]
    return {event_type: "/$defs/" + ref["$ref"].rsplit("/", 1)[-1] for event_type, ref in index.items()}


_STRATEGIES: dict[tuple[str, bool], st.SearchStrategy[Any]] = {}


def _payload_strategy(corpus: Corpus, event_type: str, valid_only: bool = False) -> st.SearchStrategy[Any]:
    """Valid payloads of `event_type`; unless `valid_only`, also the same with one member replaced or
    removed, and any JSON value."""
    key = (event_type, valid_only)
    if key not in _STRATEGIES:
        valid = from_schema(bundled_schema(corpus, PAYLOADS, _definitions(corpus)[event_type]))
        _STRATEGIES[key] = valid if valid_only else _payloads(valid)
    return _STRATEGIES[key]


def _payloads(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    def broken(payload: Any) -> st.SearchStrategy[Any]:
        if not isinstance(payload, dict) or not payload:
            return st.just(payload)
        member = st.sampled_from(sorted(payload))
        replaced = st.tuples(member, json_values).map(lambda kv: {**payload, kv[0]: kv[1]})
        removed = member.map(lambda key: {k: v for k, v in payload.items() if k != key})
        return replaced | removed

    return st.one_of(valid, valid, valid.flatmap(broken), json_values)


def _appends(corpus: Corpus) -> st.SearchStrategy[list[tuple[str, Any, Any, Any]]]:
    """(event type, payload, timestamp the clock answers, causationId) of a few appends to one log."""
    types = st.sampled_from([*sorted(_definitions(corpus)), UNKNOWN_TYPE])
    one = types.flatmap(
        lambda event_type: st.tuples(
            st.just(event_type),
            _payload_strategy(corpus, event_type) if event_type != UNKNOWN_TYPE else json_values,
            stamps,
            causations,
        )
    )
    return st.lists(one, min_size=1, max_size=4)


class _Clock:
    """A clock answering whatever the test last set."""

    def __init__(self) -> None:
        self.next: Any = GOOD_STAMP

    def __call__(self) -> Any:
        return self.next


def _whole_outcome(schemas: ModuleType, event: dict[str, Any]) -> str | None:
    """What validating `event` whole decides: None to accept it, else the refusal's message."""
    event_type, payload = event["type"], event["payload"]
    judge = _whole_judge(schemas, event_type)
    if judge is not None and schemas.judged_valid(judge, event):
        return None
    problems = schemas.event_errors(event_type, payload, event)
    return REFUSAL.format(event_type) + "; ".join(problems) if problems else None


_WHOLE: dict[tuple[int, str], Any] = {}


def _whole_judge(schemas: ModuleType, event_type: str) -> Any:
    key = (id(schemas), event_type)
    if key not in _WHOLE:
        _WHOLE[key] = schemas.event_judge(event_type)
    return _WHOLE[key]


def _jsonschema_errors(corpus: Corpus, event: dict[str, Any]) -> list[str]:
    """Every error `jsonschema` finds in `event`: against the envelope, and its payload against its type's."""
    found = [e.message for e in corpus.validator("schemas/run-event.schema.json").iter_errors(event)]
    pointer = _definitions(corpus)[event["type"]]
    found += [
        e.message for e in corpus.validator(f"schemas/{PAYLOADS}.schema.json", pointer).iter_errors(event["payload"])
    ]
    return found


def test_the_repository_envelope_validates_in_parts(module):
    schemas = module.schemas
    parts = schemas.envelope_parts()
    assert parts is not None and (parts.event_id_length, parts.causation_length) == (1, 0)
    assert all(schemas.payload_judge(t) is not None for t in schemas.corpus()["payloadDefs"])
    assert schemas.payload_judge(UNKNOWN_TYPE) is None
    assert module.events.EventLog("run-1")._parts is parts
    assert module.events.EventLog("")._parts is None  # an empty runId breaks the envelope: validated whole


@PROPERTY
@given(data=st.data(), run_id=st.sampled_from(["run-1", "run-1", ""]) | st.text(max_size=4))
def test_every_append_has_the_outcome_of_the_whole_validation(module, repo_corpus, data, run_id):
    """Accepted events are exactly those the whole validation accepts, and valid to jsonschema; refusals
    carry the whole validation's message."""
    schemas, events = module.schemas, module.events
    clock = _Clock()
    log = events.EventLog(run_id, clock=clock)
    for event_type, payload, stamp, causation in data.draw(_appends(repo_corpus)):
        clock.next = stamp
        sequence = len(log.events)
        event = {
            "eventId": f"{run_id}.e{sequence}",
            "runId": run_id,
            "type": event_type,
            "payload": payload,
            "timestamp": stamp,
            "sequence": sequence,
            **({} if causation is None else {"causationId": causation}),
        }
        expected = _whole_outcome(schemas, event)
        try:
            appended = log.append(event_type, payload, causation_id=causation)
        except events.InvalidEvent as refusal:
            assert str(refusal) == expected
            assert len(log.events) == sequence
        else:
            assert expected is None, expected
            assert appended == event and log.events[-1] is appended
            assert _jsonschema_errors(repo_corpus, appended) == []


@settings(PROPERTY, max_examples=40)
@given(data=st.data(), run_id=st.text(min_size=1, max_size=6))
def test_valid_events_are_accepted_without_a_whole_validation(module, repo_corpus, monkeypatch, data, run_id):
    """The parts accept every valid event themselves: none falls back to validating it whole."""
    events = module.events

    def whole(*_: Any) -> None:
        raise AssertionError("a valid event was validated whole")

    monkeypatch.setattr(events, "_validate_whole", whole)
    clock = _Clock()
    log = events.EventLog(run_id, clock=clock)
    types = st.sampled_from(sorted(_definitions(repo_corpus)))
    for event_type in data.draw(st.lists(types, min_size=1, max_size=4)):
        payload = data.draw(_payload_strategy(repo_corpus, event_type, valid_only=True))
        clock.next = data.draw(valid_stamps)
        appended = log.append(event_type, payload, causation_id=data.draw(st.none() | st.text(max_size=8)))
        assert _jsonschema_errors(repo_corpus, appended) == []


def test_a_clock_turning_bad_is_refused_after_good_timestamps(module):
    """A checked timestamp is trusted again only as the same string object; any other answer is checked."""
    events = module.events
    clock = _Clock()
    log = events.EventLog("run-1", clock=clock)
    assert log.append("run.started", {"workflowId": "w"})["timestamp"] == GOOD_STAMP
    for bad in ("yesterday", GOOD_STAMP[:-1], None, 20260101, [GOOD_STAMP]):
        clock.next = bad
        with pytest.raises(events.InvalidEvent, match="timestamp"):
            log.append("run.suspended", {"reason": "clarify"})
    same = [GOOD_STAMP]  # one object answered twice, changed in between: never trusted without a check
    clock.next = same
    with pytest.raises(events.InvalidEvent, match="timestamp"):
        log.append("run.suspended", {"reason": "clarify"})
    same[0] = "later"
    with pytest.raises(events.InvalidEvent, match="timestamp"):
        log.append("run.suspended", {"reason": "clarify"})
    clock.next = "".join(["2026-01-01T00:00:00", ".000Z"])  # an equal string, another object: checked, valid
    assert log.append("run.suspended", {"reason": "clarify"})["sequence"] == 1


def test_a_causation_id_that_is_not_a_string_is_refused(module):
    events = module.events
    log = events.EventLog("run-1", clock=lambda: GOOD_STAMP)
    with pytest.raises(events.InvalidEvent, match="causationId"):
        log.append("run.started", {"workflowId": "w"}, causation_id=7)
    assert log.append("run.started", {"workflowId": "w"}, causation_id="")["causationId"] == ""


def test_concurrent_appends_take_distinct_sequences_in_order(module):
    log = module.events.EventLog("run-1")
    per_thread = 300

    def write() -> None:
        for _ in range(per_thread):
            log.append("run.suspended", {"reason": "clarify"})

    threads = [threading.Thread(target=write) for _ in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can, mid-append
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    kept = log.events
    assert [e["sequence"] for e in kept] == list(range(4 * per_thread))
    assert [e["eventId"] for e in kept] == [f"run-1.e{n}" for n in range(4 * per_thread)]


# Envelopes that constrain what the log builds, beyond what it can prove of it: each is validated whole,
# and the event that breaks it is refused, naming the member.
def _limited_event_id(envelope: dict[str, Any]) -> None:
    envelope["properties"]["eventId"]["maxLength"] = 9  # "run-1.e10" fits, "run-1.e100" does not


def _bounded_sequence(envelope: dict[str, Any]) -> None:
    envelope["properties"]["sequence"]["maximum"] = 99


def _patterned_event_id(envelope: dict[str, Any]) -> None:
    envelope["properties"]["eventId"]["pattern"] = r"^run-1\.e\d{1,2}$"


VARIANTS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "eventId maxLength": (_limited_event_id, "eventId"),
    "sequence maximum": (_bounded_sequence, "sequence"),
    "eventId pattern": (_patterned_event_id, "eventId"),
}


@pytest.fixture
def variant_module(
    corpus_copy: Callable[[], Path],
) -> Iterator[Callable[[Callable[[dict[str, Any]], None]], ModuleType]]:
    def build(change: Callable[[dict[str, Any]], None]) -> ModuleType:
        root = corpus_copy()
        path = root / "schemas" / "run-event.schema.json"
        envelope = json.loads(path.read_text(encoding="utf-8"))
        change(envelope)
        path.write_text(json.dumps(envelope, indent=2), encoding="utf-8")
        return host_module(load(root))

    yield build


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_an_envelope_constraining_built_members_is_validated_whole(variant_module, variant):
    change, member = VARIANTS[variant]
    module = variant_module(change)
    assert module.schemas.envelope_parts() is None
    log = module.events.EventLog("run-1", clock=lambda: GOOD_STAMP)
    for _ in range(100):
        log.append("run.suspended", {"reason": "clarify"})
    with pytest.raises(module.events.InvalidEvent, match=member):
        log.append("run.suspended", {"reason": "clarify"})  # the 101st: eventId run-1.e100, sequence 100
    assert len(log.events) == 100


def test_a_minimum_event_id_length_holds_for_long_enough_prefixes_only(variant_module):
    def longer(envelope: dict[str, Any]) -> None:
        envelope["properties"]["eventId"]["minLength"] = 8

    module = variant_module(longer)
    parts = module.schemas.envelope_parts()
    assert parts is not None and parts.event_id_length == 8
    assert module.events.EventLog("run-1")._parts is parts  # "run-1.e" and a digit: 8 characters
    short = module.events.EventLog("r", clock=lambda: GOOD_STAMP)
    assert short._parts is None
    with pytest.raises(module.events.InvalidEvent, match="eventId"):
        short.append("run.suspended", {"reason": "clarify"})


def test_an_envelope_requiring_a_member_the_log_never_writes_refuses_every_event(variant_module):
    def node_required(envelope: dict[str, Any]) -> None:
        envelope["required"].append("nodeId")

    module = variant_module(node_required)
    assert module.schemas.envelope_parts() is None
    with pytest.raises(module.events.InvalidEvent, match="nodeId"):
        module.events.EventLog("run-1", clock=lambda: GOOD_STAMP).append("run.suspended", {"reason": "clarify"})

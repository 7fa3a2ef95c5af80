"""The host, independent of any transport: `Host.handle(request) -> Response`.

Routes come from the corpus's API description (routes.py); each operation is answered by the
handler its `METHOD path` names in HANDLERS. Every failure becomes an error envelope; an
unexpected exception becomes `internal_error` without any detail of where it happened.

Work is bounded per request and per host: bodies are strict JSON (no NaN or Infinity, no number
beyond a double, nesting at most MAX_JSON_DEPTH deep); each request has a CPU budget (budget.py);
the run store keeps at most `max_runs` runs and about `max_run_bytes` bytes, evicting the oldest
finished runs first; at most `max_streams` event streams are open at once. The limits are
advertised in discovery under `extensions.wopgen`.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import math
import sys
import threading
import traceback
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from urllib.parse import parse_qs, urlsplit

from .budget import OverBudget, budget
from .errors import HostError
from .evals import EVAL_AGENT, Evaluation, load_suite, recorded_answers
from .events import TERMINAL_EVENTS, Clock, utc_now
from .gates import vouch
from .loop import Loop
from .profiles import Profile, profile
from .routes import ROUTES, Route
from .runs import SUSPENDED, Engine, Run, size
from .schemas import corpus, errors
from .script import LOOP_FIXTURE, parse_script
from .seams import Seams
from .surface import SurfaceHandlers

# Which handler answers which operation of the API description.
HANDLERS: dict[str, str] = {
    "GET /.well-known/openwop": "discovery",
    "GET /v1/openapi.json": "get_openapi",
    "GET /v1/workflows/{workflowId}": "get_workflow",
    "POST /v1/runs/{runId}/cancel": "cancel_run",
    "POST /v1/runs": "create_run",
    "GET /v1/runs/{runId}": "get_run",
    "GET /v1/runs/{runId}/events": "stream_events",
    "GET /v1/runs/{runId}/events/poll": "poll_events",
    "POST /v1/runs/{runId}/resume": "resume_run",
    "POST /v1/runs/{runId}:resume": "resume_run",
    "GET /v1/runs/{runId}/eval-summary": "eval_summary",
    "GET /v1/runs/{runId}/verifications/{resultId}": "verification_result",
    "POST /v1/host/sample/agentloop/run": "seam_agentloop",
    "POST /v1/host/sample/agents/verify-run": "seam_verify",
    "POST /v1/host/sample/agents/eval-run": "seam_eval",
    "POST /v1/host/sample/verification/run": "seam_verification",
}
LEGACY_LOOP_FIXTURE = "conformance.scripted-loop"  # the scripted loop's id before the catalogue; still accepted
SSE_WAIT_SECONDS = 15.0
MAX_POLL_SECONDS = 30.0
MAX_JSON_DEPTH = 64  # arrays and objects nested in a request body
MAX_RUNS = 1000  # runs the store keeps by default
MAX_RUN_BYTES = 32 * 1024 * 1024  # what they may weigh together by default (see Run.weight)
MAX_STREAMS = 64  # event streams open at once by default
REQUEST_CPU_SECONDS = 5.0  # CPU time one request may use by default
RETRY_AFTER_SECONDS = 1  # what a 503 or an idempotency_in_flight asks a client to wait before trying again
ANONYMOUS = "scope-anonymous"  # the owner of every run on a host that checks no keys


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} overflows a double")
    return value


# The fewest digits of an integer no double can hold (the largest double is below 1.8e308).
LONG_DIGITS = 309


def _bounded_int(text: str) -> int:
    value = int(text)
    float(value)  # OverflowError past the largest double: such a number cannot travel as JSON
    return value


# The two strict readers, made once (json.loads with options makes a decoder per call): one checks every
# integer, for the bodies holding enough digits to write one beyond a double.
_STRICT = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)
_STRICT_INTEGERS = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_bounded_int)


def parse_json(raw: bytes) -> Any:
    """A request body as strict JSON (RFC 8259): a ValueError for anything else, or nesting past MAX_JSON_DEPTH.

    What cannot happen in a body is not looked for: an integer beyond a double needs more than 300
    digits, and nesting past the limit more brackets than the body holds.
    """
    text = raw.decode("utf-8")
    try:
        short = len(raw) - len(raw.translate(None, b"0123456789")) < LONG_DIGITS  # one pass in C counts the digits
        value = (_STRICT if short else _STRICT_INTEGERS).decode(text)
    except (RecursionError, OverflowError) as exc:
        raise ValueError(f"the body is nested too deep or holds a number too large: {exc}") from None
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return value
    level, depth = [value], 0
    while level:
        depth += 1
        if depth > MAX_JSON_DEPTH:
            raise ValueError(f"the body nests arrays and objects more than {MAX_JSON_DEPTH} deep")
        level = [
            child
            for node in level
            if isinstance(node, dict | list)
            for child in (node.values() if isinstance(node, dict) else node)
            if isinstance(child, dict | list)
        ]
    return value


def effective_configurable(raw: Any) -> dict[str, Any]:
    """`configurable` as the host reads it: null members mean unset, and `extras` members count as top-level.

    The published 1.x Python client sends every reserved key (null when unset) and nests caller-defined keys
    under `extras`; the schema accepts that, and this is where it is read the same as the flat form.
    """
    if not isinstance(raw, dict):
        return {}
    extras = raw.get("extras")
    lifted = dict(extras) if isinstance(extras, dict) else {}
    lifted.update({key: value for key, value in raw.items() if key != "extras" and value is not None})
    return lifted


@dataclass
class Response:
    status: int
    body: Any = None  # JSON-serialisable, or None
    headers: dict[str, str] = field(default_factory=dict)
    stream: Iterator[bytes] | None = None  # server-sent events
    raw: bytes | None = None  # the body already encoded, for answers that never change

    def encoded(self) -> bytes:
        """The body as JSON; a ValueError rather than a non-JSON token such as NaN."""
        if self.raw is not None:
            return self.raw
        return b"" if self.body is None else json.dumps(self.body, sort_keys=True, allow_nan=False).encode("utf-8")


class _Stream:
    """An event stream holding one of the host's stream slots until it ends or is closed."""

    def __init__(self, chunks: Generator[bytes, None, None], release: Callable[[], None]) -> None:
        self._chunks = chunks
        self._release: Callable[[], None] | None = release

    def __iter__(self) -> _Stream:
        return self

    def __next__(self) -> bytes:
        try:
            return next(self._chunks)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            self._chunks.close()
            release()

    def __del__(self) -> None:
        self.close()


class Host(SurfaceHandlers):
    """One in-memory host. Runs execute inside the request that starts or resumes them, unless
    `deferred` is set, in which case they wait for `drain()` (how tests observe a running run).

    `api_key` and each of `other_keys` is a bearer key of its own owner scope: every run belongs to the
    scope of the key that started it (runs the host starts itself: the scope of `api_key`), and a key
    of another scope reading it gets the 404 an unknown id gets, and a run named inside a request
    (`baselineRunId`) is looked up in the caller's scope only: a foreign run reads as an unknown one.
    """

    def __init__(
        self,
        profile_name: str = "full",
        api_key: str = "",
        suites: Mapping[str, str] | None = None,
        clock: Clock = utc_now,
        deferred: bool = False,
        on_error: Callable[[BaseException], None] | None = None,
        other_keys: Sequence[str] = (),
        max_runs: int = MAX_RUNS,
        max_run_bytes: int = MAX_RUN_BYTES,
        max_streams: int = MAX_STREAMS,
        request_cpu_seconds: float | None = REQUEST_CPU_SECONDS,
    ) -> None:
        self.profile: Profile = profile(profile_name)
        if min(max_runs, max_run_bytes, max_streams) < 1 or (request_cpu_seconds or 1) <= 0:
            raise ValueError("the run store, stream and CPU limits must be positive")
        self.max_runs, self.max_run_bytes, self.max_streams = max_runs, max_run_bytes, max_streams
        self.request_cpu_seconds = request_cpu_seconds
        self.api_key = api_key
        self.scopes: dict[str, str] = {key: f"scope-{n}" for n, key in enumerate(other_keys, start=2) if key}
        self.scopes[api_key] = "scope-1"
        self.clock = clock
        self.deferred = deferred
        self.on_error = on_error or (lambda exc: traceback.print_exception(exc, file=sys.stderr))
        self.suites: dict[str, dict[str, Any]] = {}
        for origin, text in sorted({**corpus()["suites"], **(suites or {})}.items()):
            suite = load_suite(text, origin)
            self.suites[suite["suiteId"]] = suite
        self.fixtures: dict[str, dict[str, Any]] = dict(corpus().get("fixtures", {}))
        self.runs: OrderedDict[str, Run] = OrderedDict()  # oldest first
        # (owner, Idempotency-Key) -> (digest of the body, the answer; None while answering), oldest first
        self._idempotent: OrderedDict[tuple[str, str], tuple[str, dict[str, Any] | None]] = OrderedDict()
        self._weights: dict[str, int] = {}  # run id -> its weight when last measured
        self._total = 0  # the sum of the weights
        self._streams = 0
        self._queue: list[Callable[[], None]] = []
        self._ids = itertools.count(1)
        self._lock = threading.RLock()
        self.seams = Seams(self)

    # --- transport entry point ----------------------------------------------------------------

    def handle(self, method: str, target: str, headers: Mapping[str, str], body: bytes = b"") -> Response:
        try:
            with budget(self.request_cpu_seconds):
                return self._handle(method.upper(), target, {k.lower(): v for k, v in headers.items()}, body)
        except HostError as exc:
            # RFC 6750: a 401 names the scheme the client must use.
            extra = {}
            if exc.status == 401:
                extra["WWW-Authenticate"] = 'Bearer realm="openwop"'
            elif exc.status == 503 or exc.code == "idempotency_in_flight":  # a slot frees, or the first answer lands
                extra["Retry-After"] = str(RETRY_AFTER_SECONDS)
            return Response(exc.status, exc.envelope(), extra)
        except Exception as exc:  # a host bug (an InvalidEvent, say): reported by the host, never sent to the client
            self.on_error(exc)
            return Response(500, HostError("internal_error", "the host failed to answer this request").envelope())

    def _handle(self, method: str, target: str, headers: dict[str, str], body: bytes) -> Response:
        parts = urlsplit(target)
        route, params = self._route(method, parts.path)
        owner = None if route.public else self._authenticate(headers)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()} if parts.query else {}
        name = HANDLERS[f"{route.method} {route.path}"]
        handler: Callable[..., Response] = getattr(self, name)
        if name in _READ_WHEN_NEEDED:  # the handler decodes the body itself, only when it needs it
            return handler(params=params, query=query, headers=headers, raw=body, route=route, owner=owner)
        payload = self._body(route, body) if method in ("POST", "PUT", "PATCH") else None
        return handler(params=params, query=query, headers=headers, body=payload, owner=owner)

    def _route(self, method: str, path: str) -> tuple[Route, dict[str, str]]:
        fixed = _FIXED_ROUTES.get((method, path))
        if fixed is not None:
            return fixed, {}
        for route in ROUTES:
            match = route.pattern.match(path)
            if match and route.method == method:
                return route, match.groupdict()
        raise HostError("not_found", f"no operation {method} {path}")

    def _authenticate(self, headers: dict[str, str]) -> str:
        """The owner scope of the request's bearer key (one anonymous scope on a host that does not check keys)."""
        if self.profile.defect("auth-not-enforced"):
            return ANONYMOUS
        scheme, _, key = headers.get("authorization", "").partition(" ")
        given = key.strip().encode("utf-8")
        if scheme.lower() == "bearer" and given:
            for known, scope in self.scopes.items():
                if known and hmac.compare_digest(given, known.encode("utf-8")):
                    return scope
        raise HostError("unauthenticated", "send Authorization: Bearer <api key>")

    def _body(self, route: Route, raw: bytes) -> Any:
        if len(raw) > self.profile.max_body_bytes:
            raise HostError("validation_error", f"the body is larger than {self.profile.max_body_bytes} bytes")
        try:
            value = parse_json(raw) if raw.strip() else {}
        except UnicodeDecodeError:
            raise HostError("validation_error", "the body is not UTF-8 JSON") from None
        except ValueError as exc:
            raise HostError("validation_error", f"the body is not strict JSON: {str(exc)[:200]}") from None
        if route.request_schema is not None:
            problems = errors(route.request_schema, value)
            if problems:
                raise HostError("validation_error", "the body breaks its schema", {"errors": problems[:20]})
        return value

    # --- runs ---------------------------------------------------------------------------------

    def visible(self, run_id: str, owner: str | None = None) -> Run | None:
        """The run `run_id` if a caller of scope `owner` may see it (None: the host itself), else None:
        another scope's run is treated exactly as an unknown id, so no answer tells which ids exist."""
        with self._lock:
            found = self.runs.get(run_id)
        return None if found is None or (owner is not None and found.owner != owner) else found

    def run(self, run_id: str, owner: str | None = None) -> Run:
        """The run `run_id`, as a caller of scope `owner` may see it; `not_found` otherwise."""
        found = self.visible(run_id, owner)
        if found is None:
            raise HostError("not_found", f"no run {run_id}")
        return found

    def new_run(self, workflow_id: str, request: dict[str, Any], owner: str | None = None) -> Run:
        """A new run owned by `owner` (None: the scope of the host's own key), once the store has room."""
        weight = size(request)
        with self._lock:
            self._evict(weight)
            run = Run(
                f"run-{next(self._ids)}", workflow_id, request, self.clock, owner or self.scopes[self.api_key], weight
            )
            self.runs[run.run_id] = run
            self._weights[run.run_id] = weight
            self._total += weight
        return run

    def _evict(self, incoming: int | None = None, keep: str = "") -> None:
        """Drop the oldest finished runs (never `keep`) until the store is within its limits.

        With `incoming`, until one more run of that many bytes fits, refusing it when it cannot.
        """
        room = 0 if incoming is None else 1
        count, total, victims = len(self.runs), self._total + (incoming or 0), []
        for run_id, run in self.runs.items():  # oldest first; stops as soon as the store is within bounds
            if count + room <= self.max_runs and total <= self.max_run_bytes:
                break
            if run.terminal and run_id != keep:
                victims.append(run_id)
                count, total = count - 1, total - self._weights[run_id]
        for run_id in victims:
            self.runs.pop(run_id).release()
            self._total -= self._weights.pop(run_id)
        if incoming is not None and (count + room > self.max_runs or total > self.max_run_bytes):
            raise HostError(
                "capacity_exhausted",
                "the run store is full of unfinished runs; retry once some have finished",
                {"maxRuns": self.max_runs, "maxRunBytes": self.max_run_bytes},
            )

    def _measure(self, run: Run) -> None:
        """Record what a run weighs now that it has done some work."""
        with self._lock:
            if run.run_id in self.runs:
                weight = run.weight()
                self._total += weight - self._weights[run.run_id]
                self._weights[run.run_id] = weight
                self._evict(keep=run.run_id)

    def schedule(self, run: Run, work: Callable[[], None]) -> None:
        """Do `work` on `run` now, or when a deferred host drains; waiting readers wake either way."""

        def step() -> None:
            try:
                work()
            except OverBudget as exc:
                if not run.terminal:
                    with budget(None):
                        run.fail("budget_exceeded", exc.message, exc.details)
                exc.details = {**(exc.details or {}), "runId": run.run_id}
                raise
            finally:
                self._measure(run)
                run.log.notify()

        if self.deferred:
            self._queue.append(step)
        else:
            step()

    def drain(self) -> None:
        """Do the work a deferred host has queued."""
        while self._queue:
            self._queue.pop(0)()

    def start_run(self, request: dict[str, Any], task_limit: int | None = None, owner: str | None = None) -> Run:
        """Validate a create request and start the run it asks for (an eval run: its first `task_limit` tasks).

        `owner` is the caller's scope (None: the host's own key's); a baseline run is looked up within it.
        """
        if "configurable" in request:
            request = {**request, "configurable": effective_configurable(request["configurable"])}
        workflow, factory = self._plan(request, task_limit, owner or self.scopes[self.api_key])
        return self.launch(workflow, request, factory, owner)

    def launch(
        self, workflow: str, request: dict[str, Any], factory: Callable[[Run], Engine], owner: str | None = None
    ) -> Run:
        """Start a run of `workflow` whose engine `factory` makes."""
        run = self.new_run(workflow, request, owner)
        run.factory = factory
        engine = run.engine = factory(run)
        self.schedule(run, engine.advance)
        return run

    def replay(self, run_id: str) -> list[dict[str, Any]]:
        """Re-execute a run from its log: its request, its recorded timestamps, the resumes it received.

        On a host that implements replay determinism the result equals the run's log event for event.
        """
        original = self.run(run_id)
        assert original.factory is not None
        recorded = iter([e["timestamp"] for e in original.log.events])
        copy = Run(original.run_id, original.workflow_id, original.request, lambda: next(recorded))
        copy.engine = original.factory(copy)
        copy.engine.advance()
        for event in original.log.events:
            if event["type"] == "run.resumed" and copy.status == SUSPENDED:
                copy.resume(event["payload"].get("reason"))
        return copy.log.events

    def _plan(self, request: dict[str, Any], task_limit: int | None, owner: str) -> tuple[str, Callable[[Run], Engine]]:
        """The workflow id and the engine a create request asks for, or the reason it is refused."""
        if request.get("mode") == "eval":
            return self._plan_eval(request, task_limit, owner)
        workflow = request.get("workflowId")
        if not workflow:
            raise HostError("validation_error", "workflowId is required unless mode is eval", {"field": "workflowId"})
        if workflow not in (LOOP_FIXTURE, LEGACY_LOOP_FIXTURE):
            if workflow not in self.profile.capabilities["fixtures"]:  # unknown, or with nodes this host cannot run
                raise HostError(
                    "validation_error", f"this host cannot run the workflow {workflow}", {"field": "workflowId"}
                )
            return workflow, self.engine_for(workflow)
        if self.profile.version < 1:
            raise HostError("capability_not_provided", "this host runs no orchestrator loop")
        script = parse_script(request.get("inputs", {}).get("script"))
        if any(t.workspace_write for t in script.turns) and not self.profile.workspace:
            raise HostError("capability_not_provided", "this host offers no workspace")
        bound = self.profile.max_loop_iterations
        asked = request.get("configurable", {}).get("maxLoopIterations")
        if isinstance(asked, int):
            bound = min(bound, asked)
        return workflow, lambda run: Loop(run, self.profile, script, bound)

    def _plan_eval(
        self, request: dict[str, Any], task_limit: int | None, owner: str
    ) -> tuple[str, Callable[[Run], Engine]]:
        if not self.profile.eval_advertised or self.profile.defect("eval-advertised-not-implemented"):
            raise HostError("capability_not_provided", "this host does not run evaluations (agents.evalSuite)")
        ref = request.get("evalSuiteRef")
        if not ref:
            raise HostError("validation_error", "an eval run needs evalSuiteRef", {"field": "evalSuiteRef"})
        suite_id, _, version = ref.partition("@")
        suite = self.suites.get(suite_id)
        if suite is None or (version and suite["version"] != version):
            raise HostError("validation_error", f"no eval suite {ref} on this host", {"field": "evalSuiteRef"})
        configurable = request.get("configurable", {})
        modes = list(configurable.get("evalModes") or suite["modes"])
        unadvertised = sorted((set(modes) | set(suite["modes"])) - set(self.profile.eval_modes))
        if unadvertised:
            raise HostError(
                "validation_error",
                f"this host does not offer the eval modes {', '.join(unadvertised)}",
                {"modes": unadvertised, "offered": list(self.profile.eval_modes)},
            )
        if task_limit is not None:
            if task_limit > len(suite["tasks"]):
                raise HostError("validation_error", f"{suite_id} has only {len(suite['tasks'])} tasks")
            suite = {**suite, "tasks": suite["tasks"][:task_limit]}
        if len(suite["tasks"]) > self.profile.max_tasks:
            raise HostError("validation_error", f"the suite has more than {self.profile.max_tasks} tasks")
        baseline = None
        if "baselineRunId" in configurable:
            baseline = self.visible(str(configurable["baselineRunId"]), owner)
            if baseline is None or baseline.mode != "eval" or baseline.status != "completed":
                raise HostError("validation_error", "baselineRunId must name a finished eval run on this host")
            if baseline.output["suiteId"] != suite["suiteId"]:
                raise HostError("validation_error", "the baseline ran another suite")
        agent = request.get("agentId") or suite.get("targetAgentId") or EVAL_AGENT
        tasks = Evaluation.check_tasks(suite, modes)
        shadow = self._shadowed(configurable.get("shadowRunId"), modes, tasks, owner)
        workflow = request.get("workflowId") or f"eval:{suite['suiteId']}"
        return workflow, lambda run: Evaluation(run, self.profile, suite, modes, tasks, agent, baseline, shadow)

    def _shadowed(
        self, run_id: Any, modes: list[str], tasks: list[dict[str, Any]], owner: str
    ) -> tuple[str, dict[str, Any]] | None:
        """RFC 0081 live-shadow, as this host (which has no live tools) offers it: the completed run of the
        caller whose recorded answers are scored, with those answers; None outside live-shadow mode."""
        if "live-shadow" not in modes:
            if run_id is not None:
                raise HostError(
                    "validation_error", "shadowRunId is read in live-shadow mode only", {"field": "shadowRunId"}
                )
            return None
        if run_id is None:
            raise HostError(
                "validation_error",
                "live-shadow on this host scores a completed run's recorded answers: name it in shadowRunId",
                {"field": "shadowRunId"},
            )
        source = self.visible(str(run_id), owner)
        if source is None or source.status != "completed":
            raise HostError(
                "validation_error", "shadowRunId must name a completed run of yours", {"field": "shadowRunId"}
            )
        answers = recorded_answers(source)
        missing = sorted(t["taskId"] for t in tasks if t["taskId"] not in answers)
        if missing:
            raise HostError(
                "validation_error",
                f"run {source.run_id} recorded no answer for the tasks {', '.join(missing)}",
                {"field": "shadowRunId", "tasks": missing},
            )
        return source.run_id, answers

    # --- handlers -----------------------------------------------------------------------------

    def discovery(self, **_: Any) -> Response:
        return Response(200, self.capabilities, {"Cache-Control": "public, max-age=300"}, raw=self._discovery_bytes)

    @cached_property
    def _discovery_bytes(self) -> bytes:
        """The discovery document encoded once: it never changes while the host runs."""
        return Response(200, self.capabilities).encoded()

    @cached_property
    def capabilities(self) -> dict[str, Any]:
        """The profile's discovery document, with this host's own limits as a vendor extension."""
        document = dict(self.profile.capabilities)
        limits: dict[str, Any] = {
            "runStore": {"maxRuns": self.max_runs, "maxBytes": self.max_run_bytes, "evicts": "oldest-finished"},
            "maxEventStreams": self.max_streams,
            "maxJsonDepth": MAX_JSON_DEPTH,
        }
        if self.request_cpu_seconds is not None:
            limits["requestCpuMs"] = round(self.request_cpu_seconds * 1000)
        document["extensions"] = {**document.get("extensions", {}), "wopgen": limits}
        return document

    def create_run(self, body: dict[str, Any], headers: dict[str, str], owner: str, **_: Any) -> Response:
        """Start a run; a retry with the same `Idempotency-Key` (per owner scope) is answered as the first request was.

        The same key with another body is a 409 `idempotency_key_mismatch`; a retry while the first request is still
        being answered, a 409 `idempotency_in_flight`. The store keeps the latest `max_runs` keys, each with a digest
        of its body and its answer; a request refused (a 4xx or 5xx) keeps no key.
        """
        key = headers.get("idempotency-key")
        if not key:
            return self._created(self.start_run(body, owner=owner))
        slot = (owner, key)
        digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
        with self._lock:
            kept = self._idempotent.get(slot)
            if kept is None:
                self._idempotent[slot] = (digest, None)  # taken: a concurrent retry is refused, not a second run
        if kept is not None:
            sent, answer = kept
            if sent != digest:
                raise HostError(
                    "idempotency_key_mismatch",
                    "this Idempotency-Key came with another body",
                    {"header": "Idempotency-Key"},
                )
            if answer is None:
                raise HostError(
                    "idempotency_in_flight",
                    "a request with this Idempotency-Key is still being answered",
                    {"header": "Idempotency-Key", "retryAfter": RETRY_AFTER_SECONDS},
                )
            return Response(201, answer, {"Location": answer["statusUrl"], "OpenWOP-Idempotent-Replay": "true"})
        try:
            created = self._created(self.start_run(body, owner=owner))
        except BaseException:
            with self._lock:
                self._idempotent.pop(slot, None)  # a refused request keeps no key: a corrected retry may use it
            raise
        with self._lock:
            self._idempotent[slot] = (digest, created.body)
            while len(self._idempotent) > self.max_runs:
                self._idempotent.popitem(last=False)
        return created

    def _created(self, run: Run) -> Response:
        base = f"/v1/runs/{run.run_id}"
        answer = {"runId": run.run_id, "status": run.status, "eventsUrl": base + "/events", "statusUrl": base}
        if self.profile.defect("create-answer-drops-events-url"):
            del answer["eventsUrl"]
        return Response(201, answer, {"Location": base})

    def get_run(self, params: dict[str, str], owner: str | None, **_: Any) -> Response:
        return Response(200, self.run(params["runId"], owner).snapshot())

    def poll_events(self, params: dict[str, str], query: dict[str, str], owner: str | None, **_: Any) -> Response:
        run = self.run(params["runId"], owner)
        after = _integer(query.get("lastSequence"), -1, "lastSequence")
        wait = min(_seconds(query.get("timeout"), "timeout"), MAX_POLL_SECONDS)
        events = run.log.wait_after(after, wait, lambda: run.terminal) if wait > 0 else run.log.after(after)
        return Response(200, {"events": events, "isComplete": run.terminal})

    def stream_events(self, params: dict[str, str], headers: dict[str, str], owner: str | None, **_: Any) -> Response:
        run = self.run(params["runId"], owner)
        # The id a client saw: the frame's `id` (the sequence) or the envelope's `eventId`, which the SDKs expose.
        last = headers.get("last-event-id")
        seen = run.log.sequence_of(last) if last else None
        after = _integer(last, -1, "Last-Event-ID", "a sequence or an eventId of this run") if seen is None else seen
        sse = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        with self._lock:
            if self._streams >= self.max_streams:
                raise HostError(
                    "capacity_exhausted",
                    f"{self.max_streams} event streams are open, this host's limit; poll the events, or retry later",
                    {"maxEventStreams": self.max_streams},
                )
            self._streams += 1
        return Response(200, None, sse, stream=_Stream(self._sse(run, after), self._stream_ended))

    def _stream_ended(self) -> None:
        with self._lock:
            self._streams -= 1

    def _sse(self, run: Run, after: int) -> Generator[bytes, None, None]:
        while True:
            batch = run.log.wait_after(after, SSE_WAIT_SECONDS, lambda: run.terminal or run.status == SUSPENDED)
            for event in batch:
                data = json.dumps(event, sort_keys=True, allow_nan=False)
                yield f"id: {event['sequence']}\nevent: {event['type']}\ndata: {data}\n\n".encode()
                after = event["sequence"]
                if event["type"] in TERMINAL_EVENTS:
                    return
            if not batch:
                if run.terminal or run.status == SUSPENDED:
                    return  # nothing more will come until someone resumes the run
                yield b": keep-alive\n\n"

    def resume_run(self, params: dict[str, str], body: dict[str, Any], owner: str | None, **_: Any) -> Response:
        run = self.run(params["runId"], owner)
        if run.status != SUSPENDED:
            raise HostError("conflict", f"run {run.run_id} is {run.status}, not suspended")
        resumed_at = self.clock()
        self.schedule(run, lambda: run.resume(body.get("reason")))
        # The answer describes the transition the request caused (suspended -> running), as v1 clients
        # expect, even when this in-memory host has already run the loop to its end.
        return Response(200, {"runId": run.run_id, "status": "running", "resumedAt": resumed_at})

    def eval_summary(self, params: dict[str, str], owner: str | None, **_: Any) -> Response:
        run = self.run(params["runId"], owner)
        if run.mode != "eval":
            raise HostError("not_found", f"run {run.run_id} is not an eval run")
        if run.status != "completed":
            raise HostError("conflict", f"eval run {run.run_id} is {run.status}; its scorecard is not ready")
        return Response(200, run.output)

    def verification_result(self, params: dict[str, str], owner: str | None, **_: Any) -> Response:
        """RFC 0901: one verification result with its findings, for callers allowed to read the run."""
        run = self.run(params["runId"], owner)
        result_id = params["resultId"]
        if result_id not in run.verifications or self.profile.defect("verification-gates-advertised-not-implemented"):
            raise HostError("not_found", f"run {run.run_id} has no verification result {result_id}")
        if run.verifications[result_id] is None:
            raise HostError("conflict", f"verification result {result_id} is still being graded")
        return Response(200, vouch(run, result_id, self.profile))

    def seam_agentloop(self, body: dict[str, Any], owner: str | None, **_: Any) -> Response:
        return Response(200, self.seams.agentloop(body, owner))

    def seam_verify(self, body: dict[str, Any], owner: str | None, **_: Any) -> Response:
        return Response(200, self.seams.verify(body, owner))

    def seam_eval(self, body: dict[str, Any], owner: str | None, **_: Any) -> Response:
        return Response(200, self.seams.evaluate(body, owner))

    def seam_verification(self, raw: bytes, route: Route, owner: str | None, **_: Any) -> Response:
        return Response(200, self.seams.verification(raw, lambda: self._body(route, raw), owner))


# The handlers given the body as sent, with a way to decode and validate it (`Host._body`) when they need
# to: the verification seam knows the plan of a body it has read before, and then does not read it again.
_READ_WHEN_NEEDED = frozenset({"seam_verification"})


# The paths without a parameter, each with the operation the walk past every pattern would choose for it (the
# first in ROUTES that matches), found by one lookup instead.
_FIXED_ROUTES: dict[tuple[str, str], Route] = {
    (fixed.method, fixed.path): next(r for r in ROUTES if r.method == fixed.method and r.pattern.match(fixed.path))
    for fixed in ROUTES
    if "{" not in fixed.path and fixed.pattern.match(fixed.path)
}


def _seconds(raw: str | None, name: str) -> float:
    """A number of seconds (`0.5` as well as `2`, as the API describes `timeout`); absent means 0."""
    if raw is None or raw == "":
        return 0.0
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not math.isfinite(value) or value < 0:
        raise HostError("validation_error", f"{name} must be a number of seconds, 0 or more")
    return value


def _integer(raw: str | None, default: int, name: str, what: str = "an integer") -> int:
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise HostError("validation_error", f"{name} must be {what}") from None

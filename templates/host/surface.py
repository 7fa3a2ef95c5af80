"""The rest of the v1 core surface: the OpenAPI document, workflow definitions, cancel, the catalogue.

The fixture catalogue is a folder of workflow definitions, one file per workflow, in the file
format of the published OpenWOP v1 conformance catalogue. The generator bundles this host's
catalogue (templates/host/fixtures/) into corpus.json; `load_catalogue(folder)` reads another
folder of the same format. Which engine runs a fixture is decided by its node types.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import HostError
from .profiles import Profile
from .runs import Engine, Noop, Run
from .schemas import corpus, errors

DELAY_DEFAULT_MS = 30_000
DELAY_MAX_MS = 60_000


def load_catalogue(folder: str | Path) -> dict[str, dict[str, Any]]:
    """Every `*.json` workflow definition of `folder`, by id; a file that is not one is an error."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(Path(folder).glob("*.json")):
        try:
            definition = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise ValueError(f"{path}: not a JSON workflow definition ({exc})") from None
        except RecursionError:
            raise ValueError(f"{path}: not a JSON workflow definition (nested too deeply to read)") from None
        problems = errors("workflow-definition", definition)
        if problems:
            raise ValueError(f"{path}: {problems[0]}")
        found[definition["id"]] = definition
    return found


def node_types(definition: Mapping[str, Any]) -> set[str]:
    return {str(n.get("typeId")) for n in definition.get("nodes", []) if isinstance(n, dict)}


class Delay:
    """The engine of a `core.delay` workflow: start, wait `inputs.delayMs`, then complete."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    def advance(self) -> None:
        self.run.start({})
        asked = self.run.request.get("inputs", {}).get("delayMs", DELAY_DEFAULT_MS)
        delay = min(max(int(asked), 1), DELAY_MAX_MS) if isinstance(asked, int | float) else DELAY_DEFAULT_MS
        self._timer = threading.Timer(delay / 1000, self._finish)
        self._timer.daemon = True
        self._timer.start()

    def _finish(self) -> None:
        with self._lock:
            if self.run.status == "running":
                self.run.complete(self.run.request.get("inputs", {}))
        self.run.log.notify()

    def stop(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()

    def resume(self) -> None:  # pragma: no cover - a delay run never suspends
        raise HostError("conflict", "this run cannot be resumed")

    def variables(self) -> dict[str, Any]:
        return {}


RUNNABLE_NODES = frozenset({"core.noop", "core.delay"})  # node types this host runs outside the scripted loop


class SurfaceHandlers:
    """Handlers the Host mixes in; they use `self.run`, `self.profile` and `self.fixtures`."""

    fixtures: dict[str, dict[str, Any]]
    profile: Profile

    def run(self, run_id: str, owner: str | None = None) -> Run:
        raise NotImplementedError  # the Host's own lookup (with its owner check) answers this

    def load_fixtures(self, folder: str | Path) -> list[str]:
        """Add the catalogue in `folder`; the workflows this host can run are listed in discovery `fixtures`.

        A workflow whose nodes are all `core.noop` or `core.delay` can run here; so can the scripted loop on a
        host with an orchestrator. Every definition is served by `GET /v1/workflows/{workflowId}` either way.
        Returns the ids newly listed. Raises ValueError for a file that is not a workflow definition.
        """
        loaded = load_catalogue(folder)
        self.fixtures.update(loaded)
        profile = self.profile
        listed = set(profile.capabilities.get("fixtures", []))
        added = sorted(w for w, d in loaded.items() if node_types(d) <= RUNNABLE_NODES and w not in listed)
        if added:
            document = {**profile.capabilities, "fixtures": sorted(listed | set(added))}
            self.profile = dataclasses.replace(profile, capabilities=document)
        return added

    def engine_for(self, workflow_id: str) -> type[Engine]:
        """The engine of a listed workflow that is not the scripted loop: delay nodes wait, no-op nodes do not."""
        definition = self.fixtures.get(workflow_id)
        if definition is not None and "core.delay" in node_types(definition):
            return Delay
        return Noop

    def get_openapi(self, **_: Any) -> Any:
        from .app import Response

        return Response(200, corpus()["openapi"])

    def get_workflow(self, params: dict[str, str], **_: Any) -> Any:
        from .app import Response

        definition = self.fixtures.get(params["workflowId"])
        if definition is None:
            raise HostError("not_found", f"no workflow {params['workflowId']}")
        return Response(200, definition)

    def cancel_run(self, params: dict[str, str], body: Any, owner: str | None, **_: Any) -> Any:
        from .app import Response

        run = self.run(params["runId"], owner)
        if run.terminal:
            raise HostError("conflict", f"run {run.run_id} has already ended ({run.status})")
        defects = self.profile.defects
        if "cancel-ignored" not in defects:
            if isinstance(run.engine, Delay):
                run.engine.stop()
            reason = body.get("reason") if isinstance(body, dict) else None
            payload = {"reason": reason} if isinstance(reason, str) else {}
            if "cancel-event-unknown" in defects:  # a type no reader knows, in place of run.cancelled
                event = run.log.append("run.resumed", payload)
                event["type"] = "run.aborted"
            else:
                event = run.log.append("run.cancelled", payload)
            run.status = "cancelled"
            run.completed_at = event["timestamp"]
            run.log.notify()
        return Response(200, {"runId": run.run_id, "status": "cancelled"})

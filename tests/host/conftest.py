"""Fixtures for the host and conformance tests: the repository corpus, its generated host, servers."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from host.host_helpers import KEY, REPO
from wopgen.checks.conformance import host_module
from wopgen.conformance.inprocess import SECOND_KEY
from wopgen.corpus import Corpus, load


@pytest.fixture(scope="session")
def repo_corpus() -> Corpus:
    return load(REPO)


@pytest.fixture(scope="session")
def module(repo_corpus: Corpus) -> ModuleType:
    return host_module(repo_corpus)


@pytest.fixture
def make_host(module: ModuleType) -> Callable[..., Any]:
    def build(profile: str = "full", **options: Any) -> Any:
        return module.Host(profile, api_key=KEY, **options)

    return build


@pytest.fixture
def served(module: ModuleType) -> Iterator[Callable[..., str]]:
    """served(profile) starts a real HTTP server on 127.0.0.1 and returns its base URL (keys KEY and SECOND_KEY)."""
    servers: list[Any] = []

    def start(profile: str = "full") -> str:
        host = module.Host(profile, api_key=KEY, other_keys=[SECOND_KEY])
        server = module.make_server(host, "127.0.0.1", 0, quiet=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Callable[..., Path]:
    """A copy of the repository corpus in tmp_path, to break on purpose."""

    def build() -> Path:
        root = tmp_path / "corpus"
        for part in ("schemas", "spec"):
            shutil.copytree(REPO / part, root / part)
        for name in ("pyproject.toml", "CHANGELOG.md"):
            shutil.copy(REPO / name, root / name)
        return root

    return build

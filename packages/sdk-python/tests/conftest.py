"""Fixtures for tests against a real Gatehouse server.

The server's URL, tokens and restart control come from the environment when GATEHOUSE_TEST_URL is
set (python.int.test.ts sets them); otherwise the session starts a server of its own from the built
CLI (local_server.py) and sets the same variables. Without either the tests fail rather than skip:
they only mean something against a real server.
"""

from __future__ import annotations

import json
import os
import queue
import threading
import urllib.error
import urllib.request
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Iterator, Optional

import pytest

from gatehouse import Backoff, Gatehouse


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: set it with GATEHOUSE_TEST_URL, or leave all of them unset")
    return value


@pytest.fixture(scope="session", autouse=True)
def server() -> Iterator[None]:
    """Starts a server for the session unless GATEHOUSE_TEST_URL names one, and stops it at the end."""
    if os.environ.get("GATEHOUSE_TEST_URL"):
        yield
        return
    from local_server import LocalServer

    local = LocalServer()
    before = {name: os.environ.get(name) for name in local.env}
    os.environ.update(local.env)
    try:
        yield
    finally:
        local.close()
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class Person:
    """A developer answering over the HTTP API, as a person in the web app would."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token
        self.id = env("GATEHOUSE_TEST_DEVELOPER_ID")

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
                return response.status, json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            return error.code, json.loads(text) if text else None

    def decide(self, gate_id: str, **decision: Any) -> Any:
        status, body = self.call("POST", f"/v1/gates/{gate_id}/decide", decision)
        assert status == 200, body
        return body

    def intervene(self, run_id: str, kind: str, instruction: Optional[str] = None) -> None:
        body = {"kind": kind} if instruction is None else {"kind": kind, "instruction": instruction}
        status, answer = self.call("POST", f"/v1/runs/{run_id}/interventions", body)
        assert status in (200, 201), answer


class Opened:
    """Collects gate ids from ``on_gate`` so a test can decide the gate its request opened."""

    def __init__(self) -> None:
        self._ids: "queue.Queue[str]" = queue.Queue()

    def __call__(self, gate_id: str, gate: Optional[dict]) -> None:
        self._ids.put(gate_id)

    def next(self, timeout: float = 20) -> str:
        return self._ids.get(timeout=timeout)


@pytest.fixture(scope="session")
def url(server: None) -> str:
    return env("GATEHOUSE_TEST_URL")


@pytest.fixture
def gate(url: str) -> Gatehouse:
    return Gatehouse(url, env("GATEHOUSE_TEST_AGENT_TOKEN"), backoff=Backoff(initial_delay=0.02, max_delay=0.2))


@pytest.fixture
def person(url: str) -> Person:
    return Person(url, env("GATEHOUSE_TEST_DEVELOPER_TOKEN"))


@pytest.fixture
def opened() -> Opened:
    return Opened()


@pytest.fixture
def background() -> Iterator[Callable[..., "Future[Any]"]]:
    """Runs a call on another thread, as an agent waits while the test answers as a person."""
    pool = ThreadPoolExecutor(max_workers=4)
    yield pool.submit
    pool.shutdown(wait=False, cancel_futures=True)


def restart_server(down_ms: int = 300) -> None:
    """Asks the vitest side to stop the server (app and database) and start it on the same port."""
    request = urllib.request.Request(f"{env('GATEHOUSE_TEST_CONTROL_URL')}/restart?downMs={down_ms}", method="POST")
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 204


def start_restart(down_ms: int = 300) -> threading.Thread:
    thread = threading.Thread(target=restart_server, args=(down_ms,), daemon=True)
    thread.start()
    return thread

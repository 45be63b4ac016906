"""A real Gatehouse server for the tests when none is given: the built CLI's ``serve`` on 127.0.0.1.

It signs in with the login link the first start prints, creates the people and agents the tests
use, and serves the restart control the restart tests call, as python.int.test.ts does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Optional
from urllib.parse import parse_qs, urlparse

REPOSITORY = Path(__file__).resolve().parents[3]
BUILT_CLI = REPOSITORY / "packages" / "cli" / "dist" / "main.js"
PASSWORD = "python-tests-password"


class ServerProcess:
    """One ``gatehouse serve`` child; its output is read on a thread so the pipe never fills."""

    def __init__(self, node: str, data_dir: str, port: int, expect_link: bool, timeout: float = 30) -> None:
        args = [node, str(BUILT_CLI), "serve", "--port", str(port), "--data-dir", data_dir, "--log-level", "warn"]
        self.lines: List[str] = []
        self._ready = threading.Event()
        self._expect_link = expect_link
        self.process = subprocess.Popen(
            args,
            env=_child_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        if not self._ready.wait(timeout) or self.url is None:
            self.stop()
            raise RuntimeError(f"gatehouse serve did not start within {timeout:.0f} s: {self.output()}")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            done = line.startswith("or from a terminal: gatehouse login") if self._expect_link else line.startswith("API docs:")
            if done:
                self._ready.set()
        self._ready.set()

    def output(self) -> str:
        return "".join(self.lines)

    @property
    def url(self) -> Optional[str]:
        found = re.search(r"Gatehouse is listening on (\S+)", self.output())
        return found.group(1) if found else None

    @property
    def login_token(self) -> Optional[str]:
        found = re.search(r"login#token=(ghl_[A-Za-z0-9_-]+)", self.output())
        return found.group(1) if found else None

    def stop(self) -> None:
        """SIGTERM this process only (by its pid), then SIGKILL it if it has not exited in 10 s."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()


def _child_env() -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GATEHOUSE_", "CONFIDENCE_"))}
    # The tests open gates in floods on purpose, and any supported Node line may run them.
    env.update(
        NO_COLOR="1",
        GATEHOUSE_AGENT_RATE_PER_SECOND="0",
        GATEHOUSE_TOKEN_RATE_PER_SECOND="0",
        GATEHOUSE_NODE_CHECK="off",
    )
    return env


def _call(url: str, method: str, path: str, body: Any = None, token: Optional[str] = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read().decode() or "null")
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"{method} {path} answered {error.code}: {error.read().decode()}") from None


class LocalServer:
    """The server, its data directory, the seeded people and agents, and the restart control."""

    def __init__(self) -> None:
        node = shutil.which("node")
        if node is None or not BUILT_CLI.exists():
            missing = "node is not on PATH" if node is None else f"{BUILT_CLI} is missing"
            raise RuntimeError(
                f"{missing}: the Python tests start a Gatehouse server from the built CLI; "
                "install Node and run `npm install && npm run build` at the repository root, "
                "or set GATEHOUSE_TEST_URL and the other GATEHOUSE_TEST_* variables to a running server"
            )
        self._node = node
        self._data_dir = tempfile.mkdtemp(prefix="gatehouse-python-tests-")
        self._lock = threading.Lock()
        self.server = ServerProcess(node, self._data_dir, 0, expect_link=True)
        self.url = self.server.url or ""
        self.port = urlparse(self.url).port or 0
        self._control: Optional[ThreadingHTTPServer] = None
        try:
            self.env = self._seed()
            self.env["GATEHOUSE_TEST_CONTROL_URL"] = self._serve_control()
        except BaseException:
            self.close()
            raise

    def _sign_in_with_link(self, link_token: str) -> str:
        return _call(self.url, "POST", "/v1/auth/link", {"token": link_token})["token"]

    def _seed(self) -> Dict[str, str]:
        if self.server.login_token is None:
            raise RuntimeError(f"gatehouse serve printed no login link: {self.server.output()}")
        admin = self._sign_in_with_link(self.server.login_token)
        people: Dict[str, Dict[str, str]] = {}
        for name, role in (("dev", "developer"), ("viewer", "viewer")):
            user = _call(self.url, "POST", "/v1/users", {"name": name, "password": PASSWORD, "role": role}, admin)["user"]
            link = _call(self.url, "POST", f"/v1/users/{user['id']}/login-link", {}, admin)["token"]
            people[name] = {"id": user["id"], "token": self._sign_in_with_link(link)}
        alpha = _call(self.url, "POST", "/v1/agents", {"name": "alpha"}, admin)
        beta = _call(self.url, "POST", "/v1/agents", {"name": "beta"}, admin)
        return {
            "GATEHOUSE_TEST_URL": self.url,
            "GATEHOUSE_TEST_AGENT_TOKEN": alpha["token"],
            "GATEHOUSE_TEST_DEVELOPER_TOKEN": people["dev"]["token"],
            "GATEHOUSE_TEST_DEVELOPER_ID": people["dev"]["id"],
            "GATEHOUSE_TEST_VIEWER_TOKEN": people["viewer"]["token"],
            "GATEHOUSE_TEST_OTHER_AGENT_ID": beta["agent"]["id"],
        }

    def restart(self, down_ms: int) -> None:
        """Stops the server (the data directory stays), waits, and starts it again on the same port."""
        with self._lock:
            self.server.stop()
            time.sleep(down_ms / 1000)
            self.server = ServerProcess(self._node, self._data_dir, self.port, expect_link=False)

    def _serve_control(self) -> str:
        local = self

        class Control(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server hook's name)
                target = urlparse(self.path)
                if target.path != "/restart":
                    self.send_response(404)
                    self.end_headers()
                    return
                down = parse_qs(target.query).get("downMs", ["300"])[0]
                try:
                    local.restart(min(5000, max(0, int(down) if down.isdigit() else 300)))
                except Exception as error:  # the restart test reports the answer
                    self.send_response(500)
                    self.end_headers()
                    self.wfile.write(str(error).encode())
                    return
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._control = ThreadingHTTPServer(("127.0.0.1", 0), Control)
        threading.Thread(target=self._control.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self._control.server_address[1]}"

    def close(self) -> None:
        if self._control is not None:
            self._control.shutdown()
            self._control.server_close()
        with self._lock:
            self.server.stop()
        shutil.rmtree(self._data_dir, ignore_errors=True)

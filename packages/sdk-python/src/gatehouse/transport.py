"""JSON over HTTP (http.client) with the bearer token, retried with capped exponential backoff."""

from __future__ import annotations

import http.client
import json
import random
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

from .errors import GatehouseError, decode_wire_error

#: A 500 is a bug, not a restart: retried a few times, never forever.
MAX_INTERNAL_RETRIES = 3
DEFAULT_ATTEMPT_TIMEOUT = 60.0
USER_AGENT = "gatehouse-python/0.1.0"

#: Called before each retry with the attempt number, the delay in seconds and the error.
OnRetry = Callable[[int, float, GatehouseError], None]


@dataclass(frozen=True)
class Backoff:
    """How hard the client retries through network errors and server restarts (seconds)."""

    initial_delay: float = 0.1
    max_delay: float = 5.0
    #: Give up after this long without an answer.
    max_elapsed: float = float("inf")

    def delay(self, attempt: int, rand: Callable[[], float] = random.random) -> float:
        """Exponential, capped, with "equal jitter" (half to all of it) so agents spread out."""
        capped = min(self.max_delay, self.initial_delay * 2 ** min(attempt, 30))
        return capped / 2 + rand() * capped / 2


class _NetworkError(Exception):
    def __init__(self, cause: BaseException, refused: bool) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.refused = refused


def aborted() -> GatehouseError:
    return GatehouseError("ABORTED", "stopped waiting: the cancel event was set", status=0)


def pause(seconds: float, cancel: Optional[threading.Event]) -> None:
    """Sleeps, or raises ABORTED as soon as ``cancel`` is set."""
    if cancel is None:
        time.sleep(seconds)
    elif cancel.wait(seconds):
        raise aborted()


def _close_on_cancel(connection: http.client.HTTPConnection, cancel: Optional[threading.Event]) -> Callable[[], None]:
    """Shuts the connection's socket when ``cancel`` is set, so a long-poll ends at once; returns
    the function that stops watching."""
    if cancel is None:
        return lambda: None
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if cancel.wait(0.05):
                sock = connection.sock
                if sock is not None and not done.is_set():
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                return

    threading.Thread(target=watch, name="gatehouse-cancel", daemon=True).start()
    return done.set


class Transport:
    """Sends calls to one server. ``retry='always'`` is for idempotent calls (reads, keyed gate
    requests); ``'safe'`` resends only when the first attempt surely changed nothing (connection
    refused, 503, 429)."""

    def __init__(self, base_url: str, token: str, backoff: Backoff, on_retry: Optional[OnRetry] = None) -> None:
        self.base_url = base_url.rstrip("/")
        parts = urllib.parse.urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http:// or https:// URL, not {base_url!r}")
        self._scheme = parts.scheme
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path
        self._token = token
        self.backoff = backoff
        self._on_retry = on_retry

    def headers(self, extra: Optional[Mapping[str, str]] = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._token}", "User-Agent": USER_AGENT, **(extra or {})}

    def call(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        headers: Optional[Mapping[str, str]] = None,
        retry: str = "always",
        timeout: float = DEFAULT_ATTEMPT_TIMEOUT,
        retry_when: Optional[Callable[[GatehouseError], bool]] = None,
        cancel: Optional[threading.Event] = None,
    ) -> Any:
        """Sends the call until it succeeds, fails for good, runs out of time or ``cancel`` is set."""
        started = time.monotonic()
        internal = 0
        attempt = 0
        while True:
            if cancel is not None and cancel.is_set():
                raise aborted()
            try:
                return self._attempt(method, path, body, headers, timeout, cancel)
            except (GatehouseError, _NetworkError) as error:
                public = self._public(error)
                if isinstance(error, GatehouseError) and error.code == "INTERNAL":
                    internal += 1
                if not self._retryable(error, retry, retry_when) or internal > MAX_INTERNAL_RETRIES:
                    raise public from None
                delay = self.backoff.delay(attempt)
                if public.retry_after is not None:
                    delay = max(delay, min(public.retry_after, self.backoff.max_delay))
                if time.monotonic() - started + delay > self.backoff.max_elapsed:
                    raise public from None
                attempt += 1
                if self._on_retry is not None:
                    self._on_retry(attempt, delay, public)
                pause(delay, cancel)

    def connect(self, timeout: float) -> http.client.HTTPConnection:
        """A new connection to the server (HTTPS for an https:// URL)."""
        if self._scheme == "https":
            return http.client.HTTPSConnection(self._host, self._port, timeout=timeout)
        return http.client.HTTPConnection(self._host, self._port, timeout=timeout)

    def open_stream(
        self, path: str, headers: Mapping[str, str], timeout: float
    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        """Opens a streaming GET once (no retries); a non-2xx answer raises its GatehouseError."""
        connection = self.connect(timeout)
        try:
            connection.request("GET", self._prefix + path, headers=self.headers({"Accept": "text/event-stream", **headers}))
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as error:
            connection.close()
            raise self._public(_NetworkError(error, isinstance(error, ConnectionRefusedError))) from None
        if response.status >= 400:
            text = response.read().decode("utf-8", "replace")
            connection.close()
            raise decode_wire_error(
                response.status, text, reason=response.reason, retry_after=response.getheader("Retry-After")
            )
        return connection, response

    def _attempt(
        self,
        method: str,
        path: str,
        body: Any,
        headers: Optional[Mapping[str, str]],
        timeout: float,
        cancel: Optional[threading.Event],
    ) -> Any:
        data = None
        extra = dict(headers or {})
        if body is not None:
            data = json.dumps(body, allow_nan=False).encode("utf-8")
            extra["Content-Type"] = "application/json"
        connection = self.connect(timeout)
        stop_watching: Callable[[], None] = lambda: None
        try:
            connection.connect()
            # Watched once connected, so a cancel at any moment finds the socket to shut.
            stop_watching = _close_on_cancel(connection, cancel)
            connection.request(method, self._prefix + path, body=data, headers=self.headers(extra))
            response = connection.getresponse()
            text = response.read().decode("utf-8")
        except (OSError, http.client.HTTPException) as error:
            if cancel is not None and cancel.is_set():
                raise aborted() from None
            raise _NetworkError(error, isinstance(error, ConnectionRefusedError)) from None
        finally:
            stop_watching()
            connection.close()
        if response.status >= 400:
            raise decode_wire_error(
                response.status, text, reason=response.reason, retry_after=response.getheader("Retry-After")
            )
        # Every route answers with a JSON body: an empty or unreadable one is not a Gatehouse answer
        # (another server on the address, say), and is not retried.
        if text == "":
            raise GatehouseError(
                "INTERNAL", f"the server answered {response.status} with an empty body", status=response.status
            )
        try:
            return json.loads(text)
        except ValueError:
            raise GatehouseError(
                "INTERNAL", f"the server answered {response.status} with a body that is not JSON", status=response.status
            ) from None

    @staticmethod
    def _retryable(
        error: Exception, mode: str, retry_when: Optional[Callable[[GatehouseError], bool]]
    ) -> bool:
        if isinstance(error, _NetworkError):
            return mode == "always" or error.refused
        assert isinstance(error, GatehouseError)
        if error.status in (503, 429):
            return True
        if retry_when is not None and retry_when(error):
            return True
        return mode == "always" and error.status >= 500

    def _public(self, error: Exception) -> GatehouseError:
        """Wire errors as they are; network failures as SERVICE_UNAVAILABLE with status 0."""
        if isinstance(error, GatehouseError):
            return error
        assert isinstance(error, _NetworkError)
        detail = str(error.cause) or type(error.cause).__name__
        return GatehouseError(
            "SERVICE_UNAVAILABLE",
            f"cannot reach the Gatehouse server at {self.base_url}: {detail}",
            status=0,
            details={"url": self.base_url},
        )

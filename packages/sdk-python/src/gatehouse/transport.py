"""JSON over HTTP with the bearer token (urllib), retried with capped exponential backoff."""

from __future__ import annotations

import http.client
import json
import random
import socket
import threading
import time
import urllib.error
import urllib.request
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


def _refused(error: BaseException) -> bool:
    reason = getattr(error, "reason", error)
    return isinstance(reason, ConnectionRefusedError)


class Transport:
    """Sends calls to one server. ``retry='always'`` is for idempotent calls (reads, keyed gate
    requests); ``'safe'`` resends only when the first attempt surely changed nothing (connection
    refused, 503, 429)."""

    def __init__(self, base_url: str, token: str, backoff: Backoff, on_retry: Optional[OnRetry] = None) -> None:
        self.base_url = base_url.rstrip("/")
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
                return self._attempt(method, path, body, headers, timeout)
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

    def open_stream(self, path: str, headers: Mapping[str, str], timeout: float) -> http.client.HTTPResponse:
        """Opens a streaming GET once (no retries); a non-2xx answer raises its GatehouseError."""
        request = urllib.request.Request(
            self.base_url + path, method="GET", headers=self.headers({"Accept": "text/event-stream", **headers})
        )
        try:
            return urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 - the caller's own server
        except urllib.error.HTTPError as error:
            raise self._wire_error(error) from None
        except (OSError, http.client.HTTPException) as error:
            raise self._public(_NetworkError(error, _refused(error))) from None

    def _attempt(
        self, method: str, path: str, body: Any, headers: Optional[Mapping[str, str]], timeout: float
    ) -> Any:
        data = None
        extra = dict(headers or {})
        if body is not None:
            data = json.dumps(body, allow_nan=False).encode("utf-8")
            extra["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers=self.headers(extra))
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
                text = response.read().decode("utf-8")
                status = response.status
        except urllib.error.HTTPError as error:
            raise self._wire_error(error) from None
        except (OSError, http.client.HTTPException, socket.timeout) as error:
            raise _NetworkError(error, _refused(error)) from None
        if text == "":
            return None
        try:
            return json.loads(text)
        except ValueError:
            raise GatehouseError(
                "INTERNAL", f"the server answered {status} with a body that is not JSON", status=status
            ) from None

    @staticmethod
    def _wire_error(error: urllib.error.HTTPError) -> GatehouseError:
        try:
            text = error.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            text = ""
        finally:
            error.close()
        return decode_wire_error(
            error.code, text, reason=str(error.reason or ""), retry_after=error.headers.get("Retry-After")
        )

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
        cause = error.cause
        detail = str(getattr(cause, "reason", cause)) or type(cause).__name__
        return GatehouseError(
            "SERVICE_UNAVAILABLE",
            f"cannot reach the Gatehouse server at {self.base_url}: {detail}",
            status=0,
            details={"url": self.base_url},
        )

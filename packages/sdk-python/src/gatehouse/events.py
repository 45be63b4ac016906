"""A run's interventions (pause, resume, stop, steer) from its Server-Sent Events stream."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any, Iterator, Optional

from . import api
from .errors import GatehouseError
from .transport import Transport

#: Three missed heartbeats (the server sends one every 15 s): the connection is dead, reconnect.
IDLE_TIMEOUT = 45.0
_ENDING_EVENTS = {"gate.decided", "gate.expired", "gate.cancelled"}


@dataclass(frozen=True)
class RunEvent:
    """An intervention (``kind`` pause, resume, stop or steer) or, with ``decisions=True``, a gate of
    the run that ended (``kind`` decision, with ``gate_id`` and ``outcome``)."""

    kind: str
    #: A steer's new instruction, verbatim; None otherwise.
    instruction: Optional[str]
    at: float
    event_id: Optional[str]
    gate_id: Optional[str] = None
    outcome: Optional[str] = None


@dataclass
class SseMessage:
    event: str
    data: str
    id: Optional[str]


class SseParser:
    """The ``text/event-stream`` format, one line at a time (the line without its ending)."""

    def __init__(self, last_event_id: Optional[str] = None) -> None:
        self.last_event_id = last_event_id
        self.retry_ms: Optional[int] = None
        self._event = ""
        self._data: list[str] = []
        self._has_data = False

    def line(self, line: str) -> Optional[SseMessage]:
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
            self._has_data = True
        elif name == "id" and "\0" not in value:
            self.last_event_id = value
        elif name == "retry" and value.isdigit():
            self.retry_ms = int(value)
        return None

    def _dispatch(self) -> Optional[SseMessage]:
        event, data, has_data = self._event or "message", "\n".join(self._data), self._has_data
        self._event, self._data, self._has_data = "", [], False
        return SseMessage(event, data, self.last_event_id) if has_data else None


def _text(value: Any) -> Optional[str]:
    return value if isinstance(value, str) else None


def to_run_event(message: SseMessage, decisions: bool) -> Optional[RunEvent]:
    """One stream message as a run event, or None for anything else."""
    try:
        parsed = json.loads(message.data)
    except ValueError:
        return None
    if not isinstance(parsed, dict):
        return None
    kind_of_message = message.event if message.event != "message" else (_text(parsed.get("type")) or "")
    data = parsed.get("data") if isinstance(parsed.get("type"), str) and isinstance(parsed.get("data"), dict) else parsed
    at = next((v for v in (data.get("at"), data.get("createdAt"), parsed.get("at")) if isinstance(v, (int, float))), None)
    when = float(at) if at is not None else time.time() * 1000
    if kind_of_message == "intervention" or kind_of_message.startswith("intervention."):
        kind = _text(data.get("kind")) or kind_of_message.split(".")[-1]
        return RunEvent(kind, _text(data.get("instruction")), when, message.id)
    if not decisions or kind_of_message not in _ENDING_EVENTS:
        return None
    gate = data.get("gate") if isinstance(data.get("gate"), dict) else {}
    gate_id = _text(data.get("gateId")) or _text(parsed.get("gateId")) or _text(gate.get("id"))
    if gate_id is None:
        return None
    decision = data.get("decision") or gate.get("decision") or {}
    return RunEvent(
        "decision",
        _text(data.get("instructions")) or _text(decision.get("instructions")),
        when,
        message.id,
        gate_id=gate_id,
        outcome=_text(data.get("outcome")),
    )


def _transient(error: GatehouseError) -> bool:
    return error.status == 0 or error.status >= 500 or error.status == 429


class RunEventStream:
    """Follows one run's stream, reconnecting with ``Last-Event-ID`` so nothing is missed, until
    :meth:`close` (from any thread) or the cancel event. Refusals such as FORBIDDEN end it."""

    def __init__(
        self,
        transport: Transport,
        run_id: str,
        *,
        decisions: bool = False,
        last_event_id: Optional[str] = None,
        idle_timeout: float = IDLE_TIMEOUT,
        cancel: Optional[threading.Event] = None,
    ) -> None:
        self._transport = transport
        self._path = api.ROUTES[api.RUN_EVENTS].url(id=run_id)
        self._decisions = decisions
        self._idle_timeout = idle_timeout
        self._closed = cancel or threading.Event()
        self._parser = SseParser(last_event_id)
        self._connection: Optional[http.client.HTTPConnection] = None

    def close(self) -> None:
        self._closed.set()
        connection = self._connection
        sock = connection.sock if connection is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)  # ends a read blocked in another thread at once
            except OSError:
                pass

    def __iter__(self) -> Iterator[RunEvent]:
        attempt = 0
        while not self._closed.is_set():
            try:
                for event in self._connect_once():
                    attempt = 0
                    yield event
            except GatehouseError as error:
                if self._closed.is_set():
                    return
                if not _transient(error):
                    raise
            except (OSError, http.client.HTTPException, ValueError):
                if self._closed.is_set():
                    return
            retry = self._parser.retry_ms
            delay = retry / 1000 if attempt == 0 and retry is not None else self._transport.backoff.delay(attempt)
            attempt += 1
            self._closed.wait(delay)

    def _connect_once(self) -> Iterator[RunEvent]:
        last = self._parser.last_event_id
        headers = {} if last is None else {"Last-Event-ID": last}
        connection, response = self._transport.open_stream(self._path, headers, self._idle_timeout)
        self._connection = connection
        try:
            while not self._closed.is_set():
                raw = response.readline()
                if raw == b"":
                    return
                message = self._parser.line(raw.decode("utf-8").rstrip("\r\n"))
                if message is None:
                    continue
                event = to_run_event(message, self._decisions)
                if event is not None:
                    yield event
        finally:
            self._connection = None
            connection.close()

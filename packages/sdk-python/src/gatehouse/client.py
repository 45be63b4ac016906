"""The agent's client: asks before acting and waits for a person through reconnects and restarts."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any, Callable, Mapping, Optional

from . import api
from .approval import ApprovalContext, with_approval_decorator
from .canonical import as_sent, payload_hash
from .errors import ApprovalNotGranted, GatehouseError, approval_error_for
from .events import RunEvent, RunEventStream
from .result import GateResult, payload_mismatch, result_from_gate, result_from_policy
from .transport import Backoff, OnRetry, Transport, pause

#: How long each long-poll asks the server to hold a wait, in seconds.
DEFAULT_WAIT = 30.0
#: How much longer than the hold time one long-poll may take before it counts as lost.
WAIT_MARGIN = 15.0

#: The longest title a gate takes; a longer question is shortened there and kept whole in the context.
QUESTION_TITLE_MAX = 500

#: Called once when a person must answer, before waiting starts: the gate id and the gate.
OnGate = Callable[[str, Optional[dict]], None]


def _defined(**fields: Any) -> dict[str, Any]:
    return {name: value for name, value in fields.items() if value is not None}


def _paused_run(error: GatehouseError) -> bool:
    """A 409 RUN_NOT_ACTIVE for a paused run: wait for resume and ask again."""
    return error.code == "RUN_NOT_ACTIVE" and error.details.get("status") == "paused"


class Gatehouse:
    """Asks Gatehouse before acting.

    >>> gate = Gatehouse("http://127.0.0.1:7300", os.environ["GATEHOUSE_TOKEN"])
    >>> answer = gate.request(tool="shell_execute", args={"command": "npm test"})
    >>> if answer.approved: run_tests()
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        backoff: Optional[Backoff] = None,
        on_retry: Optional[OnRetry] = None,
        wait_timeout: float = DEFAULT_WAIT,
    ) -> None:
        if not token:
            raise ValueError("token must be an agent token (gha_...)")
        self._transport = Transport(base_url, token, backoff or Backoff(), on_retry)
        self._wait = max(1.0, min(wait_timeout, 60.0))

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    def request(
        self,
        tool: Optional[str] = None,
        operation: Optional[str] = None,
        args: Optional[Mapping[str, Any]] = None,
        *,
        run_id: Optional[str] = None,
        context: Optional[Mapping[str, Any]] = None,
        risk: Optional[str] = None,
        timeout_seconds: Optional[int] = None,
        timeout_action: Optional[str] = None,
        event: Optional[str] = None,
        gate_type: Optional[str] = None,
        confidence: Optional[float] = None,
        artifacts: Optional[list[str]] = None,
        title: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        cancel: Optional[threading.Event] = None,
        on_gate: Optional[OnGate] = None,
    ) -> GateResult:
        """Asks whether an action may go ahead and waits for the answer. Denied, steered and timed
        out are values; GatehouseError is for refusals of the request itself (stopped run, bad
        input). Give a stable ``idempotency_key`` to find the same gate after the agent restarts."""
        sent_args = as_sent(dict(args or {}))
        expected = payload_hash(tool, operation, sent_args)
        route = api.ROUTES[api.REQUEST_GATE]
        body = _defined(
            runId=run_id,
            tool=tool,
            operation=operation,
            args=sent_args,
            event=event,
            gateType=gate_type,
            context=dict(context) if context is not None else None,
            artifacts=artifacts,
            risk=risk,
            confidence=confidence,
            timeoutSeconds=timeout_seconds,
            timeoutAction=timeout_action,
            title=title,
        )
        response = self._transport.call(
            route.method,
            route.path,
            body=body,
            headers={"Idempotency-Key": idempotency_key or str(uuid.uuid4())},
            retry="always",
            retry_when=_paused_run,
            cancel=cancel,
        )
        gate = response.get("gate")
        # The server must have hashed exactly what was sent, or no approval could ever bind to it.
        server_hash = response.get("payloadHash")
        if isinstance(server_hash, str) and server_hash != expected:
            raise payload_mismatch((gate or {}).get("id"), server_hash, expected)
        if response.get("outcome") != "gated":
            return result_from_policy(response, expected, sent_args)
        if gate is None:
            raise GatehouseError("INTERNAL", "the server gated the request without a gate")
        if on_gate is not None:
            on_gate(gate["id"], gate)
        ended = self._wait_ended(gate["id"], cancel)
        result = result_from_gate(
            ended["gate"],
            outcome=ended.get("outcome"),
            rule_id=response.get("ruleId"),
            interventions=list(response.get("interventions") or []),
        )
        check_binding(result, tool, operation, sent_args)
        return result

    def ask(
        self,
        question: str,
        *,
        run_id: Optional[str] = None,
        context: Optional[Mapping[str, Any]] = None,
        timeout_seconds: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        cancel: Optional[threading.Event] = None,
        on_gate: Optional[OnGate] = None,
    ) -> str:
        """Asks a person a question and waits for the answer text. Raises ApprovalDenied when
        they decline to answer, ApprovalTimedOut when nobody answers in time.

        >>> region = gate.ask("Which region should the bucket live in?", run_id=run_id)
        """
        text = question.strip() if isinstance(question, str) else ""
        if text == "":
            raise ValueError("ask: the question must not be empty")
        title = text if len(text) <= QUESTION_TITLE_MAX else text[: QUESTION_TITLE_MAX - 1] + "\u2026"
        result = self.request(
            operation=api.QUESTION_GATE_TYPE,
            event=api.QUESTION_GATE_TYPE,
            gate_type=api.QUESTION_GATE_TYPE,
            title=title,
            context={**dict(context or {}), "question": text},
            run_id=run_id,
            timeout_seconds=timeout_seconds,
            idempotency_key=idempotency_key,
            cancel=cancel,
            on_gate=on_gate,
        )
        if result.option == api.ANSWER_OPTION and result.answer is not None:
            return result.answer
        if result.outcome in ("denied", "timed_out"):
            raise approval_error_for(result)
        raise ApprovalNotGranted(result, f"the question was not answered ({result.outcome})")

    def wait_for_gate(self, gate_id: str, *, cancel: Optional[threading.Event] = None) -> GateResult:
        """Waits until a gate ends (long-poll, through reconnects and restarts) and returns its answer."""
        ended = self._wait_ended(gate_id, cancel)
        return result_from_gate(ended["gate"], outcome=ended.get("outcome"))

    def get_gate(self, gate_id: str) -> dict[str, Any]:
        """Reads one gate with its briefing: ``{"gate", "briefing", "consumedAt"}``."""
        route = api.ROUTES[api.GET_GATE]
        answer: dict[str, Any] = self._transport.call(route.method, route.url(id=gate_id))
        return answer

    def consume(
        self,
        result: GateResult,
        tool: Optional[str] = None,
        operation: Optional[str] = None,
        args: Optional[Mapping[str, Any]] = None,
    ) -> None:
        """Marks a one-off approval used for exactly this action, so it cannot be used again;
        PAYLOAD_MISMATCH for another action, APPROVAL_USED the second time."""
        hash_now = payload_hash(tool, operation, args or {})
        if result.outcome == "approved" and result.payload_hash not in (None, hash_now):
            raise payload_mismatch(result.gate_id, result.payload_hash, hash_now)
        if not result.one_off or result.gate_id is None:
            return
        route = api.ROUTES[api.CONSUME_GATE]
        self._transport.call(route.method, route.url(id=result.gate_id), body={"payloadHash": hash_now}, retry="safe")

    def withdraw(self, gate_id: str, reason: Optional[str] = None) -> dict[str, Any]:
        """Withdraws this agent's own pending request when it no longer needs the answer: the gate is
        cancelled, so nobody decides a call that will never run. Returns the gate document; a gate
        that already ended raises GatehouseError with code GATE_NOT_PENDING."""
        route = api.ROUTES[api.WITHDRAW_GATE]
        body = {} if reason is None else {"reason": reason}
        answer: dict[str, Any] = self._transport.call(route.method, route.url(id=gate_id), body=body, retry="safe")
        return dict(answer["gate"])

    def create_run(
        self,
        *,
        autonomy: Optional[str] = None,
        approval_mode: Optional[str] = None,
        confidence_threshold: Optional[float] = None,
        title: Optional[str] = None,
    ) -> dict[str, Any]:
        """Starts a run of this agent and returns the run document."""
        route = api.ROUTES[api.CREATE_RUN]
        body = _defined(
            autonomy=autonomy, approvalMode=approval_mode, confidenceThreshold=confidence_threshold, title=title
        )
        run: dict[str, Any] = self._transport.call(route.method, route.path, body=body, retry="safe")["run"]
        return run

    def get_run(self, run_id: str) -> dict[str, Any]:
        """Reads a run (status ``waiting`` while one of its gates is pending)."""
        route = api.ROUTES[api.GET_RUN]
        run: dict[str, Any] = self._transport.call(route.method, route.url(id=run_id))["run"]
        return run

    def interventions(
        self,
        run_id: str,
        *,
        decisions: bool = False,
        last_event_id: Optional[str] = None,
        cancel: Optional[threading.Event] = None,
    ) -> RunEventStream:
        """The run's interventions as they happen: iterate it; ``close()`` it (from any thread) to stop.

        >>> for event in gate.interventions(run_id):
        ...     if event.kind == "stop": break
        """
        return RunEventStream(
            self._transport, run_id, decisions=decisions, last_event_id=last_event_id, cancel=cancel
        )

    def on_intervention(
        self,
        run_id: str,
        callback: Callable[[RunEvent], None],
        *,
        on_error: Optional[Callable[[BaseException], None]] = None,
    ) -> Callable[[], None]:
        """Calls ``callback`` for each intervention, on a daemon thread, until the returned
        function is called."""
        stream = self.interventions(run_id)

        def follow() -> None:
            try:
                for event in stream:
                    callback(event)
            except BaseException as error:  # noqa: BLE001 - handed to the caller
                if on_error is not None:
                    on_error(error)

        thread = threading.Thread(target=follow, name=f"gatehouse-interventions-{run_id}", daemon=True)
        thread.start()

        def stop() -> None:
            stream.close()
            thread.join(timeout=5)

        return stop

    def with_approval(
        self,
        tool: Optional[str] = None,
        *,
        operation: Optional[str] = None,
        args: Optional[Callable[..., Mapping[str, Any]]] = None,
        apply_edit: Optional[Callable[[dict[str, Any]], tuple[tuple[Any, ...], dict[str, Any]]]] = None,
        mode: str = "raise",
        **request_fields: Any,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """A decorator: every call asks first and runs only on approval, with exactly the approved
        arguments (a person's edited ones when edited). See :mod:`gatehouse.approval`."""
        return with_approval_decorator(
            self, tool=tool, operation=operation, args=args, apply_edit=apply_edit, mode=mode, fields=request_fields
        )

    def approval(
        self,
        tool: Optional[str] = None,
        operation: Optional[str] = None,
        args: Optional[Mapping[str, Any]] = None,
        **request_fields: Any,
    ) -> ApprovalContext:
        """A context manager: enters only when approved (raising ApprovalDenied, ApprovalSteered or
        ApprovalTimedOut otherwise) and gives the GateResult, whose ``args`` are the ones to run."""
        return ApprovalContext(self, tool=tool, operation=operation, args=args, fields=request_fields)

    def _wait_ended(self, gate_id: str, cancel: Optional[threading.Event]) -> dict[str, Any]:
        route = api.ROUTES[api.WAIT_GATE]
        path = f"{route.url(id=gate_id)}?timeoutMs={int(self._wait * 1000)}"
        while True:
            started = time.monotonic()
            answer: dict[str, Any] = self._transport.call(
                route.method, path, retry="always", timeout=self._wait + WAIT_MARGIN, cancel=cancel
            )
            if answer["gate"].get("status") != "pending":
                return answer
            # A wait that came back at once without an end (an extension, a partial approval) must not spin.
            if time.monotonic() - started < 0.1:
                pause(0.1, cancel)


def check_binding(
    result: GateResult, tool: Optional[str], operation: Optional[str], sent_args: Mapping[str, Any]
) -> None:
    """Refuses (fails closed) an approval that covers another action than the one asked for, or,
    when a person edited the arguments, whose hash is not the edited action's."""
    if result.outcome != "approved" or result.payload_hash is None:
        return
    original = payload_hash(tool, operation, sent_args)
    if not result.edited:
        if result.payload_hash != original:
            raise payload_mismatch(result.gate_id, result.payload_hash, original)
        return
    decision = (result.gate or {}).get("decision") or {}
    first = decision.get("originalPayloadHash")
    if first != original:
        raise payload_mismatch(result.gate_id, first or "(none)", original)
    edited = payload_hash(tool, operation, result.args)
    if result.payload_hash != edited:
        raise payload_mismatch(result.gate_id, result.payload_hash, edited)

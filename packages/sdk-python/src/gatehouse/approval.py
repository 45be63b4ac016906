"""``with_approval`` as a decorator and as a context manager.

A wrapped call asks first and runs only when approved, with exactly the approved arguments: the
arguments are read again after the decision (an object changed while the person was deciding is
refused), a one-off approval is used (consumed) before the call, and a person's edited arguments
replace the call's own.
"""

from __future__ import annotations

import functools
import inspect
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, TypeVar

from .canonical import as_sent, payload_hash
from .errors import GatehouseError, approval_error_for
from .result import GateResult, payload_mismatch

if TYPE_CHECKING:
    from types import TracebackType

    from .client import Gatehouse

F = TypeVar("F", bound=Callable[..., Any])
ApplyEdit = Callable[[dict[str, Any]], "tuple[tuple[Any, ...], dict[str, Any]]"]


class ApprovalOutcome:
    """What a wrapper in ``mode="result"`` returns: ``ok`` with ``value``, or the refusal."""

    def __init__(self, approval: GateResult, value: Any = None) -> None:
        self.ok = approval.outcome == "approved"
        self.value = value
        self.approval = approval
        self.outcome = approval.outcome
        self.reason = approval.reason
        self.instructions = approval.instructions
        self.feedback = approval.feedback

    def __repr__(self) -> str:
        return f"ApprovalOutcome(ok={self.ok}, outcome={self.outcome!r})"


def _bound_arguments(signature: inspect.Signature, call_args: tuple[Any, ...], call_kwargs: dict[str, Any]) -> dict[str, Any]:
    bound = signature.bind(*call_args, **call_kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def with_approval_decorator(
    client: "Gatehouse",
    *,
    tool: Optional[str],
    operation: Optional[str],
    args: Optional[Callable[..., Mapping[str, Any]]],
    apply_edit: Optional[ApplyEdit],
    mode: str,
    fields: Mapping[str, Any],
) -> Callable[[F], F]:
    """See :meth:`Gatehouse.with_approval`. Without ``args`` the approval binds to the function's
    arguments by parameter name, and an edit calls the function with the edited ones by name;
    with ``args``, an edit needs ``apply_edit`` (edited dict -> (args, kwargs)) or is refused."""
    if mode not in ("raise", "result"):
        raise ValueError('mode is "raise" or "result"')

    def decorate(fn: F) -> F:
        signature = inspect.signature(fn)
        name = tool if tool is not None or operation is not None else fn.__name__

        def action_args(call_args: tuple[Any, ...], call_kwargs: dict[str, Any]) -> dict[str, Any]:
            if args is not None:
                return dict(args(*call_args, **call_kwargs))
            return _bound_arguments(signature, call_args, call_kwargs)

        @functools.wraps(fn)
        def wrapper(*call_args: Any, **call_kwargs: Any) -> Any:
            asked = action_args(call_args, call_kwargs)
            approval = client.request(name, operation, asked, **fields)
            if approval.outcome != "approved":
                if mode == "result":
                    return ApprovalOutcome(approval)
                raise approval_error_for(approval)
            if approval.edited:
                if args is None:
                    run_args: tuple[Any, ...] = ()
                    run_kwargs = _edited_kwargs(signature, approval)
                elif apply_edit is not None:
                    run_args, run_kwargs = apply_edit(dict(approval.args))
                else:
                    raise GatehouseError(
                        "PAYLOAD_MISMATCH",
                        f"gate {approval.gate_id} approved edited arguments; give with_approval an apply_edit to run them",
                        status=409,
                        details={"gateId": approval.gate_id, "field": "apply_edit"},
                    )
            else:
                run_args, run_kwargs = call_args, call_kwargs
                # Read again: an object changed while the person was deciding is not run under the approval.
                now = as_sent(action_args(call_args, call_kwargs))
                if payload_hash(name, operation, now) != approval.payload_hash:
                    raise payload_mismatch(approval.gate_id, approval.payload_hash, payload_hash(name, operation, now))
            client.consume(approval, name, operation, approval.args if approval.edited else now)
            value = fn(*run_args, **run_kwargs)
            return ApprovalOutcome(approval, value) if mode == "result" else value

        return wrapper  # type: ignore[return-value]

    return decorate


def _edited_kwargs(signature: inspect.Signature, approval: GateResult) -> dict[str, Any]:
    """The edited arguments as keyword arguments; names the function does not take are refused."""
    try:
        signature.bind(**approval.args)
    except TypeError as error:
        raise GatehouseError(
            "PAYLOAD_MISMATCH",
            f"gate {approval.gate_id} approved edited arguments the function does not take: {error}",
            status=409,
            details={"gateId": approval.gate_id, "field": "apply_edit"},
        ) from None
    return dict(approval.args)


class ApprovalContext:
    """``with gate.approval(tool=..., args=...) as approved:`` runs the block only when approved.

    Entering asks and waits; anything but approved raises ApprovalDenied, ApprovalSteered,
    ApprovalTimedOut or ApprovalNotGranted and the block does not run. A one-off approval is
    consumed on entry, for ``approved.args`` (a person's edited arguments when ``approved.edited``).
    """

    def __init__(
        self,
        client: "Gatehouse",
        *,
        tool: Optional[str],
        operation: Optional[str],
        args: Optional[Mapping[str, Any]],
        fields: Mapping[str, Any],
    ) -> None:
        self._client = client
        self._tool = tool
        self._operation = operation
        self._args = dict(args or {})
        self._fields = dict(fields)
        self.result: Optional[GateResult] = None

    def __enter__(self) -> GateResult:
        result = self._client.request(self._tool, self._operation, self._args, **self._fields)
        self.result = result
        if result.outcome != "approved":
            raise approval_error_for(result)
        self._client.consume(result, self._tool, self._operation, result.args)
        return result

    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        traceback: "Optional[TracebackType]",
    ) -> None:
        return None

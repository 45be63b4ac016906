"""The one error the SDK raises for refusals, and the errors a ``with_approval`` wrapper raises."""

from __future__ import annotations

import email.utils
import json
import re
import time
from typing import TYPE_CHECKING, Any, Mapping, Optional

if TYPE_CHECKING:
    from .result import GateResult

_SNIPPET_MAX = 200


class GatehouseError(Exception):
    """An error the server returned (``{"error": {"code", "message", "details"}}``), or a refusal
    the SDK made on its behalf, with the same stable ``code`` (see docs/errors.md).

    ``status`` is the HTTP status, 0 when no answer arrived (``SERVICE_UNAVAILABLE``: the server
    could not be reached; ``ABORTED``: the caller's cancel event was set). ``retry_after`` is the
    wait in seconds the server asked for, or None.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int = 0,
        details: Optional[Mapping[str, Any]] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.details: dict[str, Any] = dict(details or {})
        self.retry_after = retry_after

    @property
    def field(self) -> Optional[str]:
        """The request field the server named (``details.field``), or None."""
        field = self.details.get("field")
        return field if isinstance(field, str) else None

    def __repr__(self) -> str:
        return f"GatehouseError(code={self.code!r}, status={self.status}, message={self.message!r})"


def retry_after_seconds(
    header: Optional[str], details: Mapping[str, Any], now: Optional[float] = None
) -> Optional[float]:
    """``Retry-After`` as seconds or an HTTP date, else the details' seconds or milliseconds."""
    text = (header or "").strip()
    if re.fullmatch(r"\d+", text):
        return float(text)
    if text:
        try:
            when = email.utils.parsedate_to_datetime(text).timestamp()
            return max(0.0, when - (time.time() if now is None else now))
        except (TypeError, ValueError):
            pass
    if isinstance(details.get("retryAfterMs"), (int, float)):
        return float(details["retryAfterMs"]) / 1000
    if isinstance(details.get("retryAfterSeconds"), (int, float)):
        return float(details["retryAfterSeconds"])
    return None


def _fallback_code(status: int) -> str:
    if status == 503:
        return "SERVICE_UNAVAILABLE"
    if status == 429:
        return "RATE_LIMITED"
    return "INTERNAL" if status >= 500 else f"HTTP_{status}"


def decode_wire_error(
    status: int, body: str, *, reason: str = "", retry_after: Optional[str] = None
) -> GatehouseError:
    """Rebuilds a non-2xx answer as a GatehouseError, as the TypeScript SDK's decodeWireError does:
    the wire error's code, message and details, or a code from the status for a body that is not
    the wire shape (a proxy's error page)."""
    try:
        parsed: Any = json.loads(body)
    except ValueError:
        parsed = None
    wire = parsed.get("error") if isinstance(parsed, dict) else None
    if isinstance(wire, dict) and isinstance(wire.get("code"), str) and wire["code"]:
        details = wire.get("details") if isinstance(wire.get("details"), dict) else {}
        message = wire.get("message") if isinstance(wire.get("message"), str) and wire["message"] else wire["code"]
        return GatehouseError(
            wire["code"],
            message,
            status=status,
            details=details,
            retry_after=retry_after_seconds(retry_after, details),
        )
    line = f"{status} {reason}" if reason else str(status)
    snippet = " ".join(body.split())[:_SNIPPET_MAX]
    message = f"the server answered HTTP {line} without a Gatehouse error body" + (f": {snippet}" if snippet else "")
    return GatehouseError(
        _fallback_code(status), message, status=status, retry_after=retry_after_seconds(retry_after, {})
    )


class ApprovalNotGranted(Exception):
    """Raised by a ``with_approval`` wrapper when the action was not approved; ``result`` holds the
    whole answer (reason, instructions, feedback, gate id)."""

    def __init__(self, result: "GateResult", message: Optional[str] = None) -> None:
        reason = f" ({result.reason})" if result.reason else ""
        super().__init__(message or f"not approved: {result.outcome}{reason}")
        self.result = result

    @property
    def outcome(self) -> str:
        return self.result.outcome


class ApprovalDenied(ApprovalNotGranted):
    """The action was denied, by the policy or by a person; ``reason`` says why."""

    def __init__(self, result: "GateResult") -> None:
        super().__init__(result, "denied" + (f": {result.reason}" if result.reason else ""))

    @property
    def reason(self) -> Optional[str]:
        return self.result.reason


class ApprovalSteered(ApprovalNotGranted):
    """A person steered instead of approving; ``instructions`` is the agent's next instruction."""

    def __init__(self, result: "GateResult") -> None:
        super().__init__(result, "steered: follow the instructions instead")

    @property
    def instructions(self) -> str:
        return self.result.instructions or ""


class ApprovalTimedOut(ApprovalNotGranted):
    """Nobody answered before the gate's deadline and its timeout action did not let it proceed."""

    def __init__(self, result: "GateResult") -> None:
        super().__init__(result, "timed out waiting for a decision")


def approval_error_for(result: "GateResult") -> ApprovalNotGranted:
    """The error a wrapper raises for a result that is not ``approved``."""
    if result.outcome == "denied":
        return ApprovalDenied(result)
    if result.outcome == "steered":
        return ApprovalSteered(result)
    if result.outcome == "timed_out":
        return ApprovalTimedOut(result)
    return ApprovalNotGranted(result)

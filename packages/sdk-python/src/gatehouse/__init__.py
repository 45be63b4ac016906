"""Gatehouse for Python: ask a person (or the policy) before an agent acts.

Standard library only. See packages/sdk-python/README.md.
"""

from .api import ROUTES
from .approval import ApprovalContext, ApprovalOutcome
from .canonical import canonical_json, payload_hash, payload_text
from .client import Gatehouse
from .errors import (
    ApprovalDenied,
    ApprovalNotGranted,
    ApprovalSteered,
    ApprovalTimedOut,
    GatehouseError,
)
from .events import RunEvent, RunEventStream
from .result import GateResult
from .transport import Backoff
from .webhooks import WebhookVerification, verify_webhook_signature

__version__ = "0.1.0"

__all__ = [
    "ROUTES",
    "ApprovalContext",
    "ApprovalDenied",
    "ApprovalNotGranted",
    "ApprovalOutcome",
    "ApprovalSteered",
    "ApprovalTimedOut",
    "Backoff",
    "GateResult",
    "Gatehouse",
    "GatehouseError",
    "RunEvent",
    "RunEventStream",
    "WebhookVerification",
    "canonical_json",
    "payload_hash",
    "payload_text",
    "verify_webhook_signature",
]

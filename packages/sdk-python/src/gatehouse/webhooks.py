"""Checks that a webhook request came from Gatehouse and is recent (the ``Gatehouse-Signature``)."""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from dataclasses import dataclass
from typing import Optional, Union

_HEX_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_SECONDS = re.compile(r"^\d{1,12}$")


@dataclass(frozen=True)
class WebhookVerification:
    """``ok`` with the signed ``timestamp`` (unix seconds), or a refusal with ``reason`` one of
    ``missing_signature``, ``malformed_signature``, ``signature_mismatch``, ``outside_replay_window``."""

    ok: bool
    timestamp: Optional[int] = None
    reason: Optional[str] = None
    message: Optional[str] = None


def _refuse(reason: str, message: str) -> WebhookVerification:
    return WebhookVerification(ok=False, reason=reason, message=message)


def _parse(header: str) -> Optional[tuple[int, list[str]]]:
    timestamp: Optional[int] = None
    macs: list[str] = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and _SECONDS.match(value):
            timestamp = int(value)
        elif key == "v1" and _HEX_SHA256.match(value):
            macs.append(value)
    return None if timestamp is None or not macs else (timestamp, macs)


def verify_webhook_signature(
    body: Union[str, bytes],
    signature: Optional[str],
    secret: str,
    *,
    tolerance_seconds: float = 300,
    now: Optional[float] = None,
) -> WebhookVerification:
    """The HMAC-SHA256 of ``"<t>.<body>"`` with the webhook's secret must match a ``v1`` value of
    the header (compared in constant time), and ``t`` must be within ``tolerance_seconds`` of
    ``now`` (unix seconds, default the clock). ``body`` is the raw request body, before parsing.

    >>> check = verify_webhook_signature(raw_body, headers.get("Gatehouse-Signature"), secret)
    >>> if not check.ok: return 400, check.message
    """
    if not signature:
        return _refuse("missing_signature", "the Gatehouse-Signature header is missing")
    parsed = _parse(signature)
    if parsed is None:
        return _refuse("malformed_signature", "the Gatehouse-Signature header is not t=<seconds>,v1=<hex>")
    timestamp, macs = parsed
    content = f"{timestamp}.".encode() + (body.encode("utf-8") if isinstance(body, str) else body)
    expected = hmac.new(secret.encode("utf-8"), content, hashlib.sha256).hexdigest()
    matched = False
    for mac in macs:
        # Every value is compared, in constant time, so timing tells nothing about which matched.
        matched = hmac.compare_digest(expected, mac) or matched
    if not matched:
        return _refuse("signature_mismatch", "the signature does not match this body and secret")
    age = abs((time.time() if now is None else now) - timestamp)
    if age > tolerance_seconds:
        return _refuse(
            "outside_replay_window",
            f"the request was signed {round(age)} s away from now (allowed: {tolerance_seconds:g} s); "
            "refuse it as a replay",
        )
    return WebhookVerification(ok=True, timestamp=timestamp)

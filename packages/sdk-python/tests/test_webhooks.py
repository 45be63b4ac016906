"""Webhook signatures, with the vectors the TypeScript SDK is checked against too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gatehouse import verify_webhook_signature

VECTORS = json.loads((Path(__file__).parent / "vectors" / "webhooks.json").read_text("utf-8"))


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda case: case["label"])
def test_each_shared_vector(case: dict) -> None:
    check = verify_webhook_signature(
        case.get("body", VECTORS["body"]),
        case["signature"],
        case.get("secret", VECTORS["secret"]),
        tolerance_seconds=case.get("toleranceSeconds", 300),
        now=VECTORS["nowSeconds"],
    )
    if case["expect"] == "ok":
        assert check.ok, check.message
        assert check.timestamp == int(case["signature"].split(",")[0][2:])
    else:
        assert not check.ok
        assert check.reason == case["expect"]
        assert check.message


def test_bytes_and_text_bodies_verify_alike() -> None:
    case = VECTORS["cases"][0]
    raw = VECTORS["body"].encode("utf-8")
    assert verify_webhook_signature(raw, case["signature"], VECTORS["secret"], now=VECTORS["nowSeconds"]).ok

"""Payload hashes agree with the server's byte for byte, so approvals bind to the action."""

from __future__ import annotations

import json
import math
import threading
from pathlib import Path

import pytest

from gatehouse import Gatehouse, GatehouseError, canonical_json, payload_hash, payload_text

VECTORS = json.loads((Path(__file__).parent / "vectors" / "canonical.json").read_text("utf-8"))


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda case: case["args"][:40])
def test_the_shared_vectors_give_the_servers_text_and_hash(case: dict) -> None:
    args = json.loads(case["args"])
    assert payload_text(tool="probe", args=args) == case["text"]
    assert payload_hash(tool="probe", args=args) == case["hash"]


# Canonical JSON v1 is a frozen format; its vectors live with the protocol and hold every implementation.
FORMAT_V1 = json.loads(
    (Path(__file__).resolve().parents[2] / "protocol" / "test-vectors" / "canonical-json-v1.json").read_text("utf-8")
)


@pytest.mark.parametrize("case", FORMAT_V1["cases"], ids=lambda case: case["label"])
def test_the_frozen_v1_vectors_give_the_protocols_text(case: dict) -> None:
    assert canonical_json(json.loads(case["input"])) == case["output"]


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda case: case["args"][:40])
def test_the_live_server_hashes_each_vector_as_the_sdk_does(gate: Gatehouse, person, case: dict) -> None:
    # request() raises PAYLOAD_MISMATCH when the server's hash of what it received is not the
    # SDK's, before any waiting; a gate the policy opens (hidden characters raise the risk) is
    # left at once and rejected.
    args = json.loads(case["args"])
    cancel = threading.Event()
    gated: list[str] = []

    def leave(gate_id: str, _gate: object) -> None:
        gated.append(gate_id)
        cancel.set()

    try:
        result = gate.request(tool="read_file", args=args, cancel=cancel, on_gate=leave)
        assert result.payload_hash == payload_hash(tool="read_file", args=args)
    except GatehouseError as error:
        assert error.code == "ABORTED", error
        person.decide(gated[0], option="reject", reason="hash probe")


def test_the_raw_api_answers_the_sdks_hash(url: str) -> None:
    # Sent without the SDK, the server's payloadHash for these args equals the SDK's.
    import urllib.request

    from conftest import env

    args = {"n": 2.50, "k": {"2": 0, "1": [1.0e0, -0.0]}, "s": "\u2028\U0001f680"}
    request = urllib.request.Request(
        url + "/v1/gates",
        data=json.dumps({"tool": "read_file", "args": args}).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {env('GATEHOUSE_TEST_AGENT_TOKEN')}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        server = json.loads(response.read())
    assert server["payloadHash"] == payload_hash(tool="read_file", args=args)


def test_numbers_are_written_as_javascript_writes_them() -> None:
    assert canonical_json([1.0, 1e21, 1e20, 1e-7, 1e-6, -0.0, 2**53 + 1, 0.1 + 0.2]) == (
        "[1,1e+21,100000000000000000000,1e-7,0.000001,0,9007199254740992,0.30000000000000004]"
    )


def test_keys_sort_by_utf16_units_with_array_indices_first() -> None:
    assert canonical_json({"b": 1, "10": 2, "9": 3, "\uffff": 4, "\U0001f600": 5}) == (
        '{"9":3,"10":2,"b":1,"\U0001f600":5,"\uffff":4}'
    )


def test_nan_is_refused_and_depth_is_bounded() -> None:
    with pytest.raises(ValueError):
        payload_hash(tool="t", args={"x": math.nan})
    deep: list = []
    for _ in range(300):
        deep = [deep]
    with pytest.raises(GatehouseError) as refused:
        canonical_json(deep)
    assert refused.value.code == "VALIDATION_FAILED"

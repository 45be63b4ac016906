"""An approval is refused (fails closed) unless it covers the action asked for."""

from __future__ import annotations

from typing import Any, Optional

import pytest

from gatehouse import GatehouseError, payload_hash
from gatehouse.client import check_binding
from gatehouse.result import result_from_gate

ASKED = {"path": "build/"}


def _approved(decision: dict[str, Any], args: Optional[dict] = None) -> dict[str, Any]:
    """An approved gate document as the wait route returns it."""
    return {
        "id": "gate_x",
        "status": "approved",
        "action": {"tool": "delete_file", "args": args or ASKED},
        "payloadHash": payload_hash(tool="delete_file", args=ASKED),
        "decision": {"option": "approve", "outcome": "approved", "decidedBy": "user_dev", **decision},
    }


def test_an_approval_of_the_asked_action_passes() -> None:
    result = result_from_gate(_approved({"payloadHash": payload_hash(tool="delete_file", args=ASKED)}))
    check_binding(result, "delete_file", None, ASKED)
    assert (result.one_off, result.edited, result.args) == (True, False, ASKED)


def test_an_approval_of_another_action_is_refused() -> None:
    other = payload_hash(tool="delete_file", args={"path": "/"})
    with pytest.raises(GatehouseError) as refused:
        check_binding(result_from_gate(_approved({"payloadHash": other})), "delete_file", None, ASKED)
    assert (refused.value.code, refused.value.status) == ("PAYLOAD_MISMATCH", 409)


def test_an_edit_must_name_the_asked_action_as_its_original_and_hash_the_edited_one() -> None:
    edited = {"path": "build/cache/"}
    good = {
        "editedArgs": edited,
        "payloadHash": payload_hash(tool="delete_file", args=edited),
        "originalPayloadHash": payload_hash(tool="delete_file", args=ASKED),
    }
    result = result_from_gate(_approved(good))
    check_binding(result, "delete_file", None, ASKED)
    assert (result.edited, result.args) == (True, edited)

    for wrong in (
        {**good, "originalPayloadHash": payload_hash(tool="delete_file", args={"path": "elsewhere"})},
        {key: value for key, value in good.items() if key != "originalPayloadHash"},
        {**good, "payloadHash": payload_hash(tool="delete_file", args={"path": "/"})},
    ):
        with pytest.raises(GatehouseError) as refused:
            check_binding(result_from_gate(_approved(wrong)), "delete_file", None, ASKED)
        assert refused.value.code == "PAYLOAD_MISMATCH"


def test_outcomes_follow_the_servers_statuses() -> None:
    assert result_from_gate({"id": "g", "status": "rejected", "action": None, "decision": None}).outcome == "denied"
    assert result_from_gate({"id": "g", "status": "expired", "action": None, "decision": None}).outcome == "timed_out"
    resolved = {"id": "g", "status": "resolved", "action": None, "decision": {"option": "reduce_scope"}}
    assert result_from_gate(resolved).outcome == "reduce_scope"
    always = _approved({"option": "approve_always", "payloadHash": payload_hash(tool="delete_file", args=ASKED)})
    assert result_from_gate(always).one_off is False

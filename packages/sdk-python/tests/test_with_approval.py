"""with_approval as a decorator and as a context manager."""

from __future__ import annotations

import pytest
from conftest import Opened, Person

from gatehouse import ApprovalDenied, ApprovalSteered, Gatehouse, GatehouseError


def test_the_decorator_runs_only_approved_calls_and_uses_the_approval_once(
    gate: Gatehouse, person: Person, opened: Opened, background
) -> None:
    ran: list[str] = []

    @gate.with_approval("delete_file", on_gate=opened)
    def delete_file(path: str) -> str:
        ran.append(path)
        return f"deleted {path}"

    approved = background(delete_file, "build/")
    gate_id = opened.next()
    assert ran == []
    person.decide(gate_id, option="approve")
    assert approved.result(30) == "deleted build/"
    assert ran == ["build/"]
    # The one-off approval was consumed before the call.
    status, body = person.call("GET", f"/v1/gates/{gate_id}")
    assert body["consumedAt"] is not None
    answer = gate.wait_for_gate(gate_id)
    with pytest.raises(GatehouseError) as used:
        gate.consume(answer, "delete_file", args={"path": "build/"})
    assert used.value.code == "APPROVAL_USED"

    denied = background(delete_file, "src/")
    person.decide(opened.next(), option="reject", reason="not src")
    with pytest.raises(ApprovalDenied) as refusal:
        denied.result(30)
    assert refusal.value.reason == "not src"

    steered = background(delete_file, "dist/")
    person.decide(opened.next(), option="steer", instructions="delete dist/cache only")
    with pytest.raises(ApprovalSteered) as steer:
        steered.result(30)
    assert steer.value.instructions == "delete dist/cache only"
    assert ran == ["build/"]


def test_result_mode_returns_values(gate: Gatehouse, person: Person, opened: Opened, background) -> None:
    @gate.with_approval("write_file", args=lambda path: {"path": path}, mode="result", on_gate=opened)
    def write(path: str) -> int:
        return 42

    refused = background(write, "a.txt")
    person.decide(opened.next(), option="reject", reason="still no")
    outcome = refused.result(30)
    assert (outcome.ok, outcome.outcome, outcome.reason) == (False, "denied", "still no")

    allowed = background(write, "a.txt")
    person.decide(opened.next(), option="approve")
    outcome = allowed.result(30)
    assert (outcome.ok, outcome.value, outcome.approval.outcome) == (True, 42, "approved")


def test_the_decorator_refuses_arguments_changed_while_the_person_decided(
    gate: Gatehouse, person: Person, opened: Opened, background
) -> None:
    ran: list[dict] = []

    @gate.with_approval("write_file", on_gate=opened)
    def write(spec: dict) -> None:
        ran.append(dict(spec))

    spec = {"path": "notes.md"}
    pending = background(write, spec)
    gate_id = opened.next()
    spec["path"] = ".env"  # changed after asking
    person.decide(gate_id, option="approve")
    with pytest.raises(GatehouseError) as mismatch:
        pending.result(30)
    assert mismatch.value.code == "PAYLOAD_MISMATCH"
    assert ran == []


def test_the_context_manager_enters_only_when_approved(gate: Gatehouse, person: Person, opened: Opened, background) -> None:
    def guarded(path: str) -> str:
        with gate.approval("delete_file", args={"path": path}, on_gate=opened) as approved:
            return f"deleting {approved.args['path']} under gate {approved.gate_id}"

    allowed = background(guarded, "tmp/")
    gate_id = opened.next()
    person.decide(gate_id, option="approve")
    assert allowed.result(30) == f"deleting tmp/ under gate {gate_id}"
    status, body = person.call("GET", f"/v1/gates/{gate_id}")
    assert body["consumedAt"] is not None

    refused = background(guarded, "/")
    person.decide(opened.next(), option="reject", reason="never the root")
    with pytest.raises(ApprovalDenied):
        refused.result(30)

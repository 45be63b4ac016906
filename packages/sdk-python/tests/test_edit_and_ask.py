"""A person's edited arguments reach the agent, bound to their hash; ask() returns a person's answer."""

from __future__ import annotations

import os

import pytest
from conftest import Opened, Person

from gatehouse import ApprovalDenied, Gatehouse, payload_hash


def test_an_edited_approval_returns_the_edited_arguments_bound_to_their_hash(
    gate: Gatehouse, person: Person, opened: Opened, background
) -> None:
    pending = background(gate.request, tool="delete_file", args={"path": "build/"}, on_gate=opened)
    gate_id = opened.next()
    status, body = person.call("GET", f"/v1/gates/{gate_id}")
    assert body["gate"]["editable"] is True
    person.decide(gate_id, option="approve", editedArgs={"path": "build/cache/"})
    answer = pending.result(30)
    assert (answer.outcome, answer.edited, answer.args) == ("approved", True, {"path": "build/cache/"})
    assert answer.payload_hash == payload_hash(tool="delete_file", args={"path": "build/cache/"})
    # The approval is used for the edited action, not the proposed one.
    gate.consume(answer, tool="delete_file", args={"path": "build/cache/"})


def test_the_decorator_runs_the_edited_arguments(gate: Gatehouse, person: Person, opened: Opened, background) -> None:
    ran: list[str] = []

    @gate.with_approval("delete_file", on_gate=opened)
    def delete_file(path: str) -> str:
        ran.append(path)
        return path

    pending = background(delete_file, "build/")
    person.decide(opened.next(), option="approve", editedArgs={"path": "build/tmp/"})
    assert pending.result(30) == "build/tmp/"
    assert ran == ["build/tmp/"]


def test_a_custom_mapping_without_apply_edit_refuses_an_edit_rather_than_run_the_proposal(
    gate: Gatehouse, person: Person, opened: Opened, background
) -> None:
    from gatehouse import GatehouseError

    ran: list[str] = []

    @gate.with_approval("delete_file", args=lambda target: {"path": target}, on_gate=opened)
    def delete_file(target: str) -> None:
        ran.append(target)

    pending = background(delete_file, "build/")
    person.decide(opened.next(), option="approve", editedArgs={"path": "dist/"})
    with pytest.raises(GatehouseError) as refused:
        pending.result(30)
    assert (refused.value.code, refused.value.field) == ("PAYLOAD_MISMATCH", "apply_edit")
    assert ran == []


def test_ask_returns_the_answer_and_raises_when_declined(gate: Gatehouse, person: Person, opened: Opened, background) -> None:
    asked = background(gate.ask, "Which region should the bucket live in?", on_gate=opened)
    gate_id = opened.next()
    status, body = person.call("GET", f"/v1/gates/{gate_id}")
    assert (body["gate"]["type"], body["gate"]["title"]) == ("question", "Which region should the bucket live in?")
    person.decide(gate_id, option="answer", answer="eu-west-1")
    assert asked.result(30) == "eu-west-1"

    declined = background(gate.ask, "May I read your calendar?", on_gate=opened)
    person.decide(opened.next(), option="reject", reason="no")
    with pytest.raises(ApprovalDenied):
        declined.result(30)


def test_a_delegation_names_the_agent_and_an_expanded_constraint_its_new_limit(
    gate: Gatehouse, person: Person, opened: Opened, background
) -> None:
    other_agent = os.environ["GATEHOUSE_TEST_OTHER_AGENT_ID"]
    pending = background(
        gate.request,
        operation="Fix the flaky checkout test",
        gate_type="recovery_escalation",
        context={"severity": "CRITICAL"},
        on_gate=opened,
    )
    person.decide(opened.next(), option="delegate", delegateTo=other_agent)
    delegated = pending.result(30)
    assert (delegated.outcome, delegated.delegate_to, delegated.new_limit) == ("delegate", other_agent, None)

    pending = background(
        gate.request,
        operation="Render the report",
        gate_type="constraint_exception",
        context={"constraint": "at most 100 pages", "currentLimit": 100},
        on_gate=opened,
    )
    person.decide(opened.next(), option="expand_constraint", newLimit=140)
    expanded = pending.result(30)
    assert (expanded.outcome, expanded.new_limit, expanded.delegate_to) == ("expand_constraint", 140, None)


"""The answer to a request: a value, whatever a person or the policy chose."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from .errors import GatehouseError

#: The option that remembers an approval as a rule; such approvals are not used up.
APPROVE_ALWAYS = "approve_always"


@dataclass
class Action:
    """What an agent asks to do: one of ``tool`` or ``operation``, with its arguments."""

    tool: Optional[str] = None
    operation: Optional[str] = None
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class GateResult:
    """How a request ended.

    ``outcome`` is ``approved``, ``denied``, ``steered``, ``timed_out``, ``cancelled`` or a
    gate-specific option id (``retry``, ``abort``, ``answer``, ...). ``args`` are the arguments to
    run: a person's edited arguments when ``edited`` is true, else the agent's own.
    """

    outcome: str
    option: Optional[str] = None
    reason: Optional[str] = None
    #: Steer instructions: the agent's next instruction, delivered verbatim.
    instructions: Optional[str] = None
    feedback: Optional[str] = None
    #: The person's answer to a question gate (``ask``).
    answer: Optional[str] = None
    #: The agent a person handed the task to (option ``delegate``).
    delegate_to: Optional[str] = None
    #: The new limit a person set (option ``expand_constraint``).
    new_limit: Optional[float] = None
    affected_artifacts: list[str] = field(default_factory=list)
    gate_id: Optional[str] = None
    rule_id: Optional[str] = None
    #: ``policy`` when the policy answered at once, ``system:timeout`` for a timeout, else a person.
    decided_by: Optional[str] = None
    #: SHA-256 (hex) of the action this answer covers; None for gates without an action.
    payload_hash: Optional[str] = None
    #: True when the approval is used once: ``with_approval`` consumes it before running.
    one_off: bool = False
    args: dict[str, Any] = field(default_factory=dict)
    edited: bool = False
    interventions: list[dict[str, Any]] = field(default_factory=list)
    gate: Optional[dict[str, Any]] = None

    @property
    def approved(self) -> bool:
        return self.outcome == "approved"


_STATUS_OUTCOMES = {
    "approved": "approved",
    "steered": "steered",
    "cancelled": "cancelled",
    "rejected": "denied",
    "expired": "timed_out",
}


def outcome_of_gate(gate: Mapping[str, Any]) -> Optional[str]:
    """The agent-facing outcome of a gate, or None while it is pending (as the server's gateOutcome)."""
    status = gate.get("status")
    if status == "pending":
        return None
    if status == "resolved":
        decision = gate.get("decision") or {}
        return decision.get("option") or "resolved"
    if status in _STATUS_OUTCOMES:
        return _STATUS_OUTCOMES[status]
    raise GatehouseError("INTERNAL", f"the server sent a gate with an unknown status {status!r}")


def result_from_policy(response: Mapping[str, Any], payload_hash: str, args: Mapping[str, Any]) -> GateResult:
    """The answer when the policy decided at once: allowed is approved, denied is denied."""
    gate = response.get("gate")
    return GateResult(
        outcome="approved" if response.get("outcome") == "allowed" else "denied",
        reason=response.get("reason"),
        gate_id=(gate or {}).get("id") or response.get("gateId"),
        rule_id=response.get("ruleId"),
        decided_by="policy",
        payload_hash=payload_hash,
        args=dict(args),
        interventions=list(response.get("interventions") or []),
        gate=gate,
    )


def result_from_gate(
    gate: dict[str, Any],
    *,
    outcome: Optional[str] = None,
    rule_id: Optional[str] = None,
    interventions: Optional[list[dict[str, Any]]] = None,
) -> GateResult:
    """The answer an ended gate carries, with a person's edited arguments when there are any."""
    decision: Mapping[str, Any] = gate.get("decision") or {}
    final = outcome or outcome_of_gate(gate) or "pending"
    action = gate.get("action")
    edited_args = decision.get("editedArgs")
    edited = final == "approved" and isinstance(edited_args, dict)
    args = edited_args if edited else (action or {}).get("args") or {}
    return GateResult(
        outcome=final,
        option=decision.get("option"),
        reason=decision.get("reason"),
        instructions=decision.get("instructions"),
        feedback=decision.get("feedback"),
        answer=decision.get("answer"),
        delegate_to=decision.get("delegateTo"),
        new_limit=decision.get("newLimit"),
        affected_artifacts=list(decision.get("affectedArtifacts") or []),
        gate_id=gate.get("id"),
        rule_id=rule_id or gate.get("policyRuleId"),
        decided_by=decision.get("decidedBy"),
        payload_hash=decision.get("payloadHash") or gate.get("payloadHash"),
        one_off=final == "approved" and action is not None and decision.get("option") != APPROVE_ALWAYS,
        args=dict(args),
        edited=edited,
        interventions=list(interventions or []),
        gate=gate,
    )


def payload_mismatch(gate_id: Optional[str], approved: Optional[str], actual: str) -> GatehouseError:
    """The PAYLOAD_MISMATCH refusal: the approval covers another action than the one being run."""
    return GatehouseError(
        "PAYLOAD_MISMATCH",
        f"the approval of gate {gate_id or '(none)'} covers a different action than the one being run",
        status=409,
        details={"gateId": gate_id, "approved": approved, "actual": actual},
    )

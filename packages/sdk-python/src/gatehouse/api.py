"""Every route and field this SDK uses, in one place.

A test fetches ``/v1/openapi.json`` from a real server and fails when any path, method, parameter
or field listed here is missing or has another JSON type, so the SDK and the server cannot drift
apart unnoticed. Field maps are ``name -> JSON Schema type`` as the SDK reads or sends them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional

#: Names of the routes below, for ``ROUTES[...]``.
REQUEST_GATE = "request_gate"
GET_GATE = "get_gate"
WAIT_GATE = "wait_gate"
CONSUME_GATE = "consume_gate"
WITHDRAW_GATE = "withdraw_gate"
CREATE_RUN = "create_run"
GET_RUN = "get_run"
RUN_EVENTS = "run_events"


@dataclass(frozen=True)
class Route:
    method: str
    #: The OpenAPI path, with ``{id}`` for the path parameter.
    path: str
    body: Mapping[str, str] = field(default_factory=dict)
    query: Mapping[str, str] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    #: Top-level fields of the 200 answer the SDK reads.
    response: Mapping[str, str] = field(default_factory=dict)
    #: The answer's field holding a gate document (checked against GATE_FIELDS), if any.
    gate_at: Optional[str] = None

    def url(self, **params: str) -> str:
        from urllib.parse import quote

        path = self.path
        for name, value in params.items():
            path = path.replace("{" + name + "}", quote(value, safe=""))
        return path


ROUTES: Mapping[str, Route] = {
    REQUEST_GATE: Route(
        "POST",
        "/v1/gates",
        body={
            "runId": "string",
            "tool": "string",
            "operation": "string",
            "args": "object",
            "event": "string",
            "gateType": "string",
            "context": "object",
            "artifacts": "array",
            "risk": "string",
            "confidence": "number",
            "timeoutSeconds": "integer",
            "timeoutAction": "string",
            "title": "string",
        },
        headers={"idempotency-key": "string"},
        response={
            "outcome": "string",
            "gate": "object",
            "gateId": "string",
            "ruleId": "string",
            "reason": "string",
            "payloadHash": "string",
            "interventions": "array",
        },
        gate_at="gate",
    ),
    GET_GATE: Route("GET", "/v1/gates/{id}", response={"gate": "object"}, gate_at="gate"),
    WAIT_GATE: Route(
        "GET",
        "/v1/gates/{id}/wait",
        query={"timeoutMs": "integer"},
        response={"gate": "object", "outcome": "string"},
        gate_at="gate",
    ),
    CONSUME_GATE: Route("POST", "/v1/gates/{id}/consume", body={"payloadHash": "string"}),
    WITHDRAW_GATE: Route(
        "POST", "/v1/gates/{id}/withdraw", body={"reason": "string"}, response={"gate": "object"}, gate_at="gate"
    ),
    CREATE_RUN: Route(
        "POST",
        "/v1/runs",
        body={"autonomy": "string", "approvalMode": "string", "confidenceThreshold": "number", "title": "string"},
        response={"run": "object"},
    ),
    GET_RUN: Route("GET", "/v1/runs/{id}", response={"run": "object"}),
    RUN_EVENTS: Route("GET", "/v1/runs/{id}/events"),
}

#: Fields of a gate document the SDK reads.
GATE_FIELDS: Mapping[str, str] = {
    "id": "string",
    "type": "string",
    "status": "string",
    "title": "string",
    "action": "object",
    "payloadHash": "string",
    "options": "array",
    "policyRuleId": "string",
    "editable": "boolean",
    "decision": "object",
}

#: Fields of a gate's decision the SDK reads.
DECISION_FIELDS: Mapping[str, str] = {
    "option": "string",
    "outcome": "string",
    "decidedBy": "string",
    "reason": "string",
    "feedback": "string",
    "instructions": "string",
    "affectedArtifacts": "array",
    "payloadHash": "string",
    # A person's edited arguments (then payloadHash is theirs) and a question gate's answer.
    "editedArgs": "object",
    "originalPayloadHash": "string",
    "answer": "string",
    # The agent a task was delegated to and an expanded constraint's new limit.
    "delegateTo": "string",
    "newLimit": "number",
}

#: Fields of a run document the SDK reads.
RUN_FIELDS: Mapping[str, str] = {"id": "string", "status": "string"}

#: The gate type of ``ask`` and the option that answers it.
QUESTION_GATE_TYPE = "question"
ANSWER_OPTION = "answer"

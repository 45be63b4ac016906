"""The routes and fields in gatehouse.api exist on the server with the same JSON types."""

from __future__ import annotations

import json
import urllib.request
from typing import Any, Iterator, Mapping

import pytest

from gatehouse import api


@pytest.fixture(scope="module")
def spec(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/v1/openapi.json", timeout=30) as response:
        return json.loads(response.read())


def _variants(schema: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The schema and every branch of its anyOf / oneOf / allOf."""
    yield schema
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in schema.get(key, []):
            yield from _variants(branch)


def _types(schema: Mapping[str, Any]) -> set[str]:
    found: set[str] = set()
    for variant in _variants(schema):
        declared = variant.get("type")
        found.update(declared if isinstance(declared, list) else [declared] if declared else [])
    if "integer" in found:
        found.add("number")
    return found


def _properties(schema: Mapping[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for variant in _variants(schema):
        merged.update(variant.get("properties", {}))
    return merged


def _check_fields(where: str, properties: Mapping[str, Any], fields: Mapping[str, str]) -> list[str]:
    problems = []
    for name, kind in fields.items():
        if name not in properties:
            problems.append(f"{where}: field {name} is missing")
        elif kind not in _types(properties[name]):
            problems.append(f"{where}: field {name} is {sorted(_types(properties[name]))}, the SDK expects {kind}")
    return problems


def _success(operation: Mapping[str, Any]) -> Mapping[str, Any]:
    """The JSON answer of the route's success status (200 or 201)."""
    responses = operation.get("responses", {})
    status = next((code for code in ("200", "201") if code in responses), None)
    assert status is not None, f"no success answer in {sorted(responses)}"
    return responses[status].get("content", {}).get("application/json", {})


def _operation(spec: dict, route: api.Route) -> dict:
    path = spec["paths"].get(route.path)
    assert path is not None, f"{route.method} {route.path}: the path is missing"
    operation = path.get(route.method.lower())
    assert operation is not None, f"{route.method} {route.path}: the method is missing"
    return operation


@pytest.mark.parametrize("name", sorted(api.ROUTES))
def test_each_route_the_sdk_uses_has_its_fields(spec: dict, name: str) -> None:
    route = api.ROUTES[name]
    operation = _operation(spec, route)
    where = f"{route.method} {route.path}"
    problems: list[str] = []
    parameters = {
        (p["in"], p["name"].lower() if p["in"] == "header" else p["name"]): p.get("schema", {})
        for p in operation.get("parameters", [])
    }
    for place, fields in (("query", route.query), ("header", route.headers)):
        problems += _check_fields(
            f"{where} {place}", {n: s for (i, n), s in parameters.items() if i == place}, fields
        )
    if route.body:
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
        problems += _check_fields(f"{where} body", _properties(body), route.body)
    answer = _success(operation)
    properties = _properties(answer.get("schema", {}))
    problems += _check_fields(f"{where} answer", properties, route.response)
    if route.gate_at is not None:
        gate = _properties(properties.get(route.gate_at, {}))
        problems += _check_fields(f"{where} gate", gate, api.GATE_FIELDS)
        decision = _properties(gate.get("decision", {}))
        problems += _check_fields(f"{where} gate.decision", decision, api.DECISION_FIELDS)
    assert problems == []


def test_the_run_document_has_the_fields_the_sdk_reads(spec: dict) -> None:
    operation = _operation(spec, api.ROUTES[api.GET_RUN])
    answer = _success(operation)["schema"]
    run = _properties(_properties(answer)["run"])
    assert _check_fields("run", run, api.RUN_FIELDS) == []


def test_the_check_notices_a_missing_or_retyped_field() -> None:
    properties = {"payloadHash": {"type": "integer"}}
    assert _check_fields("x", properties, {"payloadHash": "string", "gone": "string"}) == [
        "x: field payloadHash is ['integer', 'number'], the SDK expects string",
        "x: field gone is missing",
    ]

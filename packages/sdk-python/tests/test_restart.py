"""Waiting survives a server restart: the same gate, never a second one."""

from __future__ import annotations

from conftest import Opened, Person, start_restart

from gatehouse import Backoff, Gatehouse


def _pending_gates(person: Person, tool: str) -> list[dict]:
    status, body = person.call("GET", "/v1/gates?status=pending&limit=200")
    assert status == 200, body
    return [g for g in body["items"] if (g.get("action") or {}).get("tool") == tool]


def test_keeps_waiting_on_the_same_gate_through_a_restart(url: str, person: Person, opened: Opened, background) -> None:
    retries: list[int] = []
    from conftest import env

    gate = Gatehouse(
        url,
        env("GATEHOUSE_TEST_AGENT_TOKEN"),
        backoff=Backoff(initial_delay=0.02, max_delay=0.2),
        on_retry=lambda attempt, delay, error: retries.append(attempt),
    )
    pending = background(gate.request, tool="restart_probe", args={"step": 1}, on_gate=opened)
    gate_id = opened.next()
    start_restart(down_ms=500).join(timeout=60)
    person.decide(gate_id, option="approve")
    answer = pending.result(60)
    assert (answer.outcome, answer.gate_id) == ("approved", gate_id)
    assert retries, "the wait must have been cut by the restart and resumed"
    status, body = person.call("GET", f"/v1/gates?limit=200")
    assert [g["id"] for g in body["items"] if (g.get("action") or {}).get("tool") == "restart_probe"] == [gate_id]


def test_a_request_sent_while_the_server_is_down_and_repeated_by_a_restarted_agent_finds_one_gate(
    url: str, person: Person, background
) -> None:
    from conftest import env

    token = env("GATEHOUSE_TEST_AGENT_TOKEN")
    gate = Gatehouse(url, token, backoff=Backoff(initial_delay=0.02, max_delay=0.1))
    restarting = start_restart(down_ms=1500)
    import time

    time.sleep(0.3)  # the server is down now
    first = background(gate.request, tool="restart_key_probe", args={"step": 7}, idempotency_key="py-agent-step-7")
    restarting.join(timeout=60)
    # A second agent process with the same key (a crash and restart of the agent) waits on the same gate.
    again = background(
        Gatehouse(url, token).request, tool="restart_key_probe", args={"step": 7}, idempotency_key="py-agent-step-7"
    )
    for _ in range(400):
        gates = _pending_gates(person, "restart_key_probe")
        if gates:
            break
        time.sleep(0.025)
    assert len(gates) == 1
    person.decide(gates[0]["id"], option="approve")
    assert first.result(60).gate_id == gates[0]["id"]
    assert again.result(60).gate_id == gates[0]["id"]
    status, body = person.call("GET", "/v1/gates?limit=200")
    assert len([g for g in body["items"] if (g.get("action") or {}).get("tool") == "restart_key_probe"]) == 1

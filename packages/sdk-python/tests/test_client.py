"""request, waiting, answers as values, consume, interventions: against the real server."""

from __future__ import annotations

import os
import threading
import time

import pytest
from conftest import Opened, Person

from gatehouse import Gatehouse, GatehouseError, payload_hash

WRITE = {"tool": "write_file", "args": {"path": "src/app.py", "content": "print('hi')\n"}}


def test_an_allowed_request_answers_at_once_without_a_gate(gate: Gatehouse) -> None:
    answer = gate.request(tool="read_file", args={"path": "README.md"})
    assert (answer.outcome, answer.decided_by, answer.gate_id, answer.one_off) == ("approved", "policy", None, False)
    assert answer.rule_id == "cowork-auto-approved"
    assert answer.args == {"path": "README.md"} and not answer.edited


def test_waits_for_a_person_and_returns_an_approval_bound_to_the_action(
    gate: Gatehouse, person: Person, opened: Opened, background
) -> None:
    pending = background(gate.request, **WRITE, on_gate=opened)
    gate_id = opened.next()
    time.sleep(0.3)
    assert not pending.done(), "the agent must wait for the person"
    person.decide(gate_id, option="approve")
    answer = pending.result(timeout=30)
    assert (answer.outcome, answer.option, answer.gate_id, answer.decided_by) == ("approved", "approve", gate_id, person.id)
    assert answer.one_off
    assert answer.payload_hash == payload_hash(**WRITE)
    assert answer.args == WRITE["args"] and not answer.edited


def test_denied_steered_and_gate_options_are_values(gate: Gatehouse, person: Person, opened: Opened, background) -> None:
    denied = background(gate.request, **WRITE, on_gate=opened)
    person.decide(opened.next(), option="reject", reason="not in this sprint")
    assert (denied.result(30).outcome, denied.result(30).reason) == ("denied", "not in this sprint")

    steered = background(gate.request, **WRITE, on_gate=opened)
    person.decide(opened.next(), option="steer", instructions="write src/app.js instead")
    assert (steered.result(30).outcome, steered.result(30).instructions) == ("steered", "write src/app.js instead")

    option = background(
        gate.request, operation="finish the import", event="constraint_violation", args={}, on_gate=opened
    )
    person.decide(opened.next(), option="reduce_scope", reason="skip the archive")
    assert (option.result(30).outcome, option.result(30).reason) == ("reduce_scope", "skip the archive")


def test_a_one_off_approval_is_consumed_once_and_only_for_its_action(
    gate: Gatehouse, person: Person, opened: Opened, background
) -> None:
    pending = background(gate.request, **WRITE, on_gate=opened)
    person.decide(opened.next(), option="approve")
    answer = pending.result(30)
    with pytest.raises(GatehouseError) as other:
        gate.consume(answer, tool="write_file", args={"path": ".env", "content": "x"})
    assert other.value.code == "PAYLOAD_MISMATCH"
    gate.consume(answer, **WRITE)
    with pytest.raises(GatehouseError) as again:
        gate.consume(answer, **WRITE)
    assert (again.value.code, again.value.status) == ("APPROVAL_USED", 409)


def test_the_cancel_event_stops_waiting_and_leaves_the_gate_open(
    gate: Gatehouse, person: Person, opened: Opened, background
) -> None:
    cancel = threading.Event()
    pending = background(gate.request, **WRITE, on_gate=opened, cancel=cancel)
    gate_id = opened.next()
    cancel.set()
    with pytest.raises(GatehouseError) as stopped:
        pending.result(30)
    assert stopped.value.code == "ABORTED"
    status, body = person.call("GET", f"/v1/gates/{gate_id}")
    assert body["gate"]["status"] == "pending"
    person.decide(gate_id, option="reject", reason="cleanup")


def test_withdraw_cancels_the_agents_own_pending_gate_and_only_once(
    gate: Gatehouse, person: Person, opened: Opened, background
) -> None:
    cancel = threading.Event()
    pending = background(gate.request, **WRITE, on_gate=opened, cancel=cancel)
    gate_id = opened.next()
    cancel.set()
    with pytest.raises(GatehouseError):
        pending.result(30)
    withdrawn = gate.withdraw(gate_id, reason="the user closed the task")
    assert withdrawn["status"] == "cancelled"
    assert withdrawn["decision"]["reason"] == "the user closed the task"
    status, body = person.call("GET", f"/v1/gates/{gate_id}")
    assert body["gate"]["status"] == "cancelled"
    with pytest.raises(GatehouseError) as again:
        gate.withdraw(gate_id)
    assert (again.value.code, again.value.status) == ("GATE_NOT_PENDING", 409)


def test_bad_input_is_a_gatehouse_error_naming_the_field(gate: Gatehouse) -> None:
    with pytest.raises(GatehouseError) as refused:
        gate.request(tool="write_file", args={}, risk="enormous")
    error = refused.value
    assert (error.code, error.status) == ("VALIDATION_FAILED", 400)
    assert "risk" in (error.field or "") + error.message
    assert error.retry_after is None


def test_an_unreachable_server_is_service_unavailable_with_status_0() -> None:
    from gatehouse import Backoff

    lost = Gatehouse("http://127.0.0.1:9", "gha_x", backoff=Backoff(0.01, 0.02, max_elapsed=0.2))
    with pytest.raises(GatehouseError) as refused:
        lost.request(tool="read_file", args={})
    assert (refused.value.code, refused.value.status) == ("SERVICE_UNAVAILABLE", 0)


def test_a_success_without_a_json_body_is_refused_at_once() -> None:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from gatehouse import Backoff

    bodies = [b"", b"ok"]
    seen: list = []

    class NotGatehouse(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
            self.rfile.read(int(self.headers.get("content-length") or 0))
            body = bodies[len(seen)]
            seen.append(self.path)
            self.send_response(200)
            self.send_header("content-type", "text/plain")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), NotGatehouse)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        other = Gatehouse(f"http://127.0.0.1:{server.server_address[1]}", "gha_x", backoff=Backoff(0.01, 0.02))
        for what in ("an empty body", "a body that is not JSON"):
            with pytest.raises(GatehouseError) as refused:
                other.request(tool="read_file", args={})
            assert (refused.value.code, refused.value.status) == ("INTERNAL", 200)
            assert refused.value.message == f"the server answered 200 with {what}"
        assert len(seen) == 2
    finally:
        server.shutdown()
        server.server_close()


def test_a_paused_run_holds_the_request_until_it_resumes(url: str, person: Person, background) -> None:
    from conftest import env

    from gatehouse import Backoff

    refusals: list[str] = []
    gate = Gatehouse(
        url,
        env("GATEHOUSE_TEST_AGENT_TOKEN"),
        backoff=Backoff(initial_delay=0.02, max_delay=0.05),
        on_retry=lambda attempt, delay, error: refusals.append(error.code),
    )
    run = gate.create_run(title="python pause")
    person.intervene(run["id"], "pause")
    pending = background(gate.request, tool="read_file", args={"path": "a"}, run_id=run["id"])
    time.sleep(0.5)
    assert not pending.done(), "a request of a paused run must wait"
    person.intervene(run["id"], "resume")
    assert pending.result(30).outcome == "approved"
    assert set(refusals) <= {"RUN_NOT_ACTIVE"}
    # A server that holds a paused run's request only briefly refuses it; the SDK asks again until resume.
    if os.environ.get("GATEHOUSE_TEST_PAUSED_RUN_HOLD_MS"):
        assert refusals, "the SDK must ask again after the server refused a paused run's request"


def test_a_stopped_run_fails_closed(gate: Gatehouse, person: Person) -> None:
    run = gate.create_run()
    person.intervene(run["id"], "stop")
    with pytest.raises(GatehouseError) as stopped:
        gate.request(**WRITE, run_id=run["id"])
    assert stopped.value.code == "RUN_STOPPED"


def test_interventions_arrive_in_order_through_the_iterator_and_the_callback(gate: Gatehouse, person: Person) -> None:
    run = gate.create_run()
    stream = gate.interventions(run["id"])
    seen_by_callback: list[tuple[str, object]] = []
    stop = gate.on_intervention(run["id"], lambda event: seen_by_callback.append((event.kind, event.instruction)))
    seen: list[tuple[str, object]] = []

    def read() -> None:
        for event in stream:
            seen.append((event.kind, event.instruction))
            if len(seen) == 2:
                stream.close()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(0.5)
    person.intervene(run["id"], "pause")
    person.intervene(run["id"], "steer", "use pnpm")
    reader.join(timeout=20)
    expected = [("pause", None), ("steer", "use pnpm")]
    assert seen == expected
    deadline = time.monotonic() + 10
    while len(seen_by_callback) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    stop()
    assert seen_by_callback == expected

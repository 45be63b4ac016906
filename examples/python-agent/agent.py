#!/usr/bin/env python3
"""An agent that asks Gatehouse before it deletes anything (standard library only).

It starts a run, reads a file (the policy allows that at once), sends its plan for a person to
approve (Gate 0: at the default autonomy, partial, nothing is implemented before that), then asks
before deleting the build folder: a person approves, rejects, steers or edits the path in the
inbox. A steer or a stop sent to the run while it works is printed as it arrives.

    PYTHONPATH=packages/sdk-python/src python3 examples/python-agent/agent.py \
        --url http://127.0.0.1:7300 --token "$GATEHOUSE_TOKEN" --workdir /tmp/demo
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from gatehouse import ApprovalDenied, ApprovalSteered, ApprovalTimedOut, Gatehouse, GatehouseError


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("GATEHOUSE_URL", "http://127.0.0.1:7300"))
    parser.add_argument("--token", default=os.environ.get("GATEHOUSE_TOKEN"))
    parser.add_argument("--workdir", default=".", help="the folder whose build/ the agent cleans up")
    options = parser.parse_args()
    if not options.token:
        print("set GATEHOUSE_TOKEN or pass --token (an agent token, gha_...)", file=sys.stderr)
        return 2

    workdir = Path(options.workdir)
    gate = Gatehouse(options.url, options.token)
    run = gate.create_run(title="clean up the build folder")
    print(f"run {run['id']} started")
    stop_following = gate.on_intervention(
        run["id"], lambda event: print(f"intervention: {event.kind}{' ' + event.instruction if event.instruction else ''}")
    )

    readme = gate.request(tool="read_file", args={"path": "README.md"}, run_id=run["id"])
    print(f"read_file README.md: {readme.outcome} by {readme.decided_by}")

    plan = gate.request(
        operation="Clean up: delete the build folder",
        event="planning_complete",
        run_id=run["id"],
        on_gate=lambda gate_id, _gate: print(f"waiting for a person to approve the plan on gate {gate_id}", flush=True),
    )
    print(f"plan: {plan.outcome} by {plan.decided_by}")
    if plan.outcome != "approved":
        print(f"not deleted: the plan was {plan.outcome} ({plan.reason or plan.instructions or 'no reason given'})")
        stop_following()
        return 1

    @gate.with_approval(
        "delete_file",
        run_id=run["id"],
        title="Delete the build folder",
        on_gate=lambda gate_id, _gate: print(f"waiting for a person on gate {gate_id}", flush=True),
    )
    def delete_file(path: str) -> str:
        shutil.rmtree(workdir / path)
        return path

    try:
        deleted = delete_file("build")
        print(f"deleted {deleted}")
        status = 0
    except ApprovalSteered as steer:
        print(f"steered: {steer.instructions}")
        status = 0
    except (ApprovalDenied, ApprovalTimedOut) as refusal:
        print(f"not deleted: {refusal.outcome} ({refusal.result.reason or 'no reason given'})")
        status = 1
    except GatehouseError as error:
        print(f"refused: {error.code}: {error.message}", file=sys.stderr)
        status = 1
    finally:
        stop_following()
    return status


if __name__ == "__main__":
    sys.exit(main())

import {
  checkEditedArgs,
  defaultEventOf,
  editedActionOf,
  editRefusedError,
  editVerdictRefusal,
  type Gate,
  POLICY_EVENT_GATE_TYPES,
  type PolicyRequest,
} from 'gatehouse-hitl-core';
import type { WorkTx } from '../commit.js';
import { agentProfile } from './agent-profile.js';
import type { GateDeps } from './gate-common.js';
import { evaluateRequest } from './gate-evaluate.js';
import { invalidInput } from './gate-input.js';
import { payloadHashOf } from './gate-opening.js';

/** A person's checked edit: the arguments to run and their action's hash. */
export interface CheckedEdit {
  args: Record<string, unknown>;
  payloadHash: string;
}

function eventOf(gate: Gate): string {
  const found = Object.entries(POLICY_EVENT_GATE_TYPES).find(([, type]) => type === gate.type);
  return found?.[0] ?? defaultEventOf({ tool: gate.action?.tool });
}

async function policyRequestOf(deps: GateDeps, tx: WorkTx, gate: Gate, args: Record<string, unknown>) {
  const run = gate.runId === null ? null : await tx.getRun(gate.runId);
  const action = gate.action;
  const request: PolicyRequest = {
    event: eventOf(gate),
    args,
    agent: {
      id: gate.agentId ?? 'unknown',
      profile: gate.agentId === null ? null : await agentProfile(deps, tx, gate.agentId),
    },
    gateType: gate.type,
    ...(action?.tool === undefined ? {} : { tool: action.tool }),
    ...(action?.operation === undefined ? {} : { operation: action.operation }),
    ...(gate.confidence === null ? {} : { confidence: gate.confidence }),
    ...(gate.artifacts.length === 0 ? {} : { impact: { files: gate.artifacts } }),
    ...(run === null ? {} : { run: { id: run.id, autonomy: run.autonomy, approvalMode: run.approvalMode } }),
  };
  return { request, run };
}

/**
 * Checks a person's edited arguments as strictly as an agent's request: the gate must allow edits,
 * no hidden characters, and the current policy must neither deny the edited action nor gate it more
 * strictly than this gate. Returns null when the edit changes nothing.
 */
export async function checkEdit(
  deps: GateDeps,
  tx: WorkTx,
  gate: Gate,
  input: { option: string; editedArgs?: Record<string, unknown> | undefined },
): Promise<CheckedEdit | null> {
  if (input.editedArgs === undefined) return null;
  if (input.option !== 'approve') {
    throw invalidInput('editedArgs', `editedArgs goes only with option approve (got "${input.option}")`);
  }
  const args = checkEditedArgs(gate, input.editedArgs);
  const payloadHash = payloadHashOf(editedActionOf(gate, args));
  if (payloadHash === gate.payloadHash) return null;
  const { request, run } = await policyRequestOf(deps, tx, gate, args);
  const evaluation = await evaluateRequest(tx, {
    policy: deps.policies.current(),
    catalog: deps.catalog,
    request,
    run,
    autoProceedDelayMs: deps.autoProceedDelayMs,
  });
  const refusal = editVerdictRefusal({
    gate,
    editedArgs: args,
    verdict: evaluation.verdict,
    alwaysGated: evaluation.alwaysGated,
    catalog: deps.catalog,
  });
  if (refusal !== null) throw editRefusedError(gate, refusal);
  return { args, payloadHash };
}

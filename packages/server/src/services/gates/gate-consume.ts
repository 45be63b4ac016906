import { type Gate, GatehouseError } from 'gatehouse-hitl-core';
import type { IdempotencyRepo } from 'gatehouse-hitl-store';
import type { Principal } from '../../http/principal.js';
import { commit } from '../commit.js';
import { announce, assertOwnGate, type GateDeps, loadGate, withoutVersion } from './gate-common.js';

const CONSUMED_SCOPE = 'gate-consumed';

/** When a one-off approval was used, or null. */
export async function consumedAt(deps: GateDeps, gateId: string): Promise<number | null> {
  return deps.ctx.store.read((tx) => consumedAtIn(tx, gateId));
}

/** The same, read in the caller's transaction. */
export async function consumedAtIn(tx: IdempotencyRepo, gateId: string): Promise<number | null> {
  const record = await tx.getIdempotency(CONSUMED_SCOPE, gateId);
  return record === null ? null : record.createdAt;
}

function checkConsumable(gate: Gate, payloadHash: string): void {
  if (gate.status !== 'approved') {
    throw new GatehouseError(
      'INVALID_TRANSITION',
      `gate ${gate.id} is ${gate.status}; only an approved gate can be used`,
      {
        gateId: gate.id,
        status: gate.status,
      },
    );
  }
  const bound = gate.decision?.payloadHash ?? gate.payloadHash;
  if (bound !== null && bound !== payloadHash) {
    throw new GatehouseError(
      'PAYLOAD_MISMATCH',
      `gate ${gate.id} approved a different action than the one being run`,
      {
        field: 'payloadHash',
        gateId: gate.id,
        approved: bound,
        actual: payloadHash,
      },
    );
  }
}

/** Marks a one-off approval used for exactly the approved action; the second use is APPROVAL_USED. */
export async function consumeGate(
  deps: GateDeps,
  principal: Principal,
  gateId: string,
  payloadHash: string,
): Promise<{ gate: Gate; consumedAt: number | null; oneOff: boolean }> {
  return commit(deps.ctx, async (tools) => {
    const { tx } = tools;
    const gate = withoutVersion(await loadGate(tx, gateId));
    const agentId = assertOwnGate(principal, gate);
    checkConsumable(gate, payloadHash);
    // An "approve always" approval is a standing rule: using it does not use it up.
    if (gate.decision?.option === 'approve_always') return { gate, consumedAt: null, oneOff: false };
    const record = {
      scope: CONSUMED_SCOPE,
      key: gateId,
      requestHash: payloadHash,
      response: { agentId },
      createdAt: tx.now,
    };
    if (!(await tx.putIdempotency(record))) {
      const first = await tx.getIdempotency(CONSUMED_SCOPE, gateId);
      throw new GatehouseError('APPROVAL_USED', `the approval of gate ${gateId} was already used`, {
        gateId,
        consumedAt: first?.createdAt ?? null,
      });
    }
    await tools.audit({
      kind: 'gate.consumed',
      actor: `agent:${agentId}`,
      subject: gateId,
      data: { payloadHash },
    });
    await announce(tools, 'gate.consumed', gate, { consumedAt: tx.now });
    return { gate, consumedAt: tx.now, oneOff: true };
  });
}

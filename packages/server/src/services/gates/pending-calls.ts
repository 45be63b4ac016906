import type { IdempotencyRepo } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { commit } from '../commit.js';

/**
 * Calls a client was told are waiting for a person, remembered under the client's own key for the
 * call, so that its identical retry gets the gate's end once even after the gate ended: the server's
 * side of the command hook's ledger.
 */
export interface PendingCalls {
  /** The gate the last answer to this call left open, until its end is delivered; read in `tx`. */
  find(tx: IdempotencyRepo, agentId: string, callKey: string): Promise<string | null>;
  remember(agentId: string, callKey: string, gateId: string): Promise<void>;
  /** The gate's end reached the client: the next identical call is decided afresh. */
  forget(agentId: string, callKey: string): Promise<void>;
}

/** Past this many remembered-and-delivered rounds of one call, its retries open new gates. */
const MAX_SLOTS = 200;

/** A slot holds a gate id, or null once that gate's end was delivered. */
type Slot = { gateId: string | null };

interface Scan {
  /** The first empty slot. */
  next: number;
  /** The gate of the last slot, when its end is not delivered yet. */
  open: string | null;
}

const scopeOf = (agentId: string) => `claude-code-call:${agentId}`;

// Records are written once and never removed, so each call holds a row of slots:
// a gate id, then null when delivered, then the next gate id, and so on.
async function scan(tx: IdempotencyRepo, agentId: string, callKey: string): Promise<Scan> {
  let open: string | null = null;
  for (let slot = 0; slot < MAX_SLOTS; slot++) {
    const record = await tx.getIdempotency(scopeOf(agentId), `${callKey}:${slot}`);
    if (record === null) return { next: slot, open };
    open = (record.response as Slot).gateId;
  }
  return { next: MAX_SLOTS, open };
}

/** Pending calls kept as idempotency records of the store. */
export function createPendingCalls(ctx: AppContext): PendingCalls {
  const put = (agentId: string, callKey: string, slots: { at: number; gateId: string | null }[]) =>
    commit(ctx, async ({ tx }) => {
      for (const { at, gateId } of slots) {
        if (at >= MAX_SLOTS) return;
        const record = {
          scope: scopeOf(agentId),
          key: `${callKey}:${at}`,
          requestHash: '',
          createdAt: tx.now,
        };
        // Another request wrote this slot first: its answer stands.
        if (!(await tx.putIdempotency({ ...record, response: { gateId } }))) return;
      }
    });
  return {
    async find(tx, agentId, callKey) {
      return (await scan(tx, agentId, callKey)).open;
    },
    async remember(agentId, callKey, gateId) {
      const { next, open } = await ctx.store.read((tx) => scan(tx, agentId, callKey));
      if (open === gateId) return;
      const slots =
        open === null
          ? [{ at: next, gateId }]
          : [
              { at: next, gateId: null },
              { at: next + 1, gateId },
            ];
      await put(agentId, callKey, slots);
    },
    async forget(agentId, callKey) {
      const { next, open } = await ctx.store.read((tx) => scan(tx, agentId, callKey));
      if (open !== null) await put(agentId, callKey, [{ at: next, gateId: null }]);
    },
  };
}

import { applyGateEvent, type Gate, gateOutcomeFor, TIMEOUT_ACTOR } from 'gatehouse-hitl-core';
import type { AppContext } from '../../context.js';
import { type CommitTools, commit } from '../commit.js';
import { announce, type VersionedGate, withoutVersion } from './gate-common.js';
import { refreshRunStatus } from './gate-run.js';

const BATCH = 100;

/** Fires gate timeouts: deny, escalate along the chain, or proceed where the gate allows it. */
export interface TimeoutSweeper {
  /** Sweeps now and then every `config.sweepIntervalMs` until `stop()`. */
  start(): void;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
  /** Fires every due timeout once; returns how many fired. */
  sweepOnce(): Promise<number>;
}

export interface TimeoutSweeperOptions {
  /** How long each escalation step waits. @default core's DEFAULT_ESCALATION_STEP_MS (1 h) */
  escalationStepMs?: number | undefined;
}

function kindOf(next: Gate, ended: boolean): 'gate.expired' | 'gate.escalated' | 'gate.auto_approved' {
  if (!ended) return 'gate.escalated';
  return next.status === 'approved' ? 'gate.auto_approved' : 'gate.expired';
}

async function fire(
  ctx: AppContext,
  tools: CommitTools,
  stored: VersionedGate,
  options: TimeoutSweeperOptions,
): Promise<boolean> {
  const gate = withoutVersion(stored);
  const { tx } = tools;
  let transition: ReturnType<typeof applyGateEvent>;
  try {
    transition = applyGateEvent(gate, { type: 'expire', escalationStepMs: options.escalationStepMs }, tx.now);
  } catch (error) {
    ctx.log.error({ err: error, gateId: gate.id }, 'gate timeout could not be applied');
    return false;
  }
  // The conditional update is the fence: a timeout fires once, whichever node or sweep gets here first.
  if (!transition.changed || !(await tx.updateGate(transition.gate, stored.version))) return false;
  const next = transition.gate;
  const kind = kindOf(next, transition.ended);
  const data = {
    timeoutAction: gate.timeoutAction,
    deadline: gate.timeoutAt,
    status: next.status,
    minRole: next.minRole,
    timeoutAt: next.timeoutAt,
  };
  await tools.audit({ kind, actor: TIMEOUT_ACTOR, subject: gate.id, data });
  // Listeners that count decisions see an auto-approval as the decision it is.
  const streamType = kind === 'gate.auto_approved' ? 'gate.decided' : kind;
  await announce(tools, streamType, next, {
    outcome: gateOutcomeFor(next),
    decidedBy: next.decision?.decidedBy ?? null,
    minRole: next.minRole,
    timeoutAt: next.timeoutAt,
    timeout: kind,
  });
  if (transition.ended) await refreshRunStatus(tools, next.runId);
  return true;
}

/** Creates the sweeper; the app starts it when ready and stops it on close. */
export function createTimeoutSweeper(ctx: AppContext, options: TimeoutSweeperOptions = {}): TimeoutSweeper {
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let current: Promise<unknown> = Promise.resolve();

  async function sweepBatch(): Promise<{ claimed: number; fired: number }> {
    return commit(ctx, async (tools) => {
      const due = await tools.tx.claimDueGates(BATCH);
      let fired = 0;
      for (const gate of due) if (await fire(ctx, tools, gate, options)) fired += 1;
      return { claimed: due.length, fired };
    });
  }

  async function sweepOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const { claimed, fired } = await sweepBatch();
      total += fired;
      if (claimed < BATCH || fired === 0) return total;
    }
  }

  function schedule(): void {
    if (!running) return;
    timer = setTimeout(tick, ctx.config.sweepIntervalMs);
    timer.unref();
  }

  function tick(): void {
    timer = null;
    current = sweepOnce()
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'timeout sweep failed; retrying'))
      .finally(schedule);
  }

  return {
    start() {
      if (running) return;
      running = true;
      tick();
    },
    async stop() {
      running = false;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await current;
    },
    sweepOnce,
  };
}

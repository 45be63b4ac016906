import {
  applyGateEvent,
  type Gate,
  isWhitelistActive,
  WHITELIST_DAYS,
  WHITELIST_MS,
} from 'gatehouse-hitl-core';
import type { WhitelistRecord } from 'gatehouse-hitl-store';
import type { CommitTools } from '../commit.js';
import { announce, withoutVersion } from '../gates/gate-common.js';
import { assertWritten } from '../lost-update.js';
import type { GateService } from '../types.js';

export const REVIEW_ACTOR = 'system:whitelists';

/** The entry renewed: 90 more days from `now`, reviewed now, its review gate done with. */
export function renewed(entry: WhitelistRecord, now: number, justification?: string): WhitelistRecord {
  return {
    ...entry,
    ...(justification === undefined ? {} : { justification }),
    expiresAt: now + WHITELIST_MS,
    reviewedAt: now,
    reviewGateId: null,
  };
}

/**
 * Cancels the entry's pending re-review gate, in the caller's commit: a renewal or removal through
 * the API has answered it, so nobody is asked again.
 */
export async function closeReview(
  tools: CommitTools,
  entry: WhitelistRecord,
  by: string,
  reason: string,
): Promise<void> {
  if (entry.reviewGateId === null) return;
  const stored = await tools.tx.getGate(entry.reviewGateId);
  if (stored === null || stored.status !== 'pending') return;
  const next = applyGateEvent(withoutVersion(stored), { type: 'cancel', by, reason }, tools.tx.now).gate;
  assertWritten(await tools.tx.updateGate(next, stored.version), { kind: 'gate', id: next.id });
  await tools.audit({
    kind: 'gate.cancelled',
    actor: by,
    subject: next.id,
    data: { whitelist: entry.id, reason },
  });
  await announce(tools, 'gate.cancelled', next, { outcome: 'cancelled', reason, decidedBy: by });
}

async function openReview(gates: GateService, tools: CommitTools, entry: WhitelistRecord): Promise<Gate> {
  return gates.openInCommit(tools, {
    type: 'false_positive_override',
    agentId: entry.agentId,
    requestedBy: REVIEW_ACTOR,
    title:
      `Whitelist expired: ${entry.pattern} ${entry.scope === 'file' ? `in ${entry.path}` : 'everywhere'}`.slice(
        0,
        200,
      ),
    context: {
      whitelistReview: entry.id,
      pattern: entry.pattern,
      scope: entry.scope,
      files: entry.path === null ? [] : [entry.path],
      justification: entry.justification,
      suppressed: entry.suppressed,
      expiredAt: entry.expiresAt,
      reasons: [
        `the whitelist entry expired after ${WHITELIST_DAYS} days: Whitelist renews it, Violation removes it`,
      ],
    },
  });
}

/**
 * Opens a re-review gate for every expired entry that has none yet, in the caller's commit.
 * Setting the entry's `reviewGateId` only where it is unset is the fence: one gate per expiry, whichever
 * request gets there first; the loser's commit throws `LostUpdate` and its retry skips the entry.
 */
export async function reviewExpired(gates: GateService, tools: CommitTools): Promise<Gate[]> {
  const { tx } = tools;
  const opened: Gate[] = [];
  for (const entry of await tx.listWhitelists()) {
    if (isWhitelistActive(entry, tx.now) || entry.reviewGateId !== null) continue;
    const gate = await openReview(gates, tools, entry);
    // Another node may have opened the review since we read the entry: roll back and read again.
    assertWritten(await tx.setWhitelistReviewGate(entry.id, gate.id), { kind: 'gate', id: gate.id });
    await tools.audit({
      kind: 'whitelist.expired',
      actor: REVIEW_ACTOR,
      subject: entry.id,
      data: { pattern: entry.pattern, gateId: gate.id, expiresAt: entry.expiresAt },
    });
    opened.push(gate);
  }
  return opened;
}

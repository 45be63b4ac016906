import { GatehouseError } from 'gatehouse-hitl-core';
import type { SquashMessage } from 'gatehouse-hitl-protocol';
import type { ReviewRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { commit } from '../commit.js';
import { defaultSquashMessage } from './review-merge.js';
import { actorId, actorOf, effectiveStatus, loadReview, saveReview } from './review-records.js';

/** The squash message the merge will use: the person's edit, else the default from the phase. */
export function squashMessageOf(review: ReviewRecord, runName: string): SquashMessage {
  const edited = review.squashMessage ?? null;
  return edited === null
    ? { ...defaultSquashMessage(review, runName), edited: false }
    : { ...edited, edited: true };
}

/** A person's title and body for the squash commit (developer+), while the review can still be merged. */
export async function editSquashMessage(
  ctx: AppContext,
  principal: Principal,
  reviewId: string,
  input: { title: string; body: string },
): Promise<SquashMessage> {
  if (principal.kind === 'agent') {
    throw new GatehouseError(
      'FORBIDDEN',
      'the squash message is for people to write; agents use the retrospective',
    );
  }
  return commit(ctx, async (tools) => {
    const stored = await loadReview(tools.tx, principal, reviewId);
    const actor = await actorOf(tools.tx, principal, stored, 'developer');
    const gate = stored.gateId === null ? null : await tools.tx.getGate(stored.gateId);
    const status = effectiveStatus(stored, gate);
    if (status !== 'open' && status !== 'changes_requested') {
      throw new GatehouseError(
        'INVALID_TRANSITION',
        `review ${stored.id} is ${status}; its squash message can no longer change`,
        { reviewId: stored.id, status },
      );
    }
    const squashMessage = { title: input.title.trim(), body: input.body.trim() };
    await saveReview(
      tools,
      stored,
      { ...stored, squashMessage },
      { kind: 'review.squash_message', actor: actorId(actor), data: squashMessage },
    );
    return { ...squashMessage, edited: true };
  });
}

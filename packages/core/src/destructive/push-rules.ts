import type { RunStatus } from 'gatehouse-hitl-protocol';

/** The id git sends as the old value of a new ref and the new value of a deleted one. */
export const ZERO_OBJECT_ID = '0'.repeat(40);

/** The branches an agent may push: `phase-{N}-{strategic|tactical}` and their `-rev-{M}` revisions. */
const PHASE_BRANCH = /^refs\/heads\/phase-[1-9][0-9]{0,4}-(strategic|tactical)(-rev-[1-9][0-9]{0,3})?$/;

/** One ref update a push asks for. */
export interface RefUpdate {
  ref: string;
  old: string;
  new: string;
}

/** Who pushes, and what the rules need to know about the run. */
export interface PushContext {
  pusher: 'agent' | 'person';
  runStatus: RunStatus;
  /** The branch of the run's open review (people may push only that one); null when none is open. */
  openBranch: string | null;
  /**
   * The branch of a review waiting for people's decision: its agent may not change what people are
   * reviewing (an approval would merge it unseen); it answers on the next `-rev-` branch instead.
   */
  frozenBranch?: string | null;
}

/** True for a branch name an agent may push. */
export function isPhaseBranch(ref: string): boolean {
  return PHASE_BRANCH.test(ref);
}

function shortName(ref: string): string {
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
}

/** Why the run takes no pushes now, or null. */
export function pushRunRefusal(status: RunStatus): string | null {
  return status === 'stopped' || status === 'completed' || status === 'failed'
    ? `the run is ${status} and takes no more pushes`
    : null;
}

/** Why one ref update is refused, or null when it may go to git (which still refuses force pushes). */
export function pushRefusalOf(update: RefUpdate, context: PushContext): string | null {
  const run = pushRunRefusal(context.runStatus);
  if (run !== null) return run;
  if (update.new === ZERO_OBJECT_ID) return 'branches cannot be deleted here';
  if (context.pusher === 'agent') {
    if (!isPhaseBranch(update.ref)) return 'agents may push phase branches only';
    return update.ref === `refs/heads/${context.frozenBranch}`
      ? `${context.frozenBranch} is under review: wait for the decision, then answer on the next -rev- branch`
      : null;
  }
  if (context.openBranch === null)
    return 'no review of this run is open; people push only to a branch under review';
  return update.ref === `refs/heads/${context.openBranch}`
    ? null
    : `people may push only the branch under review (${context.openBranch})`;
}

/**
 * The refusal of each update of a push, all or nothing: when one is refused the others are too,
 * so a push never lands in part.
 */
export function judgePush(updates: RefUpdate[], context: PushContext): Map<string, string> | null {
  const refused = new Map<string, string>();
  for (const update of updates) {
    const reason = pushRefusalOf(update, context);
    if (reason !== null) refused.set(update.ref, reason);
  }
  if (refused.size === 0) return null;
  for (const update of updates) {
    if (!refused.has(update.ref))
      refused.set(update.ref, `not pushed: ${shortName([...refused.keys()][0] ?? '')} was refused`);
  }
  return refused;
}

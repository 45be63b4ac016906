import type { Gate } from 'gatehouse-hitl-core';
import type { CommitTools } from '../commit.js';
import type { ApprovedMerge } from '../reviews/review-decision.js';
import type { WhitelistChoice } from '../types.js';

/** A gate a person just decided, as the features that react to it see it. */
export interface GateDecided {
  /** The ended gate, its decision set. */
  gate: Gate;
  /** A phase review's squash merge, made before the decision's commit; null for every other decision. */
  merge: ApprovedMerge | null;
  /** With a Whitelist decision: the entry's scope as the person chose it in the decision. */
  whitelist?: WhitelistChoice | undefined;
}

/** What one feature does when a person decides a gate: inside the decision's commit, so a throw undoes the decision. */
export type GateDecidedHandler = (tools: CommitTools, decided: GateDecided) => Promise<unknown>;

/** The features' reactions to a decided gate, run in the order they were registered. */
export interface GateEndedHandlers {
  onGateDecided(handler: GateDecidedHandler): void;
  gateDecided(tools: CommitTools, decided: GateDecided): Promise<void>;
}

/**
 * A registry of "gate decided" handlers; each feature registers its own where it is created.
 * @example handlers.onGateDecided((tools, { gate }) => refreshRunStatus(tools, gate.runId));
 */
export function createGateEndedHandlers(): GateEndedHandlers {
  const decided: GateDecidedHandler[] = [];
  return {
    onGateDecided(handler) {
      decided.push(handler);
    },
    async gateDecided(tools, event) {
      for (const handler of decided) await handler(tools, event);
    },
  };
}

import type { Gate } from 'gatehouse-hitl-core';
import type { StreamEvent } from 'gatehouse-hitl-store';

/**
 * The gate each of this node's commits left behind with the gate events it published, so a listener
 * woken by such an event need not read the gate back. An event read back from the store (another
 * node's) has none.
 */
export interface CommittedGates {
  /** Records that `event` was committed in the same transaction as this last write of its gate. */
  note(event: StreamEvent, gate: Gate): void;
  /** The gate as the commit that published `event` on this node left it, or undefined. */
  of(event: StreamEvent): Gate | undefined;
}

export function createCommittedGates(): CommittedGates {
  // Keyed by the event object this node published: nothing is kept once the event is dropped.
  const committedWith = new WeakMap<StreamEvent, Gate>();
  return {
    note: (event, gate) => committedWith.set(event, gate),
    of: (event) => committedWith.get(event),
  };
}

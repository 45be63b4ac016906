import type { Gate } from 'gatehouse-hitl-core';
import type { StreamEvent } from 'gatehouse-hitl-store';

// Keyed by the event object this node published, so nothing is kept once the event is dropped and an
// event read back from the store (another node's) has no entry.
const committedWith = new WeakMap<StreamEvent, Gate>();

/** Records that `event` was committed in the same transaction as this last write of its gate. */
export function noteCommittedGate(event: StreamEvent, gate: Gate): void {
  committedWith.set(event, gate);
}

/**
 * The gate as the commit that published `event` on this node left it, so a listener woken by the
 * event need not read it back; undefined for another node's event or one whose gate was not written.
 */
export function committedGateOf(event: StreamEvent): Gate | undefined {
  return committedWith.get(event);
}

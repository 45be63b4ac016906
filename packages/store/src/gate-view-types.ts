import type { GateViewPart } from 'gatehouse-hitl-protocol';

/** A part of a gate a person opened, and when they first did. */
export interface GateView {
  gateId: string;
  userId: string;
  part: GateViewPart;
  viewedAt: number;
}

/** What people opened of each gate (the web app reports it); review health reads it. */
export interface GateViewsRepo {
  /** Records the view the first time; returns the stored one (the first time wins). */
  recordGateView(view: GateView): Promise<GateView>;
  /** Every view of these gates. */
  listGateViews(gateIds: readonly string[]): Promise<GateView[]>;
}

import {
  type GatePartViewed,
  type GateViewPart,
  type ReviewerHealth,
  type ReviewHealth,
  type RubberStampFlag,
  reviewHealthRoutes,
} from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

export type { GateViewPart, ReviewerHealth, ReviewHealth, RubberStampFlag };

/** Review health over the last `window` days (admins only). */
export function getReviewHealth(window: number, signal?: AbortSignal): Promise<ReviewHealth> {
  return callApi(reviewHealthRoutes.report, { query: { window } }, signal);
}

/** Tells the server the signed-in person opened `part` of a gate. */
export function reportGateView(gateId: string, part: GateViewPart): Promise<GatePartViewed> {
  return callApi(reviewHealthRoutes.recordView, { params: { id: gateId }, body: { part } });
}

import { computeReviewHealth, DEFAULT_REVIEW_HEALTH_SETTINGS, GatehouseError } from 'gatehouse-hitl-core';
import type {
  GatePartViewed,
  GateViewPart,
  ReviewHealth,
  ReviewHealthSettings,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../../context.js';
import { createReviewAlerts, type ReviewAlerts } from './review-alerts.js';
import { loadReviewHistory } from './review-history.js';

const DAY_MS = 86_400_000;

/** What people opened of each gate, and how well gates are being reviewed. */
export interface ReviewHealthService {
  /** Records that `userId` opened `part` of the gate; the first time is kept. */
  recordView(userId: string, gateId: string, part: GateViewPart): Promise<GatePartViewed>;
  /** Review health over the last `days` days. */
  report(days: number): Promise<ReviewHealth>;
  /** The rubber-stamping alert and the digest to admins; the app starts and stops them. */
  alerts: ReviewAlerts;
}

/** The detector's thresholds: core's defaults with the server's settings on top. */
export function reviewHealthSettingsOf(ctx: AppContext): ReviewHealthSettings {
  return { ...DEFAULT_REVIEW_HEALTH_SETTINGS, ...ctx.config.reviewHealth?.settings };
}

export function createReviewHealthService(ctx: AppContext): ReviewHealthService {
  async function report(days: number): Promise<ReviewHealth> {
    const now = ctx.clock.now();
    const from = now - days * DAY_MS;
    const history = await loadReviewHistory(ctx, from);
    return computeReviewHealth({
      ...history,
      window: { from, to: now },
      settings: reviewHealthSettingsOf(ctx),
      now,
    });
  }
  return {
    alerts: createReviewAlerts(ctx, report),
    report,
    async recordView(userId, gateId, part) {
      const view = await ctx.store.transaction(async (tx) => {
        if ((await tx.getGate(gateId)) === null)
          throw new GatehouseError('NOT_FOUND', `no gate ${gateId}`, { gateId });
        return tx.recordGateView({ gateId, userId, part, viewedAt: ctx.clock.now() });
      });
      return { gateId: view.gateId, part: view.part, viewedAt: view.viewedAt };
    },
  };
}

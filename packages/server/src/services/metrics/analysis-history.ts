import type { Gate } from 'gatehouse-hitl-core';
import type { RecoveryRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { AnalysisHistory } from './analysis-metrics.js';

const PAGE = 500;

async function runsAndRecoveries(ctx: AppContext) {
  const runStatus = new Map<string, string>();
  const recoveries: RecoveryRecord[] = [];
  let cursor: string | null = null;
  do {
    const filter: { limit: number; cursor?: string } =
      cursor === null ? { limit: PAGE } : { limit: PAGE, cursor };
    const page = await ctx.store.read((tx) => tx.listRuns(filter));
    for (const run of page.items) runStatus.set(run.id, run.status);
    cursor = page.nextCursor;
  } while (cursor !== null);
  for (const runId of runStatus.keys())
    recoveries.push(...(await ctx.store.read((tx) => tx.listRecoveries(runId))));
  return { runStatus, recoveries };
}

async function countAudit(ctx: AppContext, kind: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page = await ctx.store.queryAudit(
      cursor === null ? { kind, limit: PAGE } : { kind, limit: PAGE, cursor },
    );
    count += page.items.length;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return count;
}

/** Loads what the analysis metrics are computed from; `gates` are the summary's, already loaded. */
export async function loadAnalysisHistory(ctx: AppContext, gates: readonly Gate[]): Promise<AnalysisHistory> {
  const { runStatus, recoveries } = await runsAndRecoveries(ctx);
  const [counts, falsePositives, whitelists, analysesInRuns] = await Promise.all([
    ctx.store.read((tx) => tx.countDetections()),
    ctx.store.read((tx) => tx.listFalsePositives({})),
    ctx.store.read((tx) => tx.listWhitelists()),
    countAudit(ctx, 'analysis.recorded'),
  ]);
  return {
    gates,
    recoveries,
    detections: counts.reduce((sum, row) => sum + row.detections, 0),
    falsePositives: falsePositives.length,
    whitelists,
    analysesInRuns,
    runStatus,
    now: ctx.clock.now(),
  };
}

import type { GateViewPart } from 'gatehouse-hitl-protocol';
import type { TxContext } from '../db/schema.js';
import type { GateView } from '../gate-view-types.js';
import { int } from './rows.js';

type GateViewRow = { gate_id: string; user_id: string; part: string; viewed_at: number | string };

// Keeps each IN list well under SQLite's and Postgres's bound-parameter limits.
const CHUNK = 500;

function viewOf(row: GateViewRow): GateView {
  return {
    gateId: row.gate_id,
    userId: row.user_id,
    part: row.part as GateViewPart,
    viewedAt: int(row.viewed_at),
  };
}

export async function recordGateView({ db }: TxContext, view: GateView): Promise<GateView> {
  await db
    .insertInto('gate_views')
    .values({ gate_id: view.gateId, user_id: view.userId, part: view.part, viewed_at: view.viewedAt })
    .onConflict((oc) => oc.columns(['gate_id', 'user_id', 'part']).doNothing())
    .execute();
  const row = await db
    .selectFrom('gate_views')
    .selectAll()
    .where('gate_id', '=', view.gateId)
    .where('user_id', '=', view.userId)
    .where('part', '=', view.part)
    .executeTakeFirstOrThrow();
  return viewOf(row);
}

export async function listGateViews({ db }: TxContext, gateIds: readonly string[]): Promise<GateView[]> {
  const views: GateView[] = [];
  for (let start = 0; start < gateIds.length; start += CHUNK) {
    const chunk = gateIds.slice(start, start + CHUNK);
    const rows = await db
      .selectFrom('gate_views')
      .selectAll()
      .where('gate_id', 'in', chunk)
      .orderBy('viewed_at')
      .execute();
    views.push(...rows.map(viewOf));
  }
  return views;
}

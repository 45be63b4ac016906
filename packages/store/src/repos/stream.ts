import type { StreamEventName } from 'gatehouse-hitl-protocol';
import type { Selectable } from 'kysely';
import type { StreamEventsTable, TxContext } from '../db/schema.js';
import { preparedQuery, runPrepared } from '../prepared.js';
import type { StreamEvent } from '../types.js';
import { int, pageLimit, parseJson } from './rows.js';

function toStreamEvent(row: Selectable<StreamEventsTable>): StreamEvent {
  return {
    seq: int(row.seq),
    // Rows are written only by appendStreamEvent, which takes a StreamEventName.
    type: row.type as StreamEventName,
    runId: row.run_id,
    agentId: row.agent_id,
    gateId: row.gate_id,
    data: parseJson<Record<string, unknown>>(row.data),
    at: int(row.at),
  };
}

type NewStreamRow = Omit<Selectable<StreamEventsTable>, 'seq'>;

const insertEvent = preparedQuery(
  'stream-insert',
  (db, row: NewStreamRow) => db.insertInto('stream_events').values(row).returning('seq'),
  (row) => [row.type, row.run_id, row.agent_id, row.gate_id, row.data, row.at],
);

export async function appendStreamEvent(
  ctx: TxContext,
  event: Omit<StreamEvent, 'seq' | 'at'>,
): Promise<StreamEvent> {
  const { now } = ctx;
  const text = JSON.stringify(event.data ?? {});
  const data = parseJson<Record<string, unknown>>(text);
  const row = {
    type: event.type,
    run_id: event.runId,
    agent_id: event.agentId,
    gate_id: event.gateId,
    data: text,
    at: now,
  };
  const { rows } = await runPrepared<{ seq: number }, NewStreamRow>(ctx, insertEvent, row);
  const inserted = rows[0];
  if (inserted === undefined) throw new Error('stream event insert returned no seq');
  return { ...event, data, seq: int(inserted.seq), at: now };
}

export async function listStreamEvents(
  { db }: TxContext,
  options: { afterSeq: number; runId?: string; limit?: number },
): Promise<StreamEvent[]> {
  const rows = await db
    .selectFrom('stream_events')
    .selectAll()
    .where('seq', '>', options.afterSeq)
    .$if(options.runId !== undefined, (q) => q.where('run_id', '=', options.runId ?? ''))
    .orderBy('seq')
    .limit(pageLimit(options.limit))
    .execute();
  return rows.map(toStreamEvent);
}

export async function latestStreamSeq({ db }: TxContext): Promise<number> {
  const row = await db
    .selectFrom('stream_events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return row?.seq === null || row?.seq === undefined ? 0 : int(row.seq);
}

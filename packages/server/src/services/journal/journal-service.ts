import { GatehouseError, hasRole } from 'gatehouse-hitl-core';
import type {
  AppendJournalBody,
  AppendJournalResponse,
  JournalEntryDocument,
  JournalKind,
  JournalListResponse,
} from 'gatehouse-hitl-protocol';
import type { JournalEntryRecord, RunsRepo } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { commit } from '../commit.js';
import { assertCanReadRun, assertOwnRun, loadRun } from '../runs/run-records.js';

/** The run journal: chat history, todo snapshots, LLM requests and notes the agent appends. */
export interface JournalService {
  append(principal: Principal, runId: string, body: AppendJournalBody): Promise<AppendJournalResponse>;
  list(
    principal: Principal,
    runId: string,
    query: { kind?: JournalKind | undefined; limit?: number | undefined; cursor?: string | undefined },
  ): Promise<JournalListResponse>;
  get(principal: Principal, runId: string, entryId: string): Promise<{ entry: JournalEntryDocument }>;
}

function toDocument(record: JournalEntryRecord): JournalEntryDocument {
  return { ...record, kind: record.kind as JournalKind };
}

/** People with a role (viewer+) and the run's own agent read a journal; other agents see no run. */
export async function loadReadableRun(tx: RunsRepo, principal: Principal, runId: string) {
  const run = await loadRun(tx, runId);
  assertCanReadRun(principal, run);
  if (principal.kind === 'user' && !hasRole(principal.role, 'viewer')) {
    throw new GatehouseError('ROLE_TOO_LOW', 'reading a run’s journal needs role viewer or higher', {
      required: 'viewer',
      role: principal.role,
    });
  }
  return run;
}

export function createJournalService(ctx: AppContext): JournalService {
  return {
    append: (principal, runId, body) =>
      commit(ctx, async ({ tx, audit }) => {
        const run = await loadRun(tx, runId);
        const agentId = assertOwnRun(principal, run);
        if (run.status === 'stopped' || run.status === 'completed' || run.status === 'failed') {
          throw new GatehouseError('RUN_NOT_ACTIVE', `run ${runId} is ${run.status}; its journal is closed`, {
            runId,
            status: run.status,
          });
        }
        const records = body.entries.map((entry) => ({
          id: ctx.ids.next('jrn'),
          runId,
          kind: entry.kind,
          data: entry.data as Record<string, unknown>,
          createdAt: entry.at ?? tx.now,
        }));
        await tx.insertJournalEntries(records);
        const kinds = [...new Set(records.map((record) => record.kind))].sort();
        await audit({
          kind: 'run.journal_appended',
          actor: `agent:${agentId}`,
          subject: runId,
          data: { count: records.length, kinds },
        });
        return { count: records.length, ids: records.map((record) => record.id) };
      }),
    list: (principal, runId, query) =>
      ctx.store.read(async (tx) => {
        await loadReadableRun(tx, principal, runId);
        const page = await tx.listJournalEntries({ runId, ...query });
        return { items: page.items.map(toDocument), nextCursor: page.nextCursor };
      }),
    get: (principal, runId, entryId) =>
      ctx.store.read(async (tx) => {
        await loadReadableRun(tx, principal, runId);
        const entry = await tx.getJournalEntry(runId, entryId);
        if (entry === null) {
          throw new GatehouseError('NOT_FOUND', `no journal entry ${entryId} in run ${runId}`, { entryId });
        }
        return { entry: toDocument(entry) };
      }),
  };
}

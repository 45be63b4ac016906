import type { JournalEntryDocument, JournalEntryInput, JournalKind } from 'gatehouse-hitl-protocol';
import { lightRoutes } from 'gatehouse-hitl-protocol/rules';
import type { Transport } from './http.js';

/** Most entries one append sends; more go in several requests, in order. */
const BATCH = 100;

/** Options of `Journal.list`. */
export interface JournalListOptions {
  /** Only entries of this kind. */
  kind?: JournalKind | undefined;
  /** @default 100 */
  limit?: number | undefined;
  cursor?: string | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * A run's journal: the agent's chat, todo lists, model calls and notes, kept for the people who
 * review its work (and their assistant's debug tools).
 *
 * @example
 * const journal = gate.journal(runId);
 * await journal.append({ kind: 'note', data: { text: 'plan written' } });
 * await journal.append([{ kind: 'todos', data: { items: [{ text: 'write plan.md', status: 'completed' }] } }]);
 */
export class Journal {
  readonly runId: string;
  readonly #transport: Transport;

  constructor(transport: Transport, runId: string) {
    this.#transport = transport;
    this.runId = runId;
  }

  /** Appends one entry or several, in order; returns the new entries' ids. */
  async append(
    entries: JournalEntryInput | readonly JournalEntryInput[],
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<string[]> {
    const list = Array.isArray(entries) ? [...entries] : [entries as JournalEntryInput];
    if (list.length === 0) throw new RangeError('entries must hold at least one entry');
    const ids: string[] = [];
    for (let start = 0; start < list.length; start += BATCH) {
      const response = await this.#transport.route(
        lightRoutes.journal.append,
        { params: { id: this.runId }, body: { entries: list.slice(start, start + BATCH) } },
        { signal: options.signal, retry: 'safe' },
      );
      ids.push(...response.ids);
    }
    return ids;
  }

  /** One page of entries, oldest first; pass `nextCursor` back as `cursor` for the next. */
  async list(
    options: JournalListOptions = {},
  ): Promise<{ items: JournalEntryDocument[]; nextCursor: string | null }> {
    const { kind, limit, cursor } = options;
    const response = await this.#transport.route(
      lightRoutes.journal.list,
      { params: { id: this.runId }, query: { kind, limit, cursor } },
      { signal: options.signal, retry: 'always' },
    );
    return { items: response.items, nextCursor: response.nextCursor ?? null };
  }
}

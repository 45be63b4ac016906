import { type GateListItem, gateRoutes, runRoutes } from 'gatehouse-hitl-protocol';
import type { ApiClient } from './http.js';

const PAGE = 200;
/** The inbox shows at most this many pending gates; `gates list` pages through the rest. */
export const INBOX_LIMIT = 1000;

/** Every pending gate the signed-in person may see, in the server's order, up to INBOX_LIMIT. */
export async function fetchPendingGates(client: ApiClient): Promise<GateListItem[]> {
  const gates: GateListItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.call(gateRoutes.list, { query: { status: 'pending', limit: PAGE, cursor } });
    gates.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && gates.length < INBOX_LIMIT);
  return gates.slice(0, INBOX_LIMIT);
}

/** The ids of the runs that are paused now (a few pages at most: paused runs are few). */
export async function fetchPausedRunIds(client: ApiClient): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < 5; page += 1) {
    const answer = await client.call(runRoutes.list, { query: { status: 'paused', limit: PAGE, cursor } });
    for (const run of answer.items) ids.add(run.id);
    cursor = answer.nextCursor ?? undefined;
    if (cursor === undefined) break;
  }
  return ids;
}

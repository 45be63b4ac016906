import type { Gate, Run } from 'gatehouse-hitl-core';
import type { GatesRepo, RunsRepo, Store } from 'gatehouse-hitl-store';

async function allPages<T>(
  list: (cursor: string | null) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page = await list(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return items;
}

function gates(tx: GatesRepo): Promise<Gate[]> {
  return allPages((cursor) => tx.listGates(cursor === null ? { limit: 500 } : { limit: 500, cursor }));
}

function runs(tx: RunsRepo): Promise<Run[]> {
  return allPages((cursor) => tx.listRuns(cursor === null ? { limit: 500 } : { limit: 500, cursor }));
}

/**
 * Everything a request could change, as one comparable value: the audit trail's length and
 * head, people, agents, runs, gates, remembered rules, policy versions, webhooks and the stream position.
 */
export async function snapshotState(store: Store): Promise<string> {
  let auditCount = 0;
  let auditHead: string | null = null;
  for await (const event of store.streamAudit()) {
    auditCount += 1;
    auditHead = event.hash;
  }
  const rows = await store.read(async (tx) => ({
    users: await tx.listUsers(),
    agents: await tx.listAgents(),
    runs: await runs(tx),
    gates: await gates(tx),
    rules: await tx.listRememberedRules({ includeRevoked: true }),
    policies: (await tx.listPolicyVersions()).map((policy) => policy.version),
    webhooks: await tx.listWebhooks(),
  }));
  const streamSeq = await store.latestStreamSeq();
  return JSON.stringify({ auditCount, auditHead, streamSeq, ...rows });
}

/** Names the parts of two snapshots that differ, for a readable failure. */
export function snapshotDiff(before: string, after: string): string[] {
  const a = JSON.parse(before) as Record<string, unknown>;
  const b = JSON.parse(after) as Record<string, unknown>;
  return Object.keys({ ...a, ...b }).filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]));
}

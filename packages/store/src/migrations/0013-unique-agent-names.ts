import type { Migration } from 'kysely/migration';

interface AgentName {
  id: string;
  name: string;
}

/**
 * New names for agents that share a name: the oldest (then lowest id) keeps it, every later one
 * becomes `name (2)`, `name (3)`…, skipping names already taken, so the result is the same on every run.
 */
export function renamedDuplicates(agents: readonly AgentName[]): Map<string, string> {
  const taken = new Set(agents.map((agent) => agent.name));
  const seen = new Set<string>();
  const renamed = new Map<string, string>();
  for (const agent of agents) {
    if (!seen.has(agent.name)) {
      seen.add(agent.name);
      continue;
    }
    let suffix = 2;
    while (taken.has(`${agent.name} (${suffix})`)) suffix++;
    const name = `${agent.name} (${suffix})`;
    taken.add(name);
    renamed.set(agent.id, name);
  }
  return renamed;
}

/** Agent names are unique: existing duplicates are renamed first, then a unique index holds the rule. */
export function uniqueAgentNamesMigration(): Migration {
  return {
    async up(db) {
      const rows = (await db
        .selectFrom('agents')
        .select(['id', 'name'])
        .orderBy('created_at')
        .orderBy('id')
        .execute()) as AgentName[];
      for (const [id, name] of renamedDuplicates(rows)) {
        await db.updateTable('agents').set({ name }).where('id', '=', id).execute();
      }
      await db.schema.createIndex('agents_name_unique').on('agents').column('name').unique().execute();
    },
  };
}

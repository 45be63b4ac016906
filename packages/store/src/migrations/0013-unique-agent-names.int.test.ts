import { afterEach, describe, expect, it } from 'vitest';
import { type MigrationTestDb, openMigrationTestDb } from '../testing/migration-db.js';
import { initialMigration } from './0001-initial.js';
import { renamedDuplicates, uniqueAgentNamesMigration } from './0013-unique-agent-names.js';

const agent = (id: string, name: string, at: number) => ({
  id,
  name,
  profile: null,
  autonomy: null,
  created_at: at,
});

describe('renamedDuplicates', () => {
  it('keeps the first of each name and numbers the rest past names already taken', () => {
    const renamed = renamedDuplicates([
      { id: 'a1', name: 'bot' },
      { id: 'a2', name: 'bot (2)' },
      { id: 'a3', name: 'bot' },
      { id: 'a4', name: 'bot' },
      { id: 'a5', name: 'other' },
    ]);
    expect([...renamed]).toEqual([
      ['a3', 'bot (3)'],
      ['a4', 'bot (4)'],
    ]);
  });
});

describe.each(['sqlite', 'postgres'] as const)('migration 0013_unique_agent_names on %s', (dialect) => {
  let opened: MigrationTestDb | null = null;
  afterEach(async () => {
    await opened?.close();
    opened = null;
  });

  it('renames later duplicates, oldest first, and then refuses a second agent with a taken name', async () => {
    opened = await openMigrationTestDb(dialect, 'm0013');
    const { db } = opened;
    await initialMigration(dialect).up(db);
    await db
      .insertInto('agents')
      .values([
        agent('agent_b', 'build-bot', 2),
        agent('agent_a', 'build-bot', 2),
        agent('agent_old', 'build-bot', 1),
        agent('agent_x', 'deploy-bot', 3),
      ] as never)
      .execute();

    await uniqueAgentNamesMigration().up(db);

    const rows = await db.selectFrom('agents').select(['id', 'name']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'agent_a', name: 'build-bot (2)' },
      { id: 'agent_b', name: 'build-bot (3)' },
      { id: 'agent_old', name: 'build-bot' },
      { id: 'agent_x', name: 'deploy-bot' },
    ]);
    await expect(
      db
        .insertInto('agents')
        .values(agent('agent_y', 'deploy-bot', 4) as never)
        .execute(),
    ).rejects.toThrow();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { makeRule } from '../contract/fixtures.js';
import { openTracedStore as open, type TracedStore } from '../testing/traced-store.js';

describe.each(Object.keys(open) as (keyof typeof open)[])('remembered rules in force on %s', (dialect) => {
  const opened: TracedStore[] = [];
  afterEach(async () => {
    for (const each of opened.splice(0)) await each.close();
  });

  // Every gated call looks its tool's rules up inside its commit, almost always to find none: with an
  // ORDER BY SQLite took 38 µs a lookup on the gate path, without one 3 µs; the store orders the rows.
  it('looks up a tool’s rules in one statement without an ORDER BY, and still lists them oldest first', async () => {
    const traced = await open[dialect]();
    opened.push(traced);
    const newer = makeRule({ tool: 'shell', createdAt: 2_000 });
    const older = makeRule({ tool: 'shell', createdAt: 1_000 });
    await traced.store.transaction(async (tx) => {
      await tx.insertRememberedRule(newer);
      await tx.insertRememberedRule(older);
    });
    traced.trace.length = 0;
    const rules = await traced.store.transaction((tx) => tx.listRulesInForce('shell', 1_500));
    expect(rules).toEqual([older, newer]);
    const lookups = traced.trace.filter((statement) => /remembered_rules/i.test(statement.sql));
    expect(lookups).toHaveLength(1);
    expect(lookups[0]?.sql).not.toMatch(/order by/i);
  });
});

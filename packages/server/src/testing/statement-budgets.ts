import { createFakeClock } from 'gatehouse-hitl-core';
import type { ExecutedStatement } from 'gatehouse-hitl-store';
import { afterEach, expect } from 'vitest';
import { loadConfig, type ServerConfig } from '../config.js';
import { PRINCIPAL_CACHE_TTL_MS } from '../http/principal-cache.js';
import { useTestPolicy } from './gates.js';
import type { SlackStandIn } from './slack-stand-in.js';
import type { SmtpInbox } from './smtp-inbox.js';
import { createTestApp, type TestApp, type TestDialect } from './test-app.js';

// Statement budgets: what one operation costs the database, measured by tracing every statement a
// test app runs (hot-path-budgets.int.test.ts and notified-budgets.int.test.ts).

export const BUDGET_DIALECTS: TestDialect[] = ['sqlite', 'postgres'];
const HOUR = 3_600_000;
/** People seeded, each with an email address, a Slack user and both channels chosen. */
export const BUDGET_PEOPLE = 20;
/** Measurements of each operation, after one unmeasured warm-up. */
export const BUDGET_REPEATS = 3;

/** What one operation costs the database. */
export interface Cost {
  statements: number;
  /** Write transactions committed. */
  commits: number;
  rowsWritten: number;
}

/** Where notices go: a local mail inbox and, when given, a Slack stand-in. */
export interface NoticeTargets {
  inbox: SmtpInbox;
  slack: SlackStandIn | null;
}

/** Every timer an hour away: only the work an operation causes runs while it is measured. */
function quietConfig(targets: NoticeTargets | null): Partial<ServerConfig> {
  const defaults = loadConfig({});
  const slack = targets?.slack ?? null;
  return {
    sweepIntervalMs: HOUR,
    eventsPollIntervalMs: HOUR,
    webhookPollIntervalMs: HOUR,
    auditCheckpointIntervalMs: HOUR,
    notifications: { ...defaults.notifications, smtpUrl: targets?.inbox.url ?? null, pollIntervalMs: HOUR },
    ...(slack === null
      ? {}
      : { slack: { ...defaults.slack, botToken: 'xoxb-budget', apiUrl: slack.apiUrl } }),
  };
}

/**
 * Apps to measure on `dialect`, closed after each test, and the check of costs against `budgets`.
 * Call it inside a `describe`: it registers the `afterEach` that closes them.
 */
export function budgetHarness(dialect: TestDialect, budgets: Record<string, Cost>) {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /** Write transactions: SQLite's begin immediate; Postgres's commits (its reads open none). */
  const isCommit = (sql: string) =>
    dialect === 'sqlite' ? /^begin immediate/i.test(sql) : /^commit$/i.test(sql.trim());

  async function start(targets: NoticeTargets | null) {
    const trace: ExecutedStatement[] = [];
    const test = await createTestApp({
      dialect,
      // Time stands still, so no cache runs out in the middle of a measurement.
      clock: createFakeClock(),
      config: quietConfig(targets),
      onStatement: (statement) => trace.push(statement),
    });
    cleanup.push(() => test.close());
    await useTestPolicy(test);
    await seedPeople(test);
    /** Runs `operation` alone and adds up what it and the work it set off cost. */
    async function measure(
      operation: () => Promise<unknown>,
      { warm = false } = {},
    ): Promise<Cost & { rowsRead: number }> {
      // Every measurement looks its credential up again (the cold cost, the same each time), unless warm:
      // then the credentials checked just before are well within the cache's 500 ms when it starts.
      await settled(trace, warm ? 50 : 100);
      if (!warm) await new Promise((resolve) => setTimeout(resolve, PRINCIPAL_CACHE_TTL_MS + 20));
      trace.length = 0;
      await operation();
      await settled(trace);
      const ran = trace.splice(0);
      savepoints = ran.filter((statement) => /^savepoint/i.test(statement.sql)).length;
      return {
        statements: ran.length,
        commits: ran.filter((statement) => isCommit(statement.sql)).length,
        rowsWritten: ran.reduce((sum, statement) => sum + statement.rowsWritten, 0),
        rowsRead: ran.reduce((sum, statement) => sum + statement.rowsRead, 0),
      };
    }
    let savepoints = 0;
    return { test, measure, savepoints: () => savepoints };
  }

  /** Waits until nothing ran for `quietMs`. */
  async function settled(trace: ExecutedStatement[], quietMs = 100): Promise<void> {
    for (let seen = -1; seen !== trace.length; ) {
      seen = trace.length;
      await new Promise((resolve) => setTimeout(resolve, quietMs));
    }
  }

  /** 20 people who may decide, each with an email address, a Slack user and both channels chosen. */
  async function seedPeople(test: TestApp<{ now(): number }>): Promise<void> {
    const seeded = [test.ids.adminId, test.ids.techLeadId, test.ids.developerId];
    await test.store.transaction(async (tx) => {
      for (let i = seeded.length; i < BUDGET_PEOPLE; i++) {
        const id = `user_p${i}`;
        await tx.insertUser({
          id,
          name: id,
          role: 'developer',
          passwordHash: null,
          disabled: false,
          createdAt: tx.now,
        });
        seeded.push(id);
      }
      for (const [i, userId] of seeded.entries()) {
        await tx.putNotificationPreference({
          userId,
          channels: ['email', 'slack', 'browser'],
          email: `${userId}@example.test`,
          updatedAt: tx.now,
        });
        const slackUserId = `U0BUDGET${String(i).padStart(2, '0')}`;
        await tx.putSlackUser({ userId, slackUserId, createdBy: test.ids.adminId, createdAt: tx.now });
      }
    });
  }

  /** Within the budget each time, and (but for deliveries, whose rounds vary) the same cost each time. */
  function expectWithin(name: string, costs: Cost[]): void {
    const budget = budgets[name];
    if (budget === undefined) throw new Error(`no budget for ${name}`);
    if (!name.startsWith('delivered'))
      expect(new Set(costs.map((cost) => JSON.stringify(cost))).size, name).toBe(1);
    for (const cost of costs) {
      expect(cost.statements, `${name}: statements`).toBeLessThanOrEqual(budget.statements);
      expect(cost.commits, `${name}: commits`).toBeLessThanOrEqual(budget.commits);
      expect(cost.rowsWritten, `${name}: rows written`).toBeLessThanOrEqual(budget.rowsWritten);
    }
  }

  return { start, expectWithin, cleanup };
}

import { createFakeClock } from 'gatehouse-hitl-core';
import type { ExecutedStatement } from 'gatehouse-hitl-store';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type ServerConfig } from '../config.js';
import { PRINCIPAL_CACHE_TTL_MS } from '../http/principal-cache.js';
import { decideTestGate, openTestGate, postGate, useTestPolicy } from '../testing/gates.js';
import { approveTestPlan, createRunViaApi } from '../testing/runs.js';
import { type SlackStandIn, startSlackStandIn } from '../testing/slack-stand-in.js';
import { type SmtpInbox, startSmtpInbox } from '../testing/smtp-inbox.js';
import {
  bearer,
  createTestApp,
  issueTestSession,
  type TestApp,
  type TestDialect,
} from '../testing/test-app.js';
import { dispatchTriggers } from './notifications/dispatch.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const HOUR = 3_600_000;
const PEOPLE = 20;
const REPEATS = 3;

/**
 * `notices` delivered: each is claimed and finished (two rows written). How attempts share worker
 * rounds depends on timing, so statements and commits are bounded by the worst case, a round per notice.
 */
function deliveryBound(notices: number): Cost {
  return { statements: 21 * notices, commits: 2 * notices, rowsWritten: 2 * notices };
}

/** What one operation costs the database. */
interface Cost {
  statements: number;
  /** Write transactions committed. */
  commits: number;
  rowsWritten: number;
}

/**
 * The most each operation may cost: an allowed call, an opened gate, a decision and a decision
 * that wakes a waiting agent on a default server, a gate opened and decided inside a run; and, with email (then email and Slack) for 20
 * people, the gate, the decision, routing each (a worker transaction) and delivering one round of
 * notices. Raise one only on purpose, in the commit that needs it, with its bench figures. Every
 * measurement looks its credential up again (the cold cost).
 */
const BUDGETS: Record<TestDialect, Record<string, Cost>> = {
  sqlite: {
    allowedCall: { statements: 6, commits: 1, rowsWritten: 1 },
    // No outbox statement while no webhook subscribes: the store knows its subscriptions.
    gateOpened: { statements: 9, commits: 1, rowsWritten: 3 },
    decision: { statements: 11, commits: 1, rowsWritten: 3 },
    // The decision and the waiting agent's check that its token still holds; no read of the gate.
    decisionWithWaiter: { statements: 14, commits: 1, rowsWritten: 3 },
    // Credentials checked less than 500 ms ago: neither the decision nor the woken wait reads one.
    warmDecisionWithWaiter: { statements: 7, commits: 1, rowsWritten: 3 },
    // Inside a run: the run read once by the request and once by settling its status, then updated; no
    // read after the commit for interventions when the request's commit found none waiting.
    gateOpenedInRun: { statements: 15, commits: 1, rowsWritten: 4 },
    decisionInRun: { statements: 16, commits: 1, rowsWritten: 4 },
    gateOpenedEmail: { statements: 10, commits: 1, rowsWritten: 4 },
    routedEmail: { statements: 29, commits: 1, rowsWritten: 21 },
    decisionEmail: { statements: 12, commits: 1, rowsWritten: 4 },
    routedDecisionEmail: { statements: 29, commits: 1, rowsWritten: 21 },
    deliveredEmail: deliveryBound(PEOPLE),
    // With Slack too, routing writes a second row per person; the gate and the decision cost the same.
    gateOpenedEmailSlack: { statements: 10, commits: 1, rowsWritten: 4 },
    routedEmailSlack: { statements: 49, commits: 1, rowsWritten: 41 },
    decisionEmailSlack: { statements: 12, commits: 1, rowsWritten: 4 },
    routedDecisionEmailSlack: { statements: 49, commits: 1, rowsWritten: 41 },
    deliveredEmailSlack: deliveryBound(2 * PEOPLE),
  },
  postgres: {
    allowedCall: { statements: 6, commits: 1, rowsWritten: 1 },
    gateOpened: { statements: 10, commits: 1, rowsWritten: 3 },
    decision: { statements: 12, commits: 1, rowsWritten: 3 },
    decisionWithWaiter: { statements: 13, commits: 1, rowsWritten: 3 },
    warmDecisionWithWaiter: { statements: 10, commits: 1, rowsWritten: 3 },
    gateOpenedInRun: { statements: 16, commits: 1, rowsWritten: 4 },
    decisionInRun: { statements: 17, commits: 1, rowsWritten: 4 },
    gateOpenedEmail: { statements: 11, commits: 1, rowsWritten: 4 },
    routedEmail: { statements: 30, commits: 1, rowsWritten: 21 },
    decisionEmail: { statements: 13, commits: 1, rowsWritten: 4 },
    routedDecisionEmail: { statements: 30, commits: 1, rowsWritten: 21 },
    deliveredEmail: deliveryBound(PEOPLE),
    gateOpenedEmailSlack: { statements: 11, commits: 1, rowsWritten: 4 },
    routedEmailSlack: { statements: 50, commits: 1, rowsWritten: 41 },
    decisionEmailSlack: { statements: 13, commits: 1, rowsWritten: 4 },
    routedDecisionEmailSlack: { statements: 50, commits: 1, rowsWritten: 41 },
    deliveredEmailSlack: deliveryBound(2 * PEOPLE),
  },
};

/** Where notices go: a local mail inbox and, when given, a Slack stand-in. */
interface NoticeTargets {
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

describe.each(dialects)('statement budgets on %s', (dialect) => {
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
      for (let i = seeded.length; i < PEOPLE; i++) {
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
    const budget = BUDGETS[dialect][name];
    if (budget === undefined) throw new Error(`no budget for ${name}`);
    if (!name.startsWith('delivered'))
      expect(new Set(costs.map((cost) => JSON.stringify(cost))).size, name).toBe(1);
    for (const cost of costs) {
      expect(cost.statements, `${name}: statements`).toBeLessThanOrEqual(budget.statements);
      expect(cost.commits, `${name}: commits`).toBeLessThanOrEqual(budget.commits);
      expect(cost.rowsWritten, `${name}: rows written`).toBeLessThanOrEqual(budget.rowsWritten);
    }
  }

  it('keeps an allowed call, an opened gate and a decision within budget on a default server', async () => {
    const { test, measure } = await start(null);
    const allowed = async (i: number) => {
      const response = await postGate(test, { tool: 'read_file', args: { path: `src/${i}.ts` } });
      expect(response.json()).toMatchObject({ outcome: 'allowed' });
    };
    const open = (i: number) => openTestGate(test, { tool: 'shell', args: { command: `make ${i}` } });
    const decide = async (gateId: string) => {
      const response = await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve' });
      expect(response.statusCode, response.body).toBe(200);
    };
    // The first of each warms caches (policy, credentials, prepared statements).
    await allowed(-1);
    await decide(await open(-1));
    const costs = { allowedCall: [] as Cost[], gateOpened: [] as Cost[], decision: [] as Cost[] };
    for (let i = 0; i < REPEATS; i++) {
      costs.allowedCall.push(await measure(() => allowed(i)));
      let gateId = '';
      costs.gateOpened.push(
        await measure(async () => {
          gateId = await open(i);
        }),
      );
      costs.decision.push(await measure(() => decide(gateId)));
    }
    for (const [name, measured] of Object.entries(costs)) expectWithin(name, measured);
  }, 30_000);

  it('keeps a gate opened and decided inside a run within budget', async () => {
    const { test, measure } = await start(null);
    const run = await createRunViaApi(test);
    await approveTestPlan(test, run.id);
    const open = (i: number) =>
      openTestGate(test, { runId: run.id, tool: 'shell', args: { command: `make ${i}` } });
    const decide = async (gateId: string) => {
      const response = await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve' });
      expect(response.statusCode, response.body).toBe(200);
    };
    await decide(await open(-1));
    const costs = { gateOpenedInRun: [] as Cost[], decisionInRun: [] as Cost[] };
    for (let i = 0; i < REPEATS; i++) {
      let gateId = '';
      costs.gateOpenedInRun.push(
        await measure(async () => {
          gateId = await open(i);
        }),
      );
      costs.decisionInRun.push(await measure(() => decide(gateId)));
    }
    for (const [name, measured] of Object.entries(costs)) expectWithin(name, measured);
  }, 30_000);

  it('reads no more rows for a gated call when the team remembered 300 rules it does not match', async () => {
    const { test, measure } = await start(null);
    const open = (i: number) => openTestGate(test, { tool: 'shell', args: { command: `make ${i}` } });
    await open(-1);
    const before = await measure(() => open(0));
    await test.store.transaction(async (tx) => {
      for (let i = 0; i < 300; i++) {
        // Other tools' rules, and this tool's revoked and expired ones.
        const tool = i < 250 ? `tool_${i % 25}` : 'shell';
        await tx.insertRememberedRule({
          id: `rule_many${i}`,
          scope: 'global',
          runId: null,
          agentId: null,
          tool,
          argsHash: null,
          match: null,
          createdBy: test.ids.techLeadId,
          createdAt: tx.now - 1_000,
          expiresAt: i >= 275 ? tx.now - 1 : null,
          revokedAt: i >= 250 && i < 275 ? tx.now - 1 : null,
          revokedBy: i >= 250 && i < 275 ? test.ids.techLeadId : null,
          sourceGateId: null,
        });
      }
    });
    const after = await measure(() => open(1));
    expect(after).toEqual(before);
  }, 30_000);

  it("reads no more rows for a rejected call when other agents' accepted trust proposals pile up", async () => {
    const { test, measure } = await start(null);
    const reject = async (i: number) => {
      const gateId = await openTestGate(test, { tool: 'shell', args: { command: `make ${i}` } });
      const response = await decideTestGate(test, test.tokens.developer, gateId, { option: 'reject' });
      expect(response.statusCode, response.body).toBe(200);
    };
    await reject(-1);
    const before = await measure(() => reject(0));
    await test.store.transaction(async (tx) => {
      for (let i = 0; i < 300; i++) {
        await tx.insertTrustProposal({
          id: `tp_many${i}`,
          key: `key_many${i}`,
          agentId: `agent_other${i % 30}`,
          tool: 'shell',
          scope: { kind: 'prefix', prefix: 'make' },
          acceptedScope: null,
          status: 'accepted',
          evidence: {},
          createdAt: tx.now - 1_000,
          updatedAt: tx.now - 1_000,
          decidedBy: `user:${test.ids.techLeadId}`,
          acceptedBy: `user:${test.ids.techLeadId}`,
          ruleId: `rule_many${i}`,
          expiresAt: null,
          policyVersion: null,
          revokedReason: null,
          kind: 'scope',
          autonomy: null,
        });
      }
    });
    const after = await measure(() => reject(1));
    expect(after).toEqual(before);
  }, 30_000);

  it('wakes a waiting agent within the budget of the decision alone', async () => {
    const { test, measure } = await start(null);
    const open = (i: number) => openTestGate(test, { tool: 'shell', args: { command: `make ${i}` } });
    let answeredAt = 0;
    const decideWhileWaiting = async (gateId: string, decider = test.tokens.developer, warm = false) => {
      const waited = test.app.inject({
        method: 'GET',
        url: `/v1/gates/${gateId}/wait?timeoutMs=30000`,
        headers: bearer(test.tokens.agent),
      });
      while (test.services.gates.waiting() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      return measure(
        async () => {
          const decided = await decideTestGate(test, decider, gateId, { option: 'approve' });
          expect(decided.statusCode, decided.body).toBe(200);
          const answer = await waited;
          answeredAt = performance.now();
          expect(answer.json()).toMatchObject({ outcome: 'approved' });
        },
        { warm },
      );
    };
    await decideWhileWaiting(await open(-1));
    const costs: Cost[] = [];
    for (let i = 0; i < REPEATS; i++) costs.push(await decideWhileWaiting(await open(i)));
    expectWithin('decisionWithWaiter', costs);
    // Each attempt starts once the cache has let both credentials go, so both are checked afresh in it
    // (an entry from the attempt before could otherwise run out in the middle of the measurement).
    const warm: Cost[] = [];
    for (let attempt = 0; warm.length < REPEATS && attempt < 3 * REPEATS; attempt++) {
      const decider = await issueTestSession(test.store, test.ids.developerId, test.clock.now());
      await new Promise((resolve) => setTimeout(resolve, PRINCIPAL_CACHE_TTL_MS + 20));
      const checkedAt = performance.now();
      const gateId = await open(REPEATS + 2 * attempt);
      await decideTestGate(test, decider, await open(REPEATS + 2 * attempt + 1), { option: 'approve' });
      const cost = await decideWhileWaiting(gateId, decider, true);
      // Staleness is real time: a machine that stalled past the cache's 500 ms measured a cold wake-up.
      if (answeredAt - checkedAt < PRINCIPAL_CACHE_TTL_MS) warm.push(cost);
    }
    expect(warm.length, 'wake-ups measured within 500 ms of the credential checks').toBe(REPEATS);
    expectWithin('warmDecisionWithWaiter', warm);
  }, 30_000);

  it('runs allowed calls that share a commit without a savepoint each', async () => {
    const { test, measure, savepoints } = await start(null);
    const allowed = async (i: number) => {
      const response = await postGate(test, { tool: 'read_file', args: { path: `src/${i}.ts` } });
      expect(response.json()).toMatchObject({ outcome: 'allowed' });
    };
    await allowed(-1);
    const calls = 20;
    const cost = await measure(() => Promise.all(Array.from({ length: calls }, (_, i) => allowed(i))));
    expect(cost.rowsWritten).toBe(calls * (BUDGETS[dialect].allowedCall as Cost).rowsWritten);
    expect(savepoints()).toBe(0);
  }, 30_000);

  /**
   * Opens and decides gates with notices for 20 people by email and, with `withSlack`, Slack: the
   * gate, routing its notices (a worker transaction), delivering them, the decision and its routing.
   */
  async function measureNotified(withSlack: boolean): Promise<void> {
    const inbox = await startSmtpInbox();
    cleanup.push(() => inbox.close());
    const slack = withSlack ? await startSlackStandIn() : null;
    if (slack !== null) cleanup.push(() => slack.close());
    const { test, measure } = await start({ inbox, slack });
    const notifications = test.services.notifications;
    const open = (i: number) => openTestGate(test, { tool: 'shell', args: { command: `make ${i}` } });
    const decide = async (gateId: string) => {
      const response = await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve' });
      expect(response.statusCode, response.body).toBe(200);
    };
    // Routing is measured on its own: the worker delivers between measurements only.
    await notifications.close();
    /** Runs the worker until `rounds` notices per person have reached each channel in all. */
    const delivered = async (rounds: number) => {
      notifications.start();
      await inbox.waitFor(rounds * PEOPLE);
      // Every Slack notice is one call: a new message, or an update of the person's earlier one.
      for (const deadline = Date.now() + 10_000; slack !== null && slack.calls.length < rounds * PEOPLE; ) {
        if (Date.now() > deadline) throw new Error(`${slack.calls.length} of ${rounds * PEOPLE} Slack calls`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await notifications.close();
    };
    const warm = await open(-1);
    await dispatchTriggers(test.ctx);
    await delivered(1);
    await decide(warm);
    await dispatchTriggers(test.ctx);
    await delivered(2);
    const costs = {
      gateOpened: [] as Cost[],
      routed: [] as Cost[],
      decision: [] as Cost[],
      routedDecision: [] as Cost[],
      delivered: [] as Cost[],
    };
    for (let i = 0; i < REPEATS; i++) {
      let gateId = '';
      costs.gateOpened.push(
        await measure(async () => {
          gateId = await open(i);
        }),
      );
      costs.routed.push(await measure(() => dispatchTriggers(test.ctx)));
      costs.delivered.push(await measure(() => delivered(2 * (i + 1) + 1)));
      costs.decision.push(await measure(() => decide(gateId)));
      costs.routedDecision.push(await measure(() => dispatchTriggers(test.ctx)));
      await delivered(2 * (i + 2));
    }
    const suffix = withSlack ? 'EmailSlack' : 'Email';
    for (const [name, measured] of Object.entries(costs)) expectWithin(`${name}${suffix}`, measured);
  }

  it('keeps an opened gate and a decision within budget with email for 20 people', async () => {
    await measureNotified(false);
  }, 60_000);

  it('keeps an opened gate and a decision within budget with email and Slack for 20 people', async () => {
    await measureNotified(true);
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import { decideTestGate, openTestGate } from '../testing/gates.js';
import { startSlackStandIn } from '../testing/slack-stand-in.js';
import { startSmtpInbox } from '../testing/smtp-inbox.js';
import {
  BUDGET_DIALECTS,
  BUDGET_PEOPLE,
  BUDGET_REPEATS,
  budgetHarness,
  type Cost,
} from '../testing/statement-budgets.js';
import type { TestDialect } from '../testing/test-app.js';
import { dispatchTriggers } from './notifications/dispatch.js';

/**
 * `notices` delivered: each is claimed and finished (two rows written). How attempts share worker
 * rounds depends on timing, so statements and commits are bounded by the worst case, a round per notice.
 */
function deliveryBound(notices: number): Cost {
  return { statements: 21 * notices, commits: 2 * notices, rowsWritten: 2 * notices };
}

/**
 * The most each operation may cost with email (then email and Slack) for 20 people: the gate, the
 * decision, routing each (a worker transaction) and delivering one round of notices. Raise one only
 * on purpose, in the commit that needs it, with its bench figures. Every measurement looks its
 * credential up again (the cold cost). The gate path on a default server: hot-path-budgets.int.test.ts.
 */
const BUDGETS: Record<TestDialect, Record<string, Cost>> = {
  sqlite: {
    gateOpenedEmail: { statements: 10, commits: 1, rowsWritten: 4 },
    routedEmail: { statements: 29, commits: 1, rowsWritten: 21 },
    decisionEmail: { statements: 12, commits: 1, rowsWritten: 4 },
    routedDecisionEmail: { statements: 29, commits: 1, rowsWritten: 21 },
    deliveredEmail: deliveryBound(BUDGET_PEOPLE),
    // With Slack too, routing writes a second row per person; the gate and the decision cost the same.
    gateOpenedEmailSlack: { statements: 10, commits: 1, rowsWritten: 4 },
    routedEmailSlack: { statements: 49, commits: 1, rowsWritten: 41 },
    decisionEmailSlack: { statements: 12, commits: 1, rowsWritten: 4 },
    routedDecisionEmailSlack: { statements: 49, commits: 1, rowsWritten: 41 },
    deliveredEmailSlack: deliveryBound(2 * BUDGET_PEOPLE),
  },
  postgres: {
    gateOpenedEmail: { statements: 11, commits: 1, rowsWritten: 4 },
    routedEmail: { statements: 30, commits: 1, rowsWritten: 21 },
    decisionEmail: { statements: 13, commits: 1, rowsWritten: 4 },
    routedDecisionEmail: { statements: 30, commits: 1, rowsWritten: 21 },
    deliveredEmail: deliveryBound(BUDGET_PEOPLE),
    gateOpenedEmailSlack: { statements: 11, commits: 1, rowsWritten: 4 },
    routedEmailSlack: { statements: 50, commits: 1, rowsWritten: 41 },
    decisionEmailSlack: { statements: 13, commits: 1, rowsWritten: 4 },
    routedDecisionEmailSlack: { statements: 50, commits: 1, rowsWritten: 41 },
    deliveredEmailSlack: deliveryBound(2 * BUDGET_PEOPLE),
  },
};

describe.each(BUDGET_DIALECTS)('statement budgets with notices on %s', (dialect) => {
  const { start, expectWithin, cleanup } = budgetHarness(dialect, BUDGETS[dialect]);

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
      await inbox.waitFor(rounds * BUDGET_PEOPLE);
      // Every Slack notice is one call: a new message, or an update of the person's earlier one.
      for (
        const deadline = Date.now() + 10_000;
        slack !== null && slack.calls.length < rounds * BUDGET_PEOPLE;
      ) {
        if (Date.now() > deadline)
          throw new Error(`${slack.calls.length} of ${rounds * BUDGET_PEOPLE} Slack calls`);
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
    for (let i = 0; i < BUDGET_REPEATS; i++) {
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

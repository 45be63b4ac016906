import { Gatehouse } from 'gatehouse-hitl-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../../testing/gates.js';
import { type ListeningApp, startListeningApp } from '../../testing/listening-app.js';
import { type SlackStandIn, signedInteraction, startSlackStandIn } from '../../testing/slack-stand-in.js';
import { bearer, type TestDialect } from '../../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const SECRET = 'slack-signing-secret-for-tests';
const DEVELOPER_SLACK = 'U0DEVELOPER';

type Block = { type: string; elements?: { action_id?: string; value?: string }[] };

function blocksOf(call: { body: Record<string, unknown> } | undefined): Block[] {
  return (call?.body.blocks ?? []) as Block[];
}

function actionIds(call: { body: Record<string, unknown> } | undefined): string[] {
  return blocksOf(call).flatMap((block) =>
    (block.type === 'actions' ? (block.elements ?? []) : []).map((e) => e.action_id ?? ''),
  );
}

async function waitUntil<T>(probe: () => Promise<T | null>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(dialects)('Slack notifications on %s', (dialect) => {
  let slack: SlackStandIn;
  let listening: ListeningApp<{ now(): number }>;

  beforeEach(async () => {
    slack = await startSlackStandIn();
    listening = await startListeningApp({
      dialect,
      config: {
        slack: { botToken: 'xoxb-test', signingSecret: SECRET, apiUrl: slack.apiUrl },
        sweepIntervalMs: 50,
        notifications: { ...(await defaults()), pollIntervalMs: 20, backoffBaseMs: 20, maxAttempts: 3 },
      },
    });
    await useTestPolicy(listening.test);
    const response = await listening.test.app.inject({
      method: 'PUT',
      url: `/v1/users/${listening.test.ids.developerId}/slack`,
      headers: bearer(listening.test.tokens.admin),
      payload: { slackUserId: DEVELOPER_SLACK },
    });
    expect(response.statusCode).toBe(200);
  });
  /** Agents still waiting when a test ends: stopped before the server, so none outlives its test. */
  const waiting: { stop: AbortController; answer: Promise<unknown> }[] = [];
  afterEach(async () => {
    const left = waiting.splice(0);
    for (const { stop } of left) stop.abort();
    await Promise.allSettled(left.map(({ answer }) => answer));
    await listening.close();
    await slack.close();
  });

  async function defaults() {
    const { loadConfig } = await import('../../config.js');
    return loadConfig({}).notifications;
  }

  async function agentAsks(tool: string, extra: Record<string, unknown> = {}) {
    let opened: (id: string) => void = () => {};
    const gateId = new Promise<string>((resolve) => {
      opened = resolve;
    });
    const agent = new Gatehouse({ url: listening.url, token: listening.test.tokens.agent });
    const stop = new AbortController();
    const answer = agent.request({
      tool,
      args: { path: 'build/' },
      ...extra,
      signal: stop.signal,
      onGate: (id) => opened(id),
    });
    waiting.push({ stop, answer });
    return { gateId: await gateId, answer };
  }

  it('DMs the person with buttons; their click decides, the agent wakes and the message shows who decided', async () => {
    const { gateId, answer } = await agentAsks('clean_build');
    const [dm] = await slack.waitFor('chat.postMessage', 1);
    expect(dm?.body.channel).toBe(DEVELOPER_SLACK);
    const page = await listening.test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}`,
      headers: bearer(listening.test.tokens.developer),
    });
    const { headline } = page.json();
    expect(headline).toMatch(/^alpha wants to run clean_build/);
    expect(blocksOf(dm)[0]).toMatchObject({ type: 'header', text: { text: headline } });
    expect(actionIds(dm)).toEqual(
      expect.arrayContaining(['gatehouse_decide:approve', 'gatehouse_modal:steer']),
    );
    const approve = blocksOf(dm)
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.action_id === 'gatehouse_decide:approve');
    expect(JSON.parse(approve?.value ?? '{}')).toEqual({ gateId, option: 'approve' });
    const signed = signedInteraction(
      SECRET,
      {
        type: 'block_actions',
        user: { id: DEVELOPER_SLACK },
        response_url: slack.responseUrl,
        actions: [{ action_id: approve?.action_id, value: approve?.value }],
      },
      Math.floor(Date.now() / 1000),
    );
    const click = await listening.test.app.inject({
      method: 'POST',
      url: '/v1/slack/interactions',
      headers: signed.headers,
      payload: signed.body,
    });
    expect(click.statusCode).toBe(200);
    expect((await answer).outcome).toBe('approved');
    const [update] = await slack.waitFor('chat.update', 1);
    expect(update?.body).toMatchObject({ channel: 'D0STANDIN', ts: '1700000000.000001' });
    expect(actionIds(update)).toEqual([]);
    expect(JSON.stringify(update?.body.blocks)).toMatch(/approve\*.* by dev/);
  });

  it('updates the message when the gate is decided in the API', async () => {
    const { gateId, answer } = await agentAsks('clean_build');
    await slack.waitFor('chat.postMessage', 1);
    const decided = await listening.test.app.inject({
      method: 'POST',
      url: `/v1/gates/${gateId}/decide`,
      headers: bearer(listening.test.tokens.techLead),
      payload: { option: 'reject', reason: 'not <today>' },
    });
    expect(decided.statusCode).toBe(200);
    expect((await answer).outcome).toBe('denied');
    const [update] = await slack.waitFor('chat.update', 1);
    expect(actionIds(update)).toEqual([]);
    expect(JSON.stringify(update?.body.blocks)).toContain('not &lt;today&gt;');
  });

  it('updates the message when the gate times out', async () => {
    const { answer } = await agentAsks('clean_build', { timeoutSeconds: 1, timeoutAction: 'deny' });
    await slack.waitFor('chat.postMessage', 1);
    expect((await answer).outcome).toBe('timed_out');
    const [update] = await slack.waitFor('chat.update', 1);
    expect(actionIds(update)).toEqual([]);
    expect(JSON.stringify(update?.body.blocks)).toContain('Timed out');
    // A timeout warning, when one went out before the deadline, is a reply in the message's thread.
    for (const warning of slack.callsOf('chat.postMessage').slice(1)) {
      expect(warning.body).toMatchObject({ channel: 'D0STANDIN', thread_ts: '1700000000.000001' });
    }
  });

  it('on an escalation, tells the next role in its message’s thread and keeps its buttons, and takes them from those left out', async () => {
    const lead = await listening.test.app.inject({
      method: 'PUT',
      url: `/v1/users/${listening.test.ids.techLeadId}/slack`,
      headers: bearer(listening.test.tokens.admin),
      payload: { slackUserId: 'U0LEAD' },
    });
    expect(lead.statusCode).toBe(200);
    const waiting = new AbortController();
    const agent = new Gatehouse({ url: listening.url, token: listening.test.tokens.agent });
    const answer = agent
      .request({
        tool: 't_escalate',
        args: {},
        timeoutSeconds: 1,
        timeoutAction: 'escalate',
        signal: waiting.signal,
      })
      .catch(() => null);
    await slack.waitFor('chat.postMessage', 2);
    const tsOf = (slackUser: string) => {
      const index = slack.calls.findIndex(
        (call) => call.method === 'chat.postMessage' && call.body.channel === slackUser,
      );
      return `1700000000.${String(index + 1).padStart(6, '0')}`;
    };
    const told = await waitUntil(
      async () =>
        slack
          .callsOf('chat.postMessage')
          .find(
            (call) => call.body.thread_ts === tsOf('U0LEAD') && String(call.body.text).includes('Escalated'),
          ) ?? null,
    );
    expect(told.body.channel).toBe('D0STANDIN');
    const leadUpdates = slack.callsOf('chat.update').filter((call) => call.body.ts === tsOf('U0LEAD'));
    expect(leadUpdates.every((call) => actionIds(call).includes('gatehouse_decide:approve'))).toBe(true);
    // The developer may no longer decide: their message loses its buttons and says where it went.
    const developerUpdate = await waitUntil(
      async () => slack.callsOf('chat.update').find((call) => call.body.ts === tsOf(DEVELOPER_SLACK)) ?? null,
    );
    expect(actionIds(developerUpdate)).toEqual([]);
    expect(JSON.stringify(developerUpdate.body)).toContain('Escalated to tech_lead');
    waiting.abort();
    await answer;
  });

  it('retries a message Slack rate-limited (429 Retry-After) no sooner than Slack asked, and records where it went', async () => {
    slack.failNext('chat.postMessage', { status: 429, headers: { 'retry-after': '1' } });
    const { gateId } = await agentAsks('clean_build');
    const sent = await slack.waitFor('chat.postMessage', 2);
    expect(sent.map((call) => call.body.channel)).toEqual([DEVELOPER_SLACK, DEVELOPER_SLACK]);
    // The worker's own backoff here is 20 ms; Slack asked for a second.
    expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_000);
    const row = await waitUntil(async () => {
      const rows = await listening.test.store.read((tx) => tx.listNotifications({ gateId }));
      const found = rows.items.find(
        (item) => item.channel === 'slack' && item.userId === listening.test.ids.developerId,
      );
      return found?.status === 'sent' ? found : null;
    });
    expect(row.attempts).toBe(2);
    expect(row.ref).toBe('D0STANDIN:1700000000.000002');
  });
});

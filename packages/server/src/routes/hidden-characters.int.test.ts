import { payloadText } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../auth/secrets.js';
import type { Json } from '../testing/http-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import { approveTestPlan } from '../testing/runs.js';
import type { TestDialect } from '../testing/test-app.js';
import { startWebhookReceiver } from '../testing/webhook-receiver.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const RLO = '\u202e';
const TOOL = `invoice_${RLO}fdp.sh`;
const ARGS = { command: `echo safe${RLO} && rm -rf ~`, note: 'ok\u{e0041}\u{e0042}' };

describe.each(dialects)('hidden characters on %s', (dialect) => {
  let live: ListeningApp<{ now(): number }>;
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start() {
    live = await startListeningApp({ dialect, config: { webhookPollIntervalMs: 50 } });
    cleanup.push(() => live.close());
  }

  async function call(method: 'GET' | 'POST', path: string, token: string, body?: Json) {
    const response = await live.client.call(method, path, { token, ...(body === undefined ? {} : { body }) });
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as Json;
  }

  async function requestGate() {
    const { tokens } = live.test;
    return call('POST', '/v1/gates', tokens.agent, {
      tool: TOOL,
      args: ARGS,
      title: `Send the ${RLO}invoice`,
      context: { why: 'month\u200bend' },
    });
  }

  it('opens a high-risk gate whose action and payload hash stay exactly as sent', async () => {
    await start();
    const answer = await requestGate();
    expect(answer).toMatchObject({ outcome: 'gated', ruleId: 'hidden-characters', gate: { risk: 'high' } });
    const sent = { tool: TOOL, args: ARGS };
    expect(answer.payloadHash).toBe(sha256Hex(payloadText(sent)));
    const view = await call('GET', `/v1/gates/${answer.gate.id}`, live.test.tokens.viewer);
    expect(view.gate.action).toEqual(sent);
    expect(view.gate.payloadHash).toBe(answer.payloadHash);
  });

  it('shows the title, context and briefing with markers and a warning, never the characters themselves', async () => {
    await start();
    const answer = await requestGate();
    const view = await call('GET', `/v1/gates/${answer.gate.id}`, live.test.tokens.viewer);
    expect(view.gate.title).toBe('Send the ⟨U+202E⟩invoice');
    expect(view.gate.context).toEqual({ why: 'month⟨U+200B⟩end' });
    expect(view.briefing.hiddenCharacters).toBe(true);
    expect(view.briefing.sections[0].title).toBe('Hidden Characters');
    const briefing = JSON.stringify(view.briefing);
    expect(briefing).toContain('invoice_⟨U+202E⟩fdp.sh');
    expect(briefing).not.toMatch(/[\u202e\u200b]|\u{e0041}/u);
  });

  it('is not let through by an approve-always rule for the tool, nor by the run approval mode', async () => {
    await start();
    const { tokens } = live.test;
    const { run } = await call('POST', '/v1/runs', tokens.agent, { title: 'edits' });
    await approveTestPlan(live.test, run.id);
    const first = await call('POST', '/v1/gates', tokens.agent, {
      runId: run.id,
      tool: 'edit_file',
      args: { path: 'src/a.ts' },
    });
    const decided = await call('POST', `/v1/gates/${first.gate.id}/decide`, tokens.developer, {
      option: 'approve_always',
    });
    const plain = await call('POST', '/v1/gates', tokens.agent, {
      runId: run.id,
      tool: 'edit_file',
      args: { path: 'src/b.ts' },
    });
    expect(plain).toMatchObject({ outcome: 'allowed', ruleId: decided.rule.id });
    const disguised = await call('POST', '/v1/gates', tokens.agent, {
      runId: run.id,
      tool: 'edit_file',
      args: { path: `src/b${RLO}st.ts` },
      confidence: 0.99,
    });
    expect(disguised).toMatchObject({
      outcome: 'gated',
      ruleId: 'hidden-characters',
      gate: { risk: 'high' },
    });
  });

  it('announces a gate opening to webhooks with its title as shown and the flag', async () => {
    await start();
    const hook = await startWebhookReceiver();
    cleanup.push(() => hook.close());
    await call('POST', '/v1/webhooks', live.test.tokens.admin, { url: hook.url, events: ['gate.opened'] });
    await requestGate();
    const [request] = await hook.waitFor(1);
    const event = JSON.parse(request?.body ?? '{}');
    expect(event).toMatchObject({ type: 'gate.opened', hiddenCharacters: true });
    expect(event.data.title).toBe('Send the ⟨U+202E⟩invoice');
  });

  it('flags a webhook event whose human text holds hidden characters, leaving the text as stored', async () => {
    await start();
    const hook = await startWebhookReceiver();
    cleanup.push(() => hook.close());
    const { tokens } = live.test;
    await call('POST', '/v1/webhooks', tokens.admin, { url: hook.url, events: ['gate.decided'] });
    const answer = await requestGate();
    await call('POST', `/v1/gates/${answer.gate.id}/decide`, tokens.developer, {
      option: 'reject',
      reason: `looks ${RLO}wrong`,
    });
    const [request] = await hook.waitFor(1);
    const event = JSON.parse(request?.body ?? '{}');
    expect(event).toMatchObject({ type: 'gate.decided', hiddenCharacters: true });
    expect(event.data.reason).toBe('looks ⟨U+202E⟩wrong');
  });
});

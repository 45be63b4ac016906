import { Gatehouse } from 'gatehouse-hitl-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../testing/gates.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import {
  type SlackStandIn,
  signedForm,
  signedInteraction,
  startSlackStandIn,
} from '../testing/slack-stand-in.js';
import { snapshotDiff, snapshotState } from '../testing/state-snapshot.js';
import { bearer, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const SECRET = 'slack-signing-secret-for-tests';
const DEVELOPER_SLACK = 'U0DEVELOPER';
const VIEWER_SLACK = 'U0VIEWER';

describe.each(dialects)('Slack interactions on %s', (dialect) => {
  let slack: SlackStandIn;
  let listening: ListeningApp<{ now(): number }>;

  beforeEach(async () => {
    slack = await startSlackStandIn();
    listening = await startListeningApp({
      dialect,
      config: { slack: { botToken: 'xoxb-test', signingSecret: SECRET, apiUrl: slack.apiUrl } },
    });
    await useTestPolicy(listening.test);
    const { ids, tokens } = listening.test;
    await mapSlack(tokens.admin, ids.developerId, DEVELOPER_SLACK);
    await mapSlack(tokens.viewer, ids.viewerId, VIEWER_SLACK);
  });
  afterEach(async () => {
    await listening.close();
    await slack.close();
  });

  async function mapSlack(token: string, userId: string, slackUserId: string) {
    const response = await listening.test.app.inject({
      method: 'PUT',
      url: `/v1/users/${userId}/slack`,
      headers: bearer(token),
      payload: { slackUserId },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  function send(payload: Record<string, unknown>, at = Math.floor(Date.now() / 1000)) {
    const signed = signedInteraction(SECRET, payload, at);
    return listening.test.app.inject({
      method: 'POST',
      url: '/v1/slack/interactions',
      headers: signed.headers,
      payload: signed.body,
    });
  }

  function click(slackUserId: string, gateId: string, option: string, kind = 'gatehouse_decide') {
    return send({
      type: 'block_actions',
      user: { id: slackUserId },
      trigger_id: `trigger-${option}`,
      response_url: slack.responseUrl,
      actions: [{ action_id: `${kind}:${option}`, value: JSON.stringify({ gateId, option }) }],
    });
  }

  function agent() {
    return new Gatehouse({ url: listening.url, token: listening.test.tokens.agent });
  }

  /** The agent asks; resolves with the gate id once the gate is open, and the agent's answer later. */
  async function agentAsks(tool: string, args: Record<string, unknown> = {}) {
    let opened: (id: string) => void = () => {};
    const gateId = new Promise<string>((resolve) => {
      opened = resolve;
    });
    const waiting = new AbortController();
    const answer = agent().request({ tool, args, signal: waiting.signal, onGate: (id) => opened(id) });
    // Stops waiting for a gate the test leaves open.
    const stop = () => {
      waiting.abort();
      return answer.catch(() => null);
    };
    return { gateId: await gateId, answer, stop };
  }

  async function gateStatus(gateId: string): Promise<string> {
    const gate = await listening.test.store.read((tx) => tx.getGate(gateId));
    return gate?.status ?? 'missing';
  }

  it('decides from an approve button as the mapped person; the agent wakes and the audit says slack', async () => {
    const { gateId, answer } = await agentAsks('clean_build', { path: 'build/' });
    const response = await click(DEVELOPER_SLACK, gateId, 'approve');
    expect(response.statusCode, response.body).toBe(200);
    const result = await answer;
    expect(result.outcome).toBe('approved');
    const audit = await listening.test.store.queryAudit({ kind: 'gate.decided', subject: gateId });
    expect(audit.items[0]?.actor).toBe(`user:${listening.test.ids.developerId}`);
    expect(audit.items[0]?.data.channel).toBe('slack');
  });

  it('steers through the modal: the button opens it, its submission decides, empty instructions are a field error', async () => {
    const { gateId, answer } = await agentAsks('clean_build');
    expect((await click(DEVELOPER_SLACK, gateId, 'steer', 'gatehouse_modal')).statusCode).toBe(200);
    const [opened] = await slack.waitFor('views.open', 1);
    expect(opened?.authorization).toBe('Bearer xoxb-test');
    expect(opened?.body.trigger_id).toBe('trigger-steer');
    const view = opened?.body.view as {
      callback_id: string;
      private_metadata: string;
      blocks: { block_id?: string; text?: { text: string } }[];
    };
    expect(view.blocks.map((block) => block.block_id)).toContain('instructions');
    // The form leads with the gate's headline, as its page does: the agent by its registered name.
    const page = await listening.test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}`,
      headers: bearer(listening.test.tokens.developer),
    });
    const { headline } = page.json() as { headline: string };
    expect(headline).toMatch(/^alpha wants to run clean_build/);
    expect(view.blocks[0]?.text?.text).toBe(headline);
    const submit = (instructions: string) =>
      send({
        type: 'view_submission',
        user: { id: DEVELOPER_SLACK },
        view: {
          callback_id: view.callback_id,
          private_metadata: view.private_metadata,
          state: { values: { instructions: { value: { type: 'plain_text_input', value: instructions } } } },
        },
      });
    const empty = await submit('   ');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({
      response_action: 'errors',
      errors: { instructions: expect.any(String) },
    });
    expect(await gateStatus(gateId)).toBe('pending');
    const steered = await submit('Only clean build/tmp, keep the cache');
    expect(steered.statusCode, steered.body).toBe(200);
    expect(steered.json()).toEqual({});
    const result = await answer;
    expect(result.outcome).toBe('steered');
    expect(result.instructions).toBe('Only clean build/tmp, keep the cache');
  });

  it('approves edited arguments from the Edit form; bad JSON is a field error and decides nothing', async () => {
    const { gateId, answer } = await agentAsks('clean_build', { path: 'build/' });
    await click(DEVELOPER_SLACK, gateId, 'approve', 'gatehouse_edit');
    const [opened] = await slack.waitFor('views.open', 1);
    const view = opened?.body.view as {
      private_metadata: string;
      blocks: { block_id?: string; element?: { initial_value?: string } }[];
    };
    const argsBlock = view.blocks.find((block) => block.block_id === 'editedArgs');
    expect(JSON.parse(argsBlock?.element?.initial_value ?? '')).toEqual({ path: 'build/' });
    const submit = (args: string) =>
      send({
        type: 'view_submission',
        user: { id: DEVELOPER_SLACK },
        view: {
          callback_id: 'gatehouse_decide',
          private_metadata: view.private_metadata,
          state: { values: { editedArgs: { value: { type: 'plain_text_input', value: args } } } },
        },
      });
    const bad = await submit('{"path": ');
    expect(bad.json()).toMatchObject({
      response_action: 'errors',
      errors: { editedArgs: 'must be valid JSON' },
    });
    expect(await gateStatus(gateId)).toBe('pending');
    expect((await submit('{"path": "build/tmp"}')).json()).toEqual({});
    const result = await answer;
    expect(result.outcome).toBe('approved');
    expect(result.edited).toBe(true);
    expect(result.args).toEqual({ path: 'build/tmp' });
  });

  it('delegates from the form, picking the agent by name, and expands a constraint to a new limit', async () => {
    const ask = (gateType: string, operation: string, context: Record<string, unknown>) => {
      let opened: (id: string) => void = () => {};
      const gateId = new Promise<string>((resolve) => {
        opened = resolve;
      });
      const answer = agent().request({ operation, gateType, context, onGate: (id) => opened(id) });
      return { gateId, answer };
    };
    type Block = { block_id?: string; element?: { type?: string; options?: { value: string }[] } };
    const submit = (metadata: string, values: Record<string, unknown>) =>
      send({
        type: 'view_submission',
        user: { id: DEVELOPER_SLACK },
        view: { callback_id: 'gatehouse_decide', private_metadata: metadata, state: { values } },
      });

    const recovery = ask('recovery_escalation', 'Fix the flaky checkout test', { severity: 'CRITICAL' });
    const recoveryId = await recovery.gateId;
    await click(DEVELOPER_SLACK, recoveryId, 'delegate', 'gatehouse_modal');
    const [delegateForm] = await slack.waitFor('views.open', 1);
    const delegateView = delegateForm?.body.view as { private_metadata: string; blocks: Block[] };
    const select = delegateView.blocks.find((block) => block.block_id === 'delegateTo');
    const other = listening.test.ids.otherAgentId;
    expect(select?.element?.type).toBe('static_select');
    // Every agent but the one that asked.
    expect(select?.element?.options?.map((option) => option.value)).toEqual([other]);
    const delegated = await submit(delegateView.private_metadata, {
      delegateTo: { value: { type: 'static_select', selected_option: { value: other } } },
      reason: { value: { type: 'plain_text_input', value: 'beta knows the checkout' } },
    });
    expect(delegated.json()).toEqual({});
    expect(await recovery.answer).toMatchObject({ outcome: 'delegate', delegateTo: other });

    const constraint = ask('constraint_exception', 'Render the report', {
      constraint: 'at most 100 pages',
      currentLimit: 100,
    });
    const constraintId = await constraint.gateId;
    await click(DEVELOPER_SLACK, constraintId, 'expand_constraint', 'gatehouse_modal');
    const [, limitForm] = await slack.waitFor('views.open', 2);
    const limitView = limitForm?.body.view as { private_metadata: string; blocks: Block[] };
    expect(limitView.blocks.find((block) => block.block_id === 'newLimit')?.element?.type).toBe(
      'number_input',
    );
    const limit = (value: string) =>
      submit(limitView.private_metadata, { newLimit: { value: { type: 'number_input', value } } });
    // Not above the current limit: the error lands on the field and nothing is decided.
    expect((await limit('90')).json()).toMatchObject({
      response_action: 'errors',
      errors: { newLimit: expect.any(String) },
    });
    expect(await gateStatus(constraintId)).toBe('pending');
    expect((await limit('140')).json()).toEqual({});
    expect(await constraint.answer).toMatchObject({ outcome: 'expand_constraint', newLimit: 140 });
  });

  it('answers a question gate from the Answer form; the agent gets the text', async () => {
    const answer = agent().ask('Which region should the bucket live in?');
    let gateId = '';
    for (let tries = 0; gateId === '' && tries < 200; tries++) {
      const page = await listening.test.store.read((tx) =>
        tx.listGates({ status: 'pending', type: 'question' }),
      );
      gateId = page.items[0]?.id ?? '';
      if (gateId === '') await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await click(DEVELOPER_SLACK, gateId, 'answer', 'gatehouse_modal');
    const [opened] = await slack.waitFor('views.open', 1);
    const view = opened?.body.view as { private_metadata: string; blocks: { block_id?: string }[] };
    expect(view.blocks.map((block) => block.block_id)).toContain('answer');
    const submitted = await send({
      type: 'view_submission',
      user: { id: DEVELOPER_SLACK },
      view: {
        callback_id: 'gatehouse_decide',
        private_metadata: view.private_metadata,
        state: { values: { answer: { value: { type: 'plain_text_input', value: 'eu-west-1' } } } },
      },
    });
    expect(submitted.json()).toEqual({});
    expect(await answer).toBe('eu-west-1');
  });

  it('refuses an unmapped Slack user and a viewer, telling each why, and leaves the gate pending', async () => {
    const { gateId, answer } = await agentAsks('clean_build');
    expect((await click('U0STRANGER', gateId, 'approve')).statusCode).toBe(200);
    expect((await click(VIEWER_SLACK, gateId, 'approve')).statusCode).toBe(200);
    const told = await slack.waitFor('respond', 2);
    expect(told[0]?.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('not linked'),
    });
    expect(told[1]?.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('role developer'),
    });
    expect(await gateStatus(gateId)).toBe('pending');
    await listening.test.app.inject({
      method: 'POST',
      url: `/v1/gates/${gateId}/decide`,
      headers: bearer(listening.test.tokens.developer),
      payload: { option: 'reject' },
    });
    expect((await answer).outcome).toBe('denied');
  });

  it('says a signed gate cannot be decided from Slack and links to the web app', async () => {
    const { gateId, stop } = await agentAsks('wire_money', { amount: 10 });
    await click(DEVELOPER_SLACK, gateId, 'approve');
    const [told] = await slack.waitFor('respond', 1);
    expect(told?.body.text).toMatch(new RegExp(`signed decision.*/gates/${gateId}`));
    expect(await gateStatus(gateId)).toBe('pending');
    await stop();
  });

  it('answers signed but malformed bodies with 400 naming payload, deciding nothing', async () => {
    const { gateId, stop } = await agentAsks('clean_build');
    const now = Math.floor(Date.now() / 1000);
    const bodies = [
      'payload=%7B%22type%22%3A',
      '',
      'other=1',
      new URLSearchParams({ payload: '[]' }).toString(),
      new URLSearchParams({ payload: '{"__proto__":{"polluted":true},"type":"block_actions"}' }).toString(),
      new URLSearchParams({
        payload: JSON.stringify({ type: 'block_actions', user: 7, actions: 'x' }),
      }).toString(),
    ];
    for (const [index, body] of bodies.entries()) {
      const before = await snapshotState(listening.test.store);
      const signed = signedForm(SECRET, body, now - index);
      const response = await listening.test.app.inject({
        method: 'POST',
        url: '/v1/slack/interactions',
        headers: signed.headers,
        payload: signed.body,
      });
      expect(response.statusCode, `${body}: ${response.body}`).toBe(400);
      expect(response.body).toContain('payload');
      // Only the signature's first sighting is kept, so the same request cannot come back.
      const changed = snapshotDiff(before, await snapshotState(listening.test.store));
      expect(
        changed.every((table) => /slack/i.test(table)),
        changed.join(', '),
      ).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
    expect(await gateStatus(gateId)).toBe('pending');
    await stop();
  });

  it('refuses with 401 a bad signature, a stale timestamp, a missing signature and a replayed body', async () => {
    const { gateId, answer } = await agentAsks('clean_build');
    const payload = {
      type: 'block_actions',
      user: { id: DEVELOPER_SLACK },
      actions: [
        { action_id: 'gatehouse_decide:reject', value: JSON.stringify({ gateId, option: 'reject' }) },
      ],
    };
    const now = Math.floor(Date.now() / 1000);
    const forged = signedInteraction('not-the-secret', payload, now);
    const stale = signedInteraction(SECRET, payload, now - 6 * 60);
    const inject = (headers: Record<string, string>, body: string) =>
      listening.test.app.inject({ method: 'POST', url: '/v1/slack/interactions', headers, payload: body });
    const forgedReply = await inject(forged.headers, forged.body);
    expect(forgedReply.statusCode).toBe(401);
    expect(forgedReply.json().error.message).toMatch(/X-Slack-Signature/);
    expect((await inject(stale.headers, stale.body)).statusCode).toBe(401);
    const { 'x-slack-signature': _dropped, ...unsigned } = forged.headers;
    expect((await inject(unsigned, forged.body)).statusCode).toBe(401);
    expect(await gateStatus(gateId)).toBe('pending');
    const fresh = signedInteraction(SECRET, payload, now);
    expect((await inject(fresh.headers, fresh.body)).statusCode).toBe(200);
    const replay = await inject(fresh.headers, fresh.body);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.message).toMatch(/replay/);
    expect((await answer).outcome).toBe('denied');
  });
});

describe.each(dialects)('Slack user ids on %s', (dialect) => {
  let listening: ListeningApp<{ now(): number }>;
  beforeEach(async () => {
    listening = await startListeningApp({ dialect });
  });
  afterEach(async () => {
    await listening.close();
  });

  function call(method: 'GET' | 'PUT' | 'DELETE', token: string, userId: string, payload?: unknown) {
    return listening.test.app.inject({
      method,
      url: `/v1/users/${userId}/slack`,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  }

  it('lets admins set anyone’s and people their own, one Slack user per person, audited', async () => {
    const { tokens, ids } = listening.test;
    const set = await call('PUT', tokens.admin, ids.developerId, { slackUserId: 'U0DEV' });
    expect(set.statusCode).toBe(200);
    expect(set.json().slack).toMatchObject({ userId: ids.developerId, slackUserId: 'U0DEV' });
    expect((await call('PUT', tokens.viewer, ids.viewerId, { slackUserId: 'W0VIEW' })).statusCode).toBe(200);
    expect((await call('PUT', tokens.developer, ids.viewerId, { slackUserId: 'U0OTHER' })).statusCode).toBe(
      403,
    );
    const taken = await call('PUT', tokens.admin, ids.techLeadId, { slackUserId: 'U0DEV' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.details.field).toBe('slackUserId');
    const bad = await call('PUT', tokens.admin, ids.techLeadId, { slackUserId: '<!channel>' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('slackUserId');
    expect((await call('GET', tokens.developer, ids.developerId)).json().slack.slackUserId).toBe('U0DEV');
    expect((await call('DELETE', tokens.developer, ids.developerId)).json()).toEqual({ slack: null });
    expect((await call('GET', tokens.admin, ids.developerId)).json()).toEqual({ slack: null });
    expect((await call('PUT', tokens.admin, 'user_missing', { slackUserId: 'U0X' })).statusCode).toBe(404);
    const audit = await listening.test.store.queryAudit({ subject: ids.developerId });
    expect(audit.items.map((event) => event.kind)).toEqual(['user.slack_linked', 'user.slack_unlinked']);
  });

  it('refuses Slack interactions while no signing secret is set', async () => {
    const signed = signedInteraction('anything', { type: 'block_actions' }, Math.floor(Date.now() / 1000));
    const response = await listening.test.app.inject({
      method: 'POST',
      url: '/v1/slack/interactions',
      headers: signed.headers,
      payload: signed.body,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toContain('GATEHOUSE_SLACK_SIGNING_SECRET');
  });
});

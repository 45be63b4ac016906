import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandIn, startSlackStandIn } from '../../testing/slack-stand-in.js';
import { createSlackApi, isSlackResponseUrl } from './slack-api.js';

describe('the Slack Web API client', () => {
  let slack: SlackStandIn;
  beforeEach(async () => {
    slack = await startSlackStandIn();
  });
  afterEach(async () => {
    await slack.close();
  });

  const api = () => createSlackApi({ botToken: 'xoxb-test', signingSecret: null, apiUrl: slack.apiUrl });

  it('sends the bot token and JSON, and returns what Slack answered', async () => {
    const result = await api().call('chat.postMessage', { channel: 'U1', text: 'hi' });
    expect(result).toMatchObject({ ok: true, data: { channel: 'D0STANDIN' } });
    expect(slack.calls[0]).toMatchObject({
      authorization: 'Bearer xoxb-test',
      body: { channel: 'U1', text: 'hi' },
    });
  });

  it.each([
    [
      '429 with Retry-After',
      { status: 429, headers: { 'retry-after': '30' } },
      true,
      /rate limited.*retry after 30s/,
    ],
    ['HTTP 503', { status: 503 }, true, /HTTP 503/],
    ['ok:false ratelimited', { json: { ok: false, error: 'ratelimited' } }, true, /ratelimited/],
    [
      'ok:false channel_not_found',
      { json: { ok: false, error: 'channel_not_found' } },
      false,
      /channel_not_found/,
    ],
    ['ok:false invalid_auth', { json: { ok: false, error: 'invalid_auth' } }, false, /invalid_auth/],
    ['HTTP 400', { status: 400 }, false, /HTTP 400/],
  ] as const)('maps %s to a retryable: %s failure', async (_name, reply, retryable, error) => {
    slack.failNext('chat.update', reply);
    const result = await api().call('chat.update', { channel: 'D1', ts: '1.2' });
    expect(result).toMatchObject({ ok: false, retryable, error: expect.stringMatching(error) });
  });

  it('refuses without a bot token, and answers only Slack’s own response URLs', async () => {
    const off = createSlackApi({ botToken: null, signingSecret: null, apiUrl: slack.apiUrl });
    expect(off.enabled).toBe(false);
    expect(await off.call('views.open', {})).toMatchObject({ ok: false, retryable: false });
    expect(slack.calls).toEqual([]);
    expect(isSlackResponseUrl('https://hooks.slack.com/actions/T1/2/abc', 'https://slack.com/api/')).toBe(
      true,
    );
    expect(isSlackResponseUrl('http://hooks.slack.com/actions/x', 'https://slack.com/api/')).toBe(false);
    expect(isSlackResponseUrl('http://169.254.169.254/latest', 'https://slack.com/api/')).toBe(false);
    await api().respond('http://169.254.169.254/latest', { text: 'x' });
    await api().respond(slack.responseUrl, { text: 'told' });
    expect(slack.calls.map((call) => call.method)).toEqual(['respond']);
  });
});

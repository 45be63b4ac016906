import type { SlackConfig } from '../../config.js';

/** The Web API methods Gatehouse calls. */
export type SlackMethod = 'chat.postMessage' | 'chat.update' | 'views.open';

export type SlackCallResult =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; error: string; retryable: boolean; retryAfterMs?: number };

/** Slack's Web API over plain fetch, with the bot token. */
export interface SlackApi {
  readonly enabled: boolean;
  call(method: SlackMethod, body: Record<string, unknown>): Promise<SlackCallResult>;
  /** Posts to an interaction's response_url (an ephemeral note to the person who clicked). */
  respond(responseUrl: string, body: Record<string, unknown>): Promise<void>;
}

// Slack's own errors that a later attempt may get past; every other `ok: false` is final.
const RETRYABLE_ERRORS = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
]);

const CALL_TIMEOUT_MS = 10_000;

/** Slack's Retry-After (whole seconds), or null when it sent none that makes sense. */
function retryAfterSeconds(response: Response): number | null {
  const text = response.headers.get('retry-after')?.trim() ?? '';
  const seconds = Number(text);
  return /^\d+$/.test(text) && seconds > 0 ? seconds : null;
}

async function resultOf(method: SlackMethod, response: Response): Promise<SlackCallResult> {
  if (response.status === 429) {
    const seconds = retryAfterSeconds(response);
    return {
      ok: false,
      error: `${method}: rate limited by Slack${seconds === null ? '' : `; retry after ${seconds}s`}`,
      retryable: true,
      ...(seconds === null ? {} : { retryAfterMs: seconds * 1000 }),
    };
  }
  if (!response.ok) {
    const retryable = response.status >= 500;
    return { ok: false, error: `${method}: Slack answered HTTP ${response.status}`, retryable };
  }
  const data = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (data === null || typeof data !== 'object') {
    return { ok: false, error: `${method}: Slack answered with no JSON`, retryable: true };
  }
  if (data.ok === true) return { ok: true, data };
  const error = typeof data.error === 'string' ? data.error : 'unknown_error';
  return { ok: false, error: `${method}: ${error}`, retryable: RETRYABLE_ERRORS.has(error) };
}

/** Only Slack's own hooks (or the configured API's host, for a stand-in) receive responses. */
export function isSlackResponseUrl(url: string, apiUrl: string): boolean {
  if (!URL.canParse(url)) return false;
  const target = new URL(url);
  if (target.protocol === 'https:' && target.hostname === 'hooks.slack.com') return true;
  return target.origin === new URL(apiUrl).origin;
}

/** A Web API client for the configured bot token; `enabled` is false without one. */
export function createSlackApi(config: SlackConfig): SlackApi {
  const token = config.botToken;
  return {
    enabled: token !== null,
    async call(method, body) {
      if (token === null) {
        return { ok: false, error: 'Slack is not configured (GATEHOUSE_SLACK_BOT_TOKEN)', retryable: false };
      }
      try {
        const response = await fetch(new URL(method, config.apiUrl), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        });
        return await resultOf(method, response);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, error: `${method}: ${message}`, retryable: true };
      }
    },
    async respond(responseUrl, body) {
      if (!isSlackResponseUrl(responseUrl, config.apiUrl)) return;
      await fetch(responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    },
  };
}

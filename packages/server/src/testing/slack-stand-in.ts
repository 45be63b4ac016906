import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { slackSignature } from '../services/slack/slack-signature.js';

/** One call Gatehouse made to the stand-in: a Web API method, or a post to a response_url. */
export interface SlackCall {
  method: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
  /** When it arrived (Date.now()). */
  at: number;
}

/** How the stand-in answers one call: Slack's JSON, or an HTTP status with headers. */
export type SlackReply =
  | { json: Record<string, unknown> }
  | { status: number; headers?: Record<string, string> };

/** A local stand-in for Slack's Web API on 127.0.0.1 that records every call. */
export interface SlackStandIn {
  /** Base URL for GATEHOUSE_SLACK_API_URL. */
  readonly apiUrl: string;
  /** A response_url the stand-in records posts to. */
  readonly responseUrl: string;
  readonly calls: readonly SlackCall[];
  callsOf(method: string): SlackCall[];
  /** Resolves once `count` calls of `method` arrived; rejects after `timeoutMs`. */
  waitFor(method: string, count: number, timeoutMs?: number): Promise<SlackCall[]>;
  /** The next call of `method` gets this answer instead of the default. */
  failNext(method: string, reply: SlackReply): void;
  close(): Promise<void>;
}

function defaultReply(method: string, body: Record<string, unknown>, seq: number): SlackReply {
  if (method === 'chat.postMessage') {
    return { json: { ok: true, channel: 'D0STANDIN', ts: `1700000000.${String(seq).padStart(6, '0')}` } };
  }
  if (method === 'chat.update') return { json: { ok: true, channel: body.channel, ts: body.ts } };
  return { json: { ok: true } };
}

export async function startSlackStandIn(): Promise<SlackStandIn> {
  const calls: SlackCall[] = [];
  const failures = new Map<string, SlackReply[]>();
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => {
      const method = (request.url ?? '').replace(/^\/api\//, '').replace(/^\//, '');
      const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      calls.push({ method, authorization: request.headers.authorization, body, at: Date.now() });
      for (const waiter of waiters) waiter();
      const reply = failures.get(method)?.shift() ?? defaultReply(method, body, calls.length);
      if ('json' in reply) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
      } else {
        response.writeHead(reply.status, reply.headers ?? {}).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const callsOf = (method: string) => calls.filter((call) => call.method === method);
  return {
    apiUrl: `${base}/api/`,
    responseUrl: `${base}/respond`,
    calls,
    callsOf,
    waitFor(method, count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (callsOf(method).length < count) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(callsOf(method));
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `Slack stand-in: ${callsOf(method).length} of ${count} ${method} calls after ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    failNext(method, reply) {
      failures.set(method, [...(failures.get(method) ?? []), reply]);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A form-encoded interaction as Slack sends it, signed with `secret` at `timestampSeconds`. */
export function signedInteraction(
  secret: string,
  payload: Record<string, unknown>,
  timestampSeconds: number,
): { body: string; headers: Record<string, string> } {
  return signedForm(
    secret,
    new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    timestampSeconds,
  );
}

/** Any form body, signed as Slack signs it: for bodies Slack itself would never send. */
export function signedForm(
  secret: string,
  body: string,
  timestampSeconds: number,
): { body: string; headers: Record<string, string> } {
  const timestamp = String(timestampSeconds);
  return {
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': slackSignature(secret, timestamp, body),
    },
  };
}

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { refusingUrl, startWebhookReceiver, type WebhookReceiver } from 'gatehouse-hitl-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliResult,
  runGatehouse,
  type ServeProcess,
  startServe,
  tempDir,
} from './testing/cli-process.js';

describe('gatehouse webhooks against a running server', () => {
  let server: ServeProcess;
  let temp: { dir: string; remove(): void };
  let env: Record<string, string>;
  let agentToken: string;
  let hook: WebhookReceiver;

  const gatehouse = (args: string[]): Promise<CliResult> => runGatehouse(args, { env });

  async function json<T>(args: string[]): Promise<T> {
    const result = await gatehouse([...args, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as T;
  }

  async function openGate(): Promise<void> {
    const response = await fetch(`${server.url}/v1/gates`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agentToken}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ tool: 'shell', args: { command: 'rm -rf build' } }),
    });
    expect(response.status).toBe(200);
  }

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (let i = 0; i < 150; i++) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('gave up waiting');
  }

  beforeAll(async () => {
    temp = tempDir();
    env = { XDG_CONFIG_HOME: join(temp.dir, 'config') };
    hook = await startWebhookReceiver();
    server = await startServe(join(temp.dir, 'data'), {
      env: {
        GATEHOUSE_WEBHOOK_POLL_MS: '50',
        GATEHOUSE_WEBHOOK_BACKOFF_MS: '20',
        GATEHOUSE_WEBHOOK_BACKOFF_MAX_MS: '50',
        GATEHOUSE_WEBHOOK_MAX_ATTEMPTS: '2',
      },
    });
    expect((await gatehouse(['login', '--link', server.loginLink as string])).code).toBe(0);
    agentToken = (await json<{ token: string }>(['agents', 'create', 'hook-bot'])).token;
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await hook?.close();
    temp?.remove();
  });

  it('creates a webhook and prints its secret once; list, show and update never print it again', async () => {
    const created = await gatehouse([
      'webhooks',
      'create',
      hook.url,
      '--event',
      'run.paused',
      '--description',
      'ops',
    ]);
    expect(created.code).toBe(0);
    const [, id, secret] = /^webhook (wh_\S+) → .*\nsecret: (whsec_\S+)\n$/.exec(created.stdout) ?? [];
    expect(secret).toBeDefined();
    expect(created.stderr).toContain('shown only once');

    const listed = await gatehouse(['webhooks', 'list']);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+yes\\s+run.paused`, 'm'));
    const shown = await gatehouse(['webhooks', 'show', id as string]);
    expect(shown.stdout).toContain('events:');
    expect(shown.stdout).toContain('no deliveries');
    const disabled = await gatehouse(['webhooks', 'update', id as string, '--disable']);
    expect(disabled.stdout).toMatch(/enabled:\s+no/);
    for (const output of [listed.stdout, shown.stdout, disabled.stdout]) expect(output).not.toContain(secret);

    const rotated = await json<{ secret: string }>(['webhooks', 'update', id as string, '--rotate-secret']);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    const deleted = await gatehouse(['webhooks', 'delete', id as string]);
    expect(deleted.stdout).toContain(`webhook ${id} deleted`);
    expect((await gatehouse(['webhooks', 'show', id as string])).stderr).toMatch(/^error NOT_FOUND: /);
  });

  it('shows deliveries and attempts, and redelivers a dead letter to a fixed URL', async () => {
    const { webhook } = await json<{ webhook: { id: string } }>([
      'webhooks',
      'create',
      await refusingUrl(),
      '--event',
      'gate.opened',
    ]);
    await openGate();
    const dead = await until(
      () =>
        json<{ items: { id: string; status: string; eventId: string }[] }>([
          'webhooks',
          'deliveries',
          webhook.id,
          '--status',
          'dead',
        ]),
      (page) => page.items.length === 1,
    );
    const deadId = dead.items[0]?.id as string;
    const table = await gatehouse(['webhooks', 'deliveries', webhook.id]);
    expect(table.stdout).toMatch(new RegExp(`^${deadId}\\s+gate.opened\\s+dead\\s+2\\s`, 'm'));
    const detail = await gatehouse(['webhooks', 'delivery', deadId]);
    expect(detail.stdout).toMatch(/status:\s+dead/);
    expect(detail.stdout).toMatch(/^1\s+\S+\s+-\s+\d+ ms\s+ECONNREFUSED/m);
    expect(detail.stdout).toMatch(/^2\s+/m);

    expect((await gatehouse(['webhooks', 'update', webhook.id, '--url', hook.url])).code).toBe(0);
    const again = await gatehouse(['webhooks', 'redeliver', deadId]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^gate.opened evt_\S+ queued again as whd_\S+\n$/);
    await hook.waitFor(1);
    expect(hook.received[0]?.headers['gatehouse-event-id']).toBe(dead.items[0]?.eventId);
    const succeeded = await until(
      () =>
        json<{ items: { status: string }[] }>([
          'webhooks',
          'deliveries',
          webhook.id,
          '--status',
          'succeeded',
        ]),
      (page) => page.items.length === 1,
    );
    expect(succeeded.items).toHaveLength(1);
  });

  it('refuses wrong usage before asking the server', async () => {
    const noEvent = await gatehouse(['webhooks', 'create', 'https://hooks.example.com/x']);
    expect(noEvent.code).toBe(2);
    expect(noEvent.stderr).toContain('needs at least one --event <type>');
    const noChange = await gatehouse(['webhooks', 'update', 'wh_x']);
    expect(noChange.code).toBe(2);
    const badStatus = await gatehouse(['webhooks', 'deliveries', 'wh_x', '--status', 'lost']);
    expect(badStatus.stderr).toContain('--status must be one of pending, succeeded, dead');
    const badUrl = await gatehouse(['webhooks', 'create', 'ftp://x', '--event', 'gate.opened']);
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toMatch(/^error VALIDATION_FAILED: url: must use http or https/);
  });
});

import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { decideTestGate, openTestGate, postGate, TEST_POLICY_YAML, useTestPolicy } from '../testing/gates.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const REDACT_POLICY = `${TEST_POLICY_YAML}redact:
  keys: ["customer_*", ssn]
  paths: [args.db.dsn, context.ticket.reporter]
`;

interface AuditItem {
  kind: string;
  subject: string | null;
  data: Record<string, unknown>;
}

describe.each(dialects)('what the audit trail records of a gate on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start(policy = TEST_POLICY_YAML) {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
    await useTestPolicy(test, policy);
  }

  function get(url: string, token = test.tokens.viewer) {
    return test.app.inject({ method: 'GET', url, headers: bearer(token) });
  }

  async function eventsOf(gateId: string): Promise<AuditItem[]> {
    const response = await get(`/v1/audit?subject=${gateId}`);
    expect(response.statusCode).toBe(200);
    return response.json().items as AuditItem[];
  }

  async function eventOf(gateId: string, kind: string): Promise<AuditItem> {
    const event = (await eventsOf(gateId)).find((item) => item.kind === kind);
    if (event === undefined) throw new Error(`no ${kind} event for ${gateId}`);
    return event;
  }

  /** Everything the API hands out of the trail: every page of the search, the export, and the chain check. */
  async function wholeTrail(): Promise<string> {
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await get(`/v1/audit?limit=200${query}`);
      pages.push(page.body);
      cursor = page.json().nextCursor;
    } while (cursor !== null);
    const exported = await get('/v1/audit/export', test.tokens.techLead);
    expect(exported.statusCode).toBe(200);
    return [...pages, exported.body].join('\n');
  }

  async function expectChainVerifies() {
    const verified = await get('/v1/audit/verify', test.tokens.techLead);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ ok: true });
  }

  it('records the tool, arguments, context and briefing the reviewer saw, with the api key redacted', async () => {
    await start();
    const gateId = await openTestGate(test, {
      tool: 'upload_file',
      args: { path: 'x', api_key: 'sk-live-123' },
      context: {
        reasoning: 'the build needs the artifact uploaded',
        request: 'curl -H "Authorization: Bearer abcdef0123456789" https://example.test',
      },
    });

    const opened = await eventOf(gateId, 'gate.opened');
    expect(opened.data).toMatchObject({
      tool: 'upload_file',
      operation: null,
      args: { path: 'x', api_key: '[redacted]' },
      context: { reasoning: 'the build needs the artifact uploaded' },
    });
    expect(opened.data.context).toMatchObject({
      request: 'curl -H "Authorization: Bearer [redacted]" https://example.test',
    });
    const briefing = opened.data.briefing as Record<string, unknown>;
    expect(briefing).toMatchObject({
      gateType: 'tool_call',
      proposedAction: { tool: 'upload_file', argsSummary: 'path=x, api_key=[redacted]' },
    });
    expect(briefing.summary).toEqual(expect.stringContaining('upload_file'));
    expect(briefing.details).toEqual(expect.stringContaining('api_key=[redacted]'));

    const trail = await wholeTrail();
    expect(trail).toContain(gateId);
    expect(trail).not.toContain('sk-live-123');
    expect(trail).not.toContain('abcdef0123456789');
    await expectChainVerifies();
  });

  it('redacts the key patterns and paths the policy names, besides the built-in ones', async () => {
    await start(REDACT_POLICY);
    const gateId = await openTestGate(test, {
      tool: 'migrate',
      args: {
        db: { dsn: 'postgres://app@db.internal/main', name: 'main' },
        customer_email: 'ana@example.test',
        SSN: '078-05-1120',
        password: 'hunter2hunter2',
      },
      context: { ticket: { reporter: 'jane.doe@example.test', id: 7 } },
    });

    const opened = await eventOf(gateId, 'gate.opened');
    expect(opened.data.args).toEqual({
      db: { dsn: '[redacted]', name: 'main' },
      customer_email: '[redacted]',
      SSN: '[redacted]',
      password: '[redacted]',
    });
    expect(opened.data.context).toEqual({ ticket: { reporter: '[redacted]', id: 7 } });
    const trail = await wholeTrail();
    for (const secret of [
      'postgres://app@db.internal/main',
      'ana@example.test',
      '078-05-1120',
      'hunter2hunter2',
      'jane.doe@example.test',
    ]) {
      expect(trail).not.toContain(secret);
    }
    await expectChainVerifies();
  });

  it('records the edited arguments of an approval with edits, redacted the same way', async () => {
    await start();
    const gateId = await openTestGate(test, {
      tool: 'upload_file',
      args: { path: 'x', api_key: 'sk-live-123' },
    });
    const decided = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'approve',
      editedArgs: { path: 'y', api_key: 'sk-live-456' },
    });
    expect(decided.statusCode).toBe(200);

    const decision = await eventOf(gateId, 'gate.decided');
    expect(decision.data).toMatchObject({
      edited: true,
      originalArgs: { path: 'x', api_key: '[redacted]' },
      editedArgs: { path: 'y', api_key: '[redacted]' },
    });
    const trail = await wholeTrail();
    expect(trail).not.toContain('sk-live-123');
    expect(trail).not.toContain('sk-live-456');
    await expectChainVerifies();
  });

  it.each([
    ['allowed', 'write_file', 'allowed-writes'],
    ['denied', 'drop_database', 'no-drop'],
  ])(
    'records the redacted arguments of a request the policy %s without a person',
    async (outcome, tool, ruleId) => {
      await start(REDACT_POLICY);
      const response = await postGate(test, {
        tool,
        args: { path: 'notes.txt', api_key: 'sk-live-789', customer_email: 'a@example.test' },
      });
      expect(response.json()).toMatchObject({ outcome });
      const trail = (await get('/v1/audit?limit=200')).json().items as AuditItem[];
      const event = trail.find((item) => item.kind === `request.${outcome}`);
      expect(event?.data).toMatchObject({ tool, ruleId, args: { path: 'notes.txt' } });
      expect(JSON.stringify(event?.data)).not.toContain('sk-live-789');
      expect(JSON.stringify(event?.data)).not.toContain('a@example.test');
      await expectChainVerifies();
    },
  );

  it('refuses a redact section with a path outside the arguments and context, naming it', async () => {
    await start();
    const response = await test.app.inject({
      method: 'PUT',
      url: '/v1/policy',
      headers: bearer(test.tokens.admin),
      payload: { source: `${TEST_POLICY_YAML}redact:\n  paths: [headers.cookie]\n`, format: 'yaml' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'POLICY_INVALID' });
    expect(response.json().error.message).toContain('redact.paths[0]');
  });
});

import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { postGate } from '../testing/gates.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

function policy(condition: string): string {
  return `name: regex
rules:
  - id: reads
    priority: 10
    match: { tools: [read_file] }
    action: allow
    reason: reads are safe
  - id: pattern
    priority: 20
    match: { tools: [shell] }
    condition: '${condition}'
    action: deny
    reason: matched the pattern
`;
}

describe.each(dialects)('regular expressions in policy conditions on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start() {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
  }

  function call(method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: unknown) {
    return test.app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  it.each([
    ['a backreference', '(a)\\\\1', 'backreference'],
    ['a lookahead', 'a(?=b)', 'lookaround'],
  ])('refuses to save a pattern with %s with a 400 naming the field', async (_name, pattern, reason) => {
    await start();
    const before = (await call('GET', '/v1/policy', test.tokens.admin)).json();
    for (const condition of [`args.command.matches("${pattern}")`, `matches(args.command, "${pattern}")`]) {
      const response = await call('PUT', '/v1/policy', test.tokens.admin, {
        source: policy(condition),
        format: 'yaml',
      });
      expect(response.statusCode).toBe(400);
      const error = response.json().error;
      expect(error.code).toBe('POLICY_INVALID');
      expect(error.message).toContain('rule "pattern" (rules[1].condition)');
      expect(error.message).toContain(reason);
      expect(error.details.errors).toEqual([
        expect.objectContaining({ ruleId: 'pattern', path: 'rules[1].condition' }),
      ]);
    }
    const after = (await call('GET', '/v1/policy', test.tokens.admin)).json();
    expect(after.version).toBe(before.version);
  });

  it('saves ^(a|aa)+$ and answers a request against 10 000 a and a ! at once', async () => {
    await start();
    const saved = await call('PUT', '/v1/policy', test.tokens.admin, {
      source: policy('args.command.matches("^(a|aa)+$")'),
      format: 'yaml',
    });
    expect(saved.statusCode).toBe(200);
    // The first request pays for route compilation; measure the policy, not that.
    await postGate(test, { tool: 'read_file', args: {} });
    for (const [command, outcome] of [
      [`${'a'.repeat(42)}!`, 'gated'],
      [`${'a'.repeat(10_000)}!`, 'gated'],
      ['a'.repeat(10_000), 'denied'],
    ] as const) {
      const started = performance.now();
      const response = await postGate(test, { tool: 'shell', args: { command } });
      // The whole request, gate and commit included; a backtracking engine took tens of seconds on 42 a.
      expect(performance.now() - started).toBeLessThan(1000);
      expect(response.json().outcome).toBe(outcome);
    }
    const dryRun = await call('POST', '/v1/policy/dry-run', test.tokens.developer, {
      request: { tool: 'shell', args: { command: `${'a'.repeat(42)}!` } },
    });
    expect(dryRun.json()).toMatchObject({ outcome: 'gated', ruleId: null });
  });
});

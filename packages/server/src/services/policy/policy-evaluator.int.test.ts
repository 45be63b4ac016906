import { compilePolicy, isGatehouseError, type PolicyRequest } from 'gatehouse-hitl-core';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createPolicyEvaluator, type PolicyEvaluator } from './policy-evaluator.js';

const log = pino({ level: 'silent' });

const policy = (condition: string) =>
  compilePolicy({
    name: 'pool',
    rules: [{ id: 'r', priority: 1, condition, action: 'deny', reason: 'test' }],
  }).policy;

const request = (args: Record<string, unknown>): PolicyRequest => ({
  event: 'tool_call',
  tool: 'shell',
  args,
  agent: { id: 'agent-1' },
});

// About a second of scanning per evaluation, within every static limit and the estimate.
const SLOW = policy('args.xs.exists(a, args.s.contains("ac"))');
const slowArgs = { xs: Array.from({ length: 2000 }, (_, i) => i), s: 'ab'.repeat(50_000) };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return isGatehouseError(error) ? error.code : String(error);
  }
}

describe('the policy evaluator pool', () => {
  let pool: PolicyEvaluator | null = null;
  afterEach(async () => {
    await pool?.close();
  });

  it('records the outcome of each condition it ran', async () => {
    pool = createPolicyEvaluator({ log });
    const outcomes = await pool.evaluate({ policy: policy('args.n > 1'), request: request({ n: 2 }) });
    expect(outcomes).toEqual([[0, { ok: true, value: true }]]);
    const failing = await pool.evaluate({ policy: policy('args.n > 1'), request: request({}) });
    expect(failing).toEqual([[0, { ok: false, message: expect.any(String) }]]);
  });

  it('refuses evaluations beyond its queue with SERVICE_UNAVAILABLE, and runs the rest', async () => {
    pool = createPolicyEvaluator({ log, concurrency: 1, maxQueued: 1, timeoutMs: 20_000 });
    const job = { policy: SLOW, request: request(slowArgs) };
    const results = await Promise.all([1, 2, 3].map(() => codeOf((pool as PolicyEvaluator).evaluate(job))));
    expect(results.sort()).toEqual(['SERVICE_UNAVAILABLE', 'resolved', 'resolved']);
  }, 60_000);

  it('replaces a worker stopped at the time limit', async () => {
    // A limit the next, trivial job meets even in a freshly started worker on a busy machine, and a
    // job many times slower than it.
    pool = createPolicyEvaluator({ log, concurrency: 1, timeoutMs: 2_000 });
    const slowerArgs = { ...slowArgs, xs: Array.from({ length: 100_000 }, (_, i) => i) };
    const stopped = pool.evaluate({ policy: SLOW, request: request(slowerArgs) });
    expect(await codeOf(stopped)).toBe('POLICY_BUDGET_EXCEEDED');
    const next = await pool.evaluate({ policy: policy('args.n > 1'), request: request({ n: 0 }) });
    expect(next).toEqual([[0, { ok: true, value: false }]]);
  }, 60_000);

  it('refuses new evaluations once closed', async () => {
    pool = createPolicyEvaluator({ log });
    await pool.close();
    const job = { policy: policy('true'), request: request({}) };
    expect(await codeOf(pool.evaluate(job))).toBe('SERVICE_UNAVAILABLE');
  });
});

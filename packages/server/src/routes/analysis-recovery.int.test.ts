import { sign } from 'node:crypto';
import { signedDecisionText } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_BEFORE, placeholderCart } from '../testing/analysis-changes.js';
import { decideTestGate } from '../testing/gates.js';
import { createRunViaApi } from '../testing/runs.js';
import { registerTestKey } from '../testing/signing-keys.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

/** `total` implemented again: the placeholder is gone. */
function fixedCart(): { path: string; before: string; after: string }[] {
  return [{ path: 'src/cart.ts', before: CART_BEFORE, after: `// fixed\n${CART_BEFORE}` }];
}

/** A Ruby file (no grammar: line rules at confidence 0.55) gaining a not-implemented raise. */
function rubyPlaceholder(): { path: string; before: string; after: string }[] {
  return [
    {
      path: 'lib/cart.rb',
      before: 'def total(prices)\n  prices.sum\nend\n',
      after: 'def total(prices)\n  raise NotImplementedError\nend\n',
    },
  ];
}

interface Recovery {
  key: string;
  status: string;
  attempts: number;
  gateId: string | null;
  escalatedBy: string[];
  history: { attempt: number }[];
}

describe.each(dialects)('recoveries and false positives on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function analyze(body: Record<string, unknown>, token = test.tokens.agent) {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: bearer(token),
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function recoveries(runId: string, token = test.tokens.agent): Promise<Recovery[]> {
    const response = await test.app.inject({
      method: 'GET',
      url: `/v1/runs/${runId}/recoveries`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().recoveries;
  }

  function report(body: Record<string, unknown>, token = test.tokens.developer) {
    return test.app.inject({
      method: 'POST',
      url: '/v1/analyze/findings/report',
      headers: bearer(token),
      payload: body,
    });
  }

  it('starts a recovery for a placeholder body and escalates when three analyses still find it', async () => {
    const run = await createRunViaApi(test);
    const first = await analyze({ runId: run.id, files: placeholderCart('one') });
    expect(first.verdict.laziness).toEqual(['lazy.placeholder_body|src/cart.ts|total']);
    expect(first.gates).toEqual([]);
    expect(await recoveries(run.id)).toEqual([
      expect.objectContaining({
        pattern: 'lazy.placeholder_body',
        status: 'recovering',
        attempts: 1,
        maxAttempts: 3,
      }),
    ]);
    expect((await analyze({ runId: run.id, files: placeholderCart('two') })).gates).toEqual([]);
    const third = await analyze({ runId: run.id, files: placeholderCart('three') });
    const [gate] = third.gates;
    expect(gate).toMatchObject({ type: 'recovery_escalation', runId: run.id, status: 'pending' });
    const [recovery] = await recoveries(run.id);
    expect(recovery).toMatchObject({
      status: 'escalated',
      attempts: 3,
      gateId: gate.id,
      escalatedBy: ['max_recovery_attempts'],
    });
    expect(recovery?.history.map((attempt) => attempt.attempt)).toEqual([1, 2, 3]);
    const stored = await test.store.read((tx) => tx.getGate(gate.id));
    expect(stored?.context).toMatchObject({
      findingKey: 'lazy.placeholder_body|src/cart.ts|total',
      pattern: 'lazy.placeholder_body',
      recoveryAttempts: 3,
      auditContext: { gate: 'recovery_escalation', pattern: 'lazy.placeholder_body', attempts: 3 },
    });
    // Still there while escalated: recorded, no second gate.
    expect((await analyze({ runId: run.id, files: placeholderCart('four') })).gates).toEqual([]);
  });

  it('escalates the same fix sent twice as a loop', async () => {
    const run = await createRunViaApi(test);
    await analyze({ runId: run.id, files: placeholderCart('same') });
    const again = await analyze({ runId: run.id, files: placeholderCart('same') });
    expect(again.gates).toEqual([expect.objectContaining({ type: 'recovery_escalation' })]);
    expect((await recoveries(run.id))[0]).toMatchObject({ attempts: 2, escalatedBy: ['infinite_loop'] });
  });

  it('marks the recovery resolved once a later analysis of the file no longer finds it', async () => {
    const run = await createRunViaApi(test);
    await analyze({ runId: run.id, files: placeholderCart('one') });
    const fixed = await analyze({ runId: run.id, files: fixedCart() });
    expect(fixed.verdict.laziness).toEqual([]);
    expect((await recoveries(run.id))[0]).toMatchObject({ status: 'resolved', attempts: 1 });
  });

  it('resets the finding’s attempts on a retry decision and audits the decision with its context', async () => {
    const run = await createRunViaApi(test);
    for (const note of ['a', 'b', 'c']) await analyze({ runId: run.id, files: placeholderCart(note) });
    const [escalated] = await recoveries(run.id);
    const gateId = escalated?.gateId as string;
    expect((await decideTestGate(test, test.tokens.agent, gateId, { option: 'retry' })).statusCode).toBe(403);
    const decided = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'retry',
      reason: 'try once more',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect((await recoveries(run.id))[0]).toMatchObject({ status: 'recovering', attempts: 0, gateId: null });
    const events = await test.services.audit.query({ kind: 'analysis.decided', subject: gateId });
    expect(events.items[0]?.data).toMatchObject({
      gate: 'recovery_escalation',
      trigger: ['max_recovery_attempts'],
      pattern: 'lazy.placeholder_body',
      attempts: 3,
      decision: 'retry',
      reason: 'try once more',
      timeSpentSeconds: expect.any(Number),
    });
    const next = await analyze({ runId: run.id, files: placeholderCart('d') });
    expect(next.gates).toEqual([]);
    expect((await recoveries(run.id))[0]).toMatchObject({ status: 'recovering', attempts: 1 });
  });

  it('opens one false_positive_override gate for a finding below confidence 0.7, and no recovery', async () => {
    const run = await createRunViaApi(test);
    const body = await analyze({ runId: run.id, files: rubyPlaceholder() });
    const [finding] = body.findings;
    expect(finding.confidence).toBeLessThan(0.7);
    expect(body.verdict.lowConfidence).toEqual([finding.key]);
    expect(body.gates).toEqual([expect.objectContaining({ type: 'false_positive_override' })]);
    const stored = await test.store.read((tx) => tx.getGate(body.gates[0].id));
    expect(stored?.context).toMatchObject({
      findingKey: finding.key,
      detectionConfidence: finding.confidence,
      falsePositiveReported: false,
      triggerRules: ['low_detection_confidence'],
    });
    expect(await recoveries(run.id)).toEqual([]);
    expect((await analyze({ runId: run.id, files: rubyPlaceholder() })).gates).toEqual([]);
  });

  it('opens false_positive_override on a person’s report, and Legitimate keeps the finding as a false positive', async () => {
    const run = await createRunViaApi(test);
    const finding = { pattern: 'lazy.error_swallowed', file: 'src/io.ts', line: 12 };
    expect((await report({ runId: run.id, finding, reason: 'x' }, test.tokens.agent)).statusCode).toBe(403);
    expect((await report({ runId: run.id, finding, reason: 'x' }, test.tokens.viewer)).statusCode).toBe(403);
    expect((await report({ runId: run.id, finding }, test.tokens.developer)).statusCode).toBe(400);
    const response = await report({ runId: run.id, finding, reason: 'the catch logs and rethrows' });
    expect(response.statusCode, response.body).toBe(201);
    const gate = response.json().gate;
    expect(gate).toMatchObject({ type: 'false_positive_override', runId: run.id, agentId: test.ids.agentId });
    const stored = await test.store.read((tx) => tx.getGate(gate.id));
    expect(stored?.context).toMatchObject({
      falsePositiveReported: true,
      report: 'the catch logs and rethrows',
      findingKey: 'lazy.error_swallowed|src/io.ts|12',
      triggerRules: ['false_positive_reported'],
    });
    // The run's agent cannot call its own finding legitimate.
    expect(
      (await decideTestGate(test, test.tokens.agent, gate.id, { option: 'legitimate' })).statusCode,
    ).toBe(403);
    const { privateKey } = await registerTestKey(test.app, test.tokens.techLead);
    const text = signedDecisionText({
      gateId: gate.id,
      option: 'legitimate',
      payloadHash: stored?.payloadHash ?? null,
    });
    const signature = sign(null, Buffer.from(text), privateKey).toString('base64');
    const decided = await decideTestGate(test, test.tokens.techLead, gate.id, {
      option: 'legitimate',
      signature,
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const confirmed = await test.store.read((tx) => tx.listFalsePositives({ runId: run.id }));
    expect(confirmed).toEqual([
      expect.objectContaining({
        pattern: 'lazy.error_swallowed',
        findingKey: 'lazy.error_swallowed|src/io.ts|12',
        gateId: gate.id,
      }),
    ]);
  });

  it('keeps a finding confirmed as a false positive out of the run’s recoveries', async () => {
    const run = await createRunViaApi(test);
    const finding = { pattern: 'lazy.placeholder_body', file: 'src/cart.ts', name: 'total' };
    const gate = (await report({ runId: run.id, finding, reason: 'a deliberate stub' })).json().gate;
    const { privateKey } = await registerTestKey(test.app, test.tokens.developer);
    const text = signedDecisionText({ gateId: gate.id, option: 'legitimate', payloadHash: null });
    const signature = sign(null, Buffer.from(text), privateKey).toString('base64');
    expect(
      (await decideTestGate(test, test.tokens.developer, gate.id, { option: 'legitimate', signature }))
        .statusCode,
    ).toBe(200);
    await analyze({ runId: run.id, files: placeholderCart('x') });
    expect(await recoveries(run.id)).toEqual([]);
  });

  it('shows a run’s recoveries to people and its agent, and hides them from other agents', async () => {
    const run = await createRunViaApi(test);
    await analyze({ runId: run.id, files: placeholderCart('seen') });
    expect(await recoveries(run.id, test.tokens.viewer)).toHaveLength(1);
    const other = await test.app.inject({
      method: 'GET',
      url: `/v1/runs/${run.id}/recoveries`,
      headers: bearer(test.tokens.otherAgent),
    });
    expect(other.statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInboxEvent } from '../services/streams/stream-service.js';
import { placeholderCart } from '../testing/analysis-changes.js';
import { createRunViaApi } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('what the run page and briefings read of an analysis on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function analyze(runId: string, note: string) {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: bearer(test.tokens.agent),
      payload: { runId, files: placeholderCart(note) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it('announces each analysis on the run’s stream with its findings, and audits them in full', async () => {
    const run = await createRunViaApi(test);
    const body = await analyze(run.id, 'first try');
    const finding = body.findings[0];
    const events = await test.store.listStreamEvents({ afterSeq: 0, runId: run.id });
    const recorded = events.filter((event) => event.type === 'analysis.recorded');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.data.findings).toEqual([
      expect.objectContaining({
        key: finding.key,
        pattern: finding.pattern,
        severity: finding.severity,
        file: 'src/cart.ts',
        message: finding.message,
      }),
    ]);
    const audit = await test.services.audit.query({ kind: 'analysis.recorded', subject: run.id });
    expect(audit.items[0]?.data.findingDetails).toEqual(recorded[0]?.data.findings);
  });

  it('shows the finding’s recovery attempts in the briefing of a false-positive report on it', async () => {
    const run = await createRunViaApi(test);
    const first = await analyze(run.id, 'first try');
    await analyze(run.id, 'second try');
    const finding = first.findings[0];
    const reported = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze/findings/report',
      headers: bearer(test.tokens.developer),
      payload: {
        runId: run.id,
        finding: { pattern: finding.pattern, file: finding.file, name: finding.name },
        reason: 'the placeholder is the spec for now',
      },
    });
    expect(reported.statusCode, reported.body).toBe(201);
    const view = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${reported.json().gate.id}`,
      headers: bearer(test.tokens.developer),
    });
    const briefing = view.json().briefing;
    expect(briefing.recoveryHistory).toEqual([
      expect.stringMatching(/^Attempt 1: /),
      expect.stringMatching(/^Attempt 2: /),
    ]);
    expect(briefing.sections.map((section: { title: string }) => section.title)).toContain(
      'Recovery History',
    );
  });
});

describe('the inbox stream', () => {
  it('carries a pattern’s false-positive-rate alert, which belongs to no run', () => {
    const event = {
      seq: 1,
      type: 'analysis.false_positive_rate' as const,
      runId: null,
      agentId: null,
      gateId: null,
      at: 0,
      data: { pattern: 'lazy.placeholder_body' },
    };
    expect(isInboxEvent(event)).toBe(true);
    expect(isInboxEvent({ ...event, type: 'analysis.recorded' })).toBe(false);
  });
});

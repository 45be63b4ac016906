import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunViaApi } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { decideSignedGate, postWhitelist } from '../testing/whitelists.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

function placeholder(note: string) {
  return [
    {
      path: 'src/cart.ts',
      before: 'export function total(): number {\n  return 1;\n}\n',
      after: `// ${note}\nexport function total(): number {\n  throw new Error('not implemented');\n}\n`,
    },
  ];
}

const ruby = [
  {
    path: 'lib/cart.rb',
    before: 'def total\n  1\nend\n',
    after: 'def total\n  raise NotImplementedError\nend\n',
  },
];

describe.each(dialects)('analysis metrics on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function analyze(runId: string, files: unknown) {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: bearer(test.tokens.agent),
      payload: { runId, files },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it('reports the analysis metrics of a known history in the summary and as Prometheus gauges', async () => {
    const run = await createRunViaApi(test);
    for (const note of ['a', 'b', 'c']) await analyze(run.id, placeholder(note));
    const low = await analyze(run.id, ruby);
    const [fpGate] = low.gates;
    await decideSignedGate(test, test.tokens.techLead, fpGate.id, { option: 'violation' });
    await postWhitelist(test, test.tokens.techLead, {
      pattern: 'lazy.test_commented_out',
      scope: 'global',
      justification: 'old specs stay commented out as examples',
    });

    const response = await test.app.inject({
      method: 'GET',
      url: '/v1/metrics/summary',
      headers: bearer(test.tokens.viewer),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { analysis } = response.json();
    expect(analysis).toMatchObject({
      escalationRate: 1,
      recoverySuccessRate: 0,
      averageAttemptsBeforeEscalation: 3,
      humanDecisionTime: { count: 1 },
      falsePositiveRate: 0,
      detectionPrecision: 1,
      whitelistGrowth: { active: 1, expired: 0, createdLast30Days: 1, rate: null },
      destructiveActionRate: 0,
      approvalRate: null,
      alternativeFoundRate: null,
    });
    expect(analysis.humanDecisionTime.averageSeconds).toBeGreaterThanOrEqual(0);

    const text = (await test.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toContain('gatehouse_analysis_escalation_rate 1');
    expect(text).toContain('gatehouse_analysis_average_attempts_before_escalation 3');
    expect(text).toContain('gatehouse_analysis_whitelist_active 1');
  });
});

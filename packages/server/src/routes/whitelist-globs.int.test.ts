import { sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { registerTestKey, type TestSigningKey } from '../testing/signing-keys.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { decisionTextFor, listWhitelists, openUnsureFinding, postWhitelist } from '../testing/whitelists.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const JUSTIFICATION = 'the legacy adapters keep placeholders on purpose';

describe.each(dialects)('whitelist globs too broad for a file entry on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let key: TestSigningKey;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
    key = await registerTestKey(test.app, test.tokens.techLead);
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const create = (path: string) =>
    postWhitelist(test, test.tokens.techLead, {
      pattern: 'lazy.placeholder_body',
      scope: 'file',
      path,
      justification: JUSTIFICATION,
    });

  it.each([
    ['**', 'matches every file'],
    ['**/*', 'matches every file'],
    ['/**', 'matches every file'],
    ['./**', 'matches every file'],
    ['*', 'names no folder and no file'],
    ['*/**', 'names no folder and no file'],
    ['**/*.ts', 'names no folder and no file'],
    ['**/*.*', 'names no folder and no file'],
    ['/src/legacy/**', 'without a leading / or ./'],
    ['', 'is empty'],
    ['  ', 'is empty'],
  ])('POST /v1/whitelists refuses the path %j with a 400 naming path', async (path, words) => {
    const before = (await listWhitelists(test)).length;
    const refused = await create(path);
    expect(refused.statusCode, refused.body).toBe(400);
    const { code, details } = refused.json().error;
    expect(code).toBe('VALIDATION_FAILED');
    expect(details.field ?? details.fields?.[0]?.field).toBe('path');
    expect(refused.json().error.message).toContain(words);
    expect(await listWhitelists(test)).toHaveLength(before);
  });

  it.each(['src/legacy/**', '**/*.gen.ts', '**/fixtures/**', 'lib/legacy/cart.rb'])(
    'POST /v1/whitelists accepts %s, which names a folder or a file',
    async (path) => {
      const created = await create(path);
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().whitelist).toMatchObject({ scope: 'file', path });
    },
  );

  it('refuses a Whitelist decision’s glob that matches the finding but names no folder or file', async () => {
    const { gateId } = await openUnsureFinding(test, `lib/glob-${dialect}`);
    const body = { option: 'whitelist', reason: JUSTIFICATION, whitelist: { path: '**/*.rb' } };
    const text = await decisionTextFor(test, gateId, body);
    const signature = sign(null, Buffer.from(text), key.privateKey).toString('base64');
    const refused = await decideTestGate(test, test.tokens.techLead, gateId, { ...body, signature });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.details.field).toBe('whitelist.path');
    expect(refused.json().error.message).toContain('names no folder and no file');
    expect((await test.store.read((tx) => tx.getGate(gateId)))?.status).toBe('pending');
  });

  it('refuses a reported finding whose pattern is no pattern id of the analysis, opening no gate', async () => {
    const report = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze/findings/report',
      headers: bearer(test.tokens.developer),
      payload: {
        finding: { pattern: 'lazy.made_up', file: 'src/io.ts', line: 3 },
        reason: 'the catch logs and rethrows',
      },
    });
    expect(report.statusCode, report.body).toBe(400);
    expect(report.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'finding.pattern' },
    });
    expect(report.json().error.message).toContain('unknown pattern id lazy.made_up');
    const gates = await test.store.read((tx) => tx.listGates({ type: 'false_positive_override' }));
    expect(gates.items.filter((gate) => gate.context.pattern === 'lazy.made_up')).toEqual([]);
  });
});

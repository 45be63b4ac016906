import { sign } from 'node:crypto';
import { createFakeClock, payloadText, signedDecisionText } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../auth/secrets.js';
import { decideTestGate, openTestGate, postGate, TEST_POLICY_YAML, useTestPolicy } from '../testing/gates.js';
import { registerTestKey } from '../testing/signing-keys.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const EDIT_POLICY = `${TEST_POLICY_YAML}  - id: no-force
    priority: 800
    match: { tools: [shell] }
    condition: 'args.command.contains("--force")'
    action: deny
    reason: Never force.
  - id: release-needs-admin
    priority: 700
    match: { tools: [shell] }
    condition: 'args.command.startsWith("make release")'
    action: { gate: { minRole: admin } }
    reason: a release needs an admin.
  - id: config-not-editable
    priority: 500
    match: { tools: [set_config] }
    action: { gate: { editable: false } }
    reason: Config changes are approved exactly as proposed.
`;

const hashOf = (tool: string, args: Record<string, unknown>) => sha256Hex(payloadText({ tool, args }));

describe.each(dialects)('edit, then approve on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start() {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
    await useTestPolicy(test, EDIT_POLICY);
  }

  const gateOf = (gateId: string) => test.store.read((tx) => tx.getGate(gateId));
  const auditOf = async (gateId: string) => (await test.services.audit.query({ subject: gateId })).items;

  function consume(gateId: string, payloadHash: string) {
    return test.app.inject({
      method: 'POST',
      url: `/v1/gates/${gateId}/consume`,
      headers: bearer(test.tokens.agent),
      payload: { payloadHash },
    });
  }

  async function expectUntouched(gateId: string) {
    expect((await gateOf(gateId))?.status).toBe('pending');
    expect((await auditOf(gateId)).map((event) => event.kind)).toEqual(['gate.opened']);
  }

  it('approves the edited action, binds the approval to its hash and audits both versions', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make test', cwd: 'app' } });
    expect((await gateOf(gateId))?.editable).toBe(true);
    const editedArgs = { command: 'make lint', cwd: 'app' };
    const response = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'approve',
      editedArgs,
    });
    expect(response.statusCode).toBe(200);
    const original = hashOf('shell', { command: 'make test', cwd: 'app' });
    const edited = hashOf('shell', editedArgs);
    expect(response.json()).toMatchObject({
      gate: { status: 'approved', payloadHash: original, action: { args: { command: 'make test' } } },
      decision: { option: 'approve', editedArgs, payloadHash: edited, originalPayloadHash: original },
    });
    expect((await consume(gateId, original)).json().error.code).toBe('PAYLOAD_MISMATCH');
    expect((await consume(gateId, edited)).json()).toMatchObject({ oneOff: true });
    const decided = (await auditOf(gateId)).find((event) => event.kind === 'gate.decided');
    expect(decided?.data).toMatchObject({
      edited: true,
      originalArgs: { command: 'make test', cwd: 'app' },
      editedArgs,
      payloadHash: original,
      approvedPayloadHash: edited,
    });
  });

  it('records an unchanged edit as a plain approval', async () => {
    await start();
    const args = { command: 'make test' };
    const gateId = await openTestGate(test, { tool: 'shell', args });
    const response = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'approve',
      editedArgs: args,
    });
    expect(response.json().decision).not.toHaveProperty('editedArgs');
    expect(response.json().decision.payloadHash).toBe(hashOf('shell', args));
  });

  it.each([
    ['the policy denies', { command: 'make test --force' }, /denies the edited action: Never force/],
    ['a stricter rule gates', { command: 'make release' }, /role admin/],
    ['the edit turns destructive', { command: 'rm -rf /srv/data' }, /falls under/],
  ])('refuses the edit with 409 when %s, and leaves the gate pending', async (_why, editedArgs, message) => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make test' } });
    const response = await decideTestGate(test, test.tokens.admin, gateId, { option: 'approve', editedArgs });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'EDIT_REFUSED', details: { field: 'editedArgs' } });
    expect(response.json().error.message).toMatch(message);
    await expectUntouched(gateId);
  });

  it.each([
    ['a gate needing two approvals', { tool: 'deploy', args: { env: 'prod' } }, 'approve', 'editedArgs'],
    ['a rule that forbids edits', { tool: 'set_config', args: { key: 'a' } }, 'approve', 'editedArgs'],
    ['any option but approve', { tool: 'shell', args: { command: 'ls' } }, 'reject', 'editedArgs'],
  ])('answers 400 naming editedArgs for %s', async (_why, body, option, field) => {
    await start();
    const gateId = await openTestGate(test, body);
    const response = await decideTestGate(test, test.tokens.admin, gateId, {
      option,
      editedArgs: { env: 'staging', key: 'b', command: 'pwd' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
    await expectUntouched(gateId);
  });

  it('refuses hidden characters in an edit, naming the argument', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'ls' } });
    const response = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'approve',
      editedArgs: { command: 'ls \u202e-la' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.field).toBe('editedArgs.command');
    await expectUntouched(gateId);
  });

  it('answers 400 for edited arguments that are not an object', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'ls' } });
    const response = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'approve',
      editedArgs: ['ls'],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/editedArgs/);
  });

  it('signs the edited payload hash on a signed gate', async () => {
    await start();
    const { privateKey } = await registerTestKey(test.app, test.tokens.developer);
    const gateId = await openTestGate(test, { tool: 'wire_money', args: { amount: 100 } });
    const editedArgs = { amount: 50 };
    const textFor = (payloadHash: string) => signedDecisionText({ gateId, option: 'approve', payloadHash });
    const signed = (text: string) => sign(null, Buffer.from(text), privateKey).toString('base64');
    const original = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'approve',
      editedArgs,
      signature: signed(textFor(hashOf('wire_money', { amount: 100 }))),
    });
    expect(original.json().error.code).toBe('SIGNATURE_INVALID');
    expect(original.json().error.details.signedText).toBe(textFor(hashOf('wire_money', editedArgs)));
    const good = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'approve',
      editedArgs,
      signature: signed(textFor(hashOf('wire_money', editedArgs))),
    });
    expect(good.statusCode).toBe(200);
    expect(good.json().decision).toMatchObject({ editedArgs, payloadHash: hashOf('wire_money', editedArgs) });
  });
});

describe.each(dialects)('question gates on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  const question = {
    operation: 'question',
    gateType: 'question',
    event: 'question',
    title: 'Which region should the bucket live in?',
    context: { question: 'Which region should the bucket live in?' },
  };

  it('opens a question even where the policy allows everything, and takes a text answer', async () => {
    test = await createTestApp({ dialect, clock: createFakeClock() });
    await useTestPolicy(
      test,
      'name: open\ndefaultAction: gate\nrules:\n  - { id: all, priority: 1, action: allow, reason: All fine. }\n',
    );
    const opened = await postGate(test, question);
    expect(opened.json()).toMatchObject({
      outcome: 'gated',
      gate: {
        type: 'question',
        editable: false,
        options: [{ id: 'answer', requires: ['answer'] }, { id: 'reject' }],
      },
    });
    const gateId = opened.json().gateId as string;
    const empty = await decideTestGate(test, test.tokens.developer, gateId, { option: 'answer' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details.field).toBe('answer');
    const stray = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'reject',
      answer: 'eu',
    });
    expect(stray.json().error.details.field).toBe('answer');
    const answered = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'answer',
      answer: 'eu-west-1, next to the database',
    });
    expect(answered.json()).toMatchObject({
      gate: { status: 'resolved' },
      decision: { option: 'answer', outcome: 'resolved', answer: 'eu-west-1, next to the database' },
    });
    const waited = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}/wait`,
      headers: bearer(test.tokens.agent),
    });
    expect(waited.json()).toMatchObject({
      outcome: 'answer',
      gate: { decision: { answer: 'eu-west-1, next to the database' } },
    });
    const audit = await test.services.audit.query({ subject: gateId, kind: 'gate.decided' });
    expect(audit.items[0]?.data).toMatchObject({ answer: 'eu-west-1, next to the database' });
  });

  it('refuses an answer longer than 10,000 characters, naming the field', async () => {
    test = await createTestApp({ dialect, clock: createFakeClock() });
    await useTestPolicy(test);
    const gateId = await openTestGate(test, question);
    const long = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'answer',
      answer: 'x'.repeat(10_001),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toMatch(/answer/);
  });
});

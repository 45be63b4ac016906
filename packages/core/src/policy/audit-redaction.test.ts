import { describe, expect, it } from 'vitest';
import { buildBriefing } from '../briefing/briefing.js';
import { GatehouseError } from '../errors.js';
import { createGateCatalog } from '../gates/catalog.js';
import { decisionKeys } from '../gates/decision-keys.js';
import { openGate } from '../gates/gate-open.js';
import type { Action } from '../schemas.js';
import { gateAuditView, REDACTED, redactForAudit } from './audit-redaction.js';
import { loadPolicy } from './policy-load.js';
import type { PolicyIssue, PolicyRedact } from './policy-schema.js';

const argsOf = (args: Record<string, unknown>, redact?: PolicyRedact) =>
  redactForAudit({ args }, redact).args as Record<string, unknown>;

const POLICY_HEAD = `name: p
rules: []
`;

function policyIssues(redactYaml: string): PolicyIssue[] {
  try {
    loadPolicy(`${POLICY_HEAD}${redactYaml}`);
  } catch (error) {
    if (!(error instanceof GatehouseError)) throw error;
    return error.details.issues as PolicyIssue[];
  }
  throw new Error('expected POLICY_INVALID');
}

describe('redactForAudit: built-in key names', () => {
  it.each([
    'password',
    'db_password',
    'passwordHash',
    'passwd',
    'passphrase',
    'pass',
    'client_secret',
    'SECRET_KEY',
    'token',
    'access_token',
    'githubToken',
    'Authorization',
    'proxy-authorization',
    'api_key',
    'apiKey',
    'X-API-KEY',
    'private_key',
    'aws_access_key_id',
    'credentials',
    'Cookie',
    'set-cookie',
    'jwt',
  ])('hides the value of %s', (key) => {
    expect(argsOf({ [key]: 'hunter22', path: 'x' })).toEqual({ [key]: REDACTED, path: 'x' });
  });

  it.each(['max_tokens', 'tokens', 'token_type', 'passport', 'compass', 'author', 'path', 'keys'])(
    'keeps the value of %s',
    (key) => {
      expect(argsOf({ [key]: 'hunter22' })).toEqual({ [key]: 'hunter22' });
    },
  );

  it('hides a whole object, list or number under a secret key, at any depth', () => {
    expect(
      argsOf({
        headers: { Authorization: 'Basic dXNlcjpwYXNz', accept: 'json' },
        credentials: { user: 'ana', key: 'k-1234' },
        tokens: [{ token: 'abcd1234' }],
        pin_secret: 4321,
      }),
    ).toEqual({
      headers: { Authorization: REDACTED, accept: 'json' },
      credentials: REDACTED,
      tokens: [{ token: REDACTED }],
      pin_secret: REDACTED,
    });
  });
});

describe('redactForAudit: the policy section', () => {
  it('matches a key pattern without * anywhere in the key, ignoring case and separators', () => {
    expect(argsOf({ customerSSN: '1', ssn_hash: '2', lesson: '3' }, { keys: ['SSN'] })).toEqual({
      customerSSN: REDACTED,
      ssn_hash: REDACTED,
      lesson: '3',
    });
  });

  it('matches a key pattern with * against the whole key', () => {
    const redact = { keys: ['card_*', '*_email'] };
    expect(
      argsOf({ card_number: '1', cardCvc: '2', discard_draft: '3', work_email: '4', email_to: '5' }, redact),
    ).toEqual({
      card_number: REDACTED,
      cardCvc: REDACTED,
      discard_draft: '3',
      work_email: REDACTED,
      email_to: '5',
    });
  });

  it('hides exactly the paths it names, * standing for any one key or list index', () => {
    const redact = { paths: ['args.db.dsn', 'args.items.*.card', 'context.ticket.reporter'] };
    const record = {
      args: {
        db: { dsn: 'postgres-main', name: 'main' },
        dsn: 'top-level',
        items: [{ card: 'c-1', sku: 's-1' }, { card: 'c-2' }],
      },
      context: { ticket: { reporter: 'ana', id: 7 }, db: { dsn: 'context-dsn' } },
    };
    expect(redactForAudit(record, redact)).toEqual({
      args: {
        db: { dsn: REDACTED, name: 'main' },
        dsn: 'top-level',
        items: [{ card: REDACTED, sku: 's-1' }, { card: REDACTED }],
      },
      context: { ticket: { reporter: REDACTED, id: 7 }, db: { dsn: 'context-dsn' } },
    });
  });

  it('reads each field against the root it is given', () => {
    const redact = { paths: ['args.token_id'] };
    const record = { originalArgs: { token_id: 'a-1' }, editedArgs: { token_id: 'b-2' }, note: 'n' };
    const roots = { originalArgs: 'args', editedArgs: 'args' } as const;
    expect(redactForAudit(record, redact, { roots })).toEqual({
      originalArgs: { token_id: REDACTED },
      editedArgs: { token_id: REDACTED },
      note: 'n',
    });
  });

  it('applies key patterns only inside agents data, not to the fields of the event', () => {
    expect(redactForAudit({ token: 'not agents data', args: { token: 'x' } }, undefined)).toEqual({
      token: 'not agents data',
      args: { token: REDACTED },
    });
  });
});

describe('redactForAudit: values that look like secrets', () => {
  const textOf = (text: string) => argsOf({ text }).text;

  it.each([
    ['curl -H "Authorization: Bearer abc.def-123" x', 'curl -H "Authorization: Bearer [redacted]" x'],
    ['Authorization: Basic dXNlcjpwYXNzd29yZA==', 'Authorization: Basic [redacted]'],
    ['use ghp_0123456789abcdefABCDEF0123 here', 'use [redacted] here'],
    ['key sk_live_0123456789abc', 'key [redacted]'],
    ['OPENAI=sk-proj-0123456789abcdefghij', 'OPENAI=[redacted]'],
    ['xoxb-1234567890-abcdefghij', '[redacted]'],
    ['aws AKIAIOSFODNN7EXAMPLE', 'aws [redacted]'],
    ['jwt eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl end', 'jwt [redacted] end'],
    [
      'git clone https://x-access-token:s3cret@github.com/o/r',
      'git clone https://x-access-token:[redacted]@github.com/o/r',
    ],
    ['postgres://app:pw@db/main', 'postgres://app:[redacted]@db/main'],
  ])('hides the secret in %j', (text, redacted) => {
    expect(textOf(text)).toBe(redacted);
  });

  it('hides the body of a private key, to its END line or to the end of the text', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n';
    expect(textOf(`key:\n${pem}done`)).toBe(
      `key:\n-----BEGIN RSA PRIVATE KEY-----${REDACTED}-----END RSA PRIVATE KEY-----\ndone`,
    );
    expect(textOf('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk')).toBe(
      `-----BEGIN OPENSSH PRIVATE KEY-----${REDACTED}`,
    );
  });

  it.each([
    'Basic configuration comes first',
    'the bearer of this note',
    '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0C\n-----END PUBLIC KEY-----',
    'https://example.test/path?q=1',
    'sk-short',
  ])('keeps %j', (text) => {
    expect(textOf(text)).toBe(text);
  });

  it('runs in linear time on text built to make a regular expression backtrack', () => {
    const started = performance.now();
    for (const unit of ['eyJ-', 'a.', 'Bearer ', 'x://a:', 'ghp_', '-----BEGIN ', 'sk-', 'a:b']) {
      textOf(unit.repeat(Math.ceil(200_000 / unit.length)));
    }
    // Quadratic work on 200 kB takes minutes; linear takes milliseconds.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('redactForAudit: hidden values elsewhere in the event', () => {
  it('cuts a hidden value out of every other string of the record', () => {
    const record = {
      args: { api_key: 'sk-live-123', note: 'called with sk-live-123 twice: sk-live-123' },
      title: 'upload api_key=sk-live-123',
    };
    expect(redactForAudit(record, undefined)).toEqual({
      args: { api_key: REDACTED, note: `called with ${REDACTED} twice: ${REDACTED}` },
      title: `upload api_key=${REDACTED}`,
    });
  });

  it('leaves other strings alone when the hidden value is shorter than 4 characters', () => {
    expect(redactForAudit({ args: { pin_secret: 'abc', note: 'abcdef' } }, undefined).args).toEqual({
      pin_secret: REDACTED,
      note: 'abcdef',
    });
  });

  it('keeps a record with nothing secret as it was', () => {
    const record = { args: { path: 'src/a.ts', n: 3, list: [true, null] }, context: { why: 'fix it' } };
    expect(redactForAudit(record, undefined)).toEqual(record);
  });
});

describe('gateAuditView', () => {
  const catalog = createGateCatalog();

  function gate(input: {
    title?: string;
    args?: Record<string, unknown>;
    context?: Record<string, unknown>;
  }) {
    return openGate(
      {
        type: 'tool_call',
        title: input.title ?? 'upload_file',
        action: { tool: 'upload_file', args: input.args ?? {} },
        context: input.context ?? {},
        agentId: 'agent_1',
      },
      { now: 0, id: 'gate_1', catalog },
    );
  }

  it('records the tool, arguments, context and a briefing built from the redacted gate', () => {
    const view = gateAuditView(
      gate({ args: { path: 'x', api_key: 'sk-live-123' }, context: { reasoning: 'ship it' } }),
      undefined,
    );
    expect(view).toMatchObject({
      tool: 'upload_file',
      operation: null,
      args: { path: 'x', api_key: REDACTED },
      context: { reasoning: 'ship it' },
      briefing: {
        gateType: 'tool_call',
        agent: 'agent_1',
        proposedAction: { tool: 'upload_file', argsSummary: `path=x, api_key=${REDACTED}` },
        options: ['approve', 'approve_always', 'reject', 'steer'],
      },
    });
    expect(view.briefing).not.toHaveProperty('sections');
    expect(JSON.stringify(view)).not.toContain('sk-live-123');
  });

  it("lists the options the reviewer was offered, though redaction hid what the action's safety was read from", () => {
    const opened = openGate(
      {
        type: 'tool_call',
        title: 'write_file .env',
        action: { tool: 'write_file', args: { path: '.env', content: 'DEBUG=1' } },
        context: {},
        agentId: 'agent_1',
      },
      { now: 0, id: 'gate_2', catalog },
    );
    const offered = decisionKeys(opened).map(({ option }) => option.id);
    expect(offered).not.toContain('approve_always');
    const view = gateAuditView(opened, { paths: ['args.path'] });
    expect(view.args).toMatchObject({ path: REDACTED });
    expect(view.briefing.options).toEqual(offered);
  });

  it('makes a title that was made from the action again from the redacted action', () => {
    const long = 'y'.repeat(170);
    const titleOf = (action: Action) =>
      `${action.tool} content=${action.args.content} token=${action.args.token}`.slice(0, 200);
    const opened = gate({
      title: `upload_file content=${long} token=sk-live-123456`.slice(0, 200),
      args: { content: long, token: 'sk-live-123456' },
    });
    const view = gateAuditView(opened, undefined, { titleOf });
    expect(opened.title).toContain('token=sk-');
    expect(view.title).toBe(titleOf({ tool: 'upload_file', args: { content: long, token: REDACTED } }));
    expect(view.title).not.toContain('sk-');
  });

  it('builds the same briefing from long arguments as the reviewer was shown', () => {
    const long = gate({
      args: {
        command: `echo ${'a'.repeat(30_000)}`,
        content: 'line\n'.repeat(10_000),
        note: `é${'b'.repeat(30_000)}`,
      },
      context: { plan: 'step\n'.repeat(10_000) },
    });
    const { sections: _sections, options, ...shown } = buildBriefing(long);
    expect(gateAuditView(long, undefined).briefing).toEqual({ ...shown, options: options.map((o) => o.id) });
  });

  it('hides secret-looking values in the fields the caller adds', () => {
    const view = gateAuditView(gate({}), undefined, { extra: { reason: 'ran Bearer abc.def-123' } });
    expect(view.extra).toEqual({ reason: `ran Bearer ${REDACTED}` });
  });
});

describe('the redact section of a policy', () => {
  it('loads keys and paths', () => {
    const compiled = loadPolicy(`${POLICY_HEAD}redact:\n  keys: [ssn, "card_*"]\n  paths: [args.db.dsn]\n`);
    expect(compiled.policy.redact).toEqual({ keys: ['ssn', 'card_*'], paths: ['args.db.dsn'] });
  });

  it.each([
    ['redact:\n  paths: [headers.cookie]\n', 'redact.paths[0]', 'starts with args. or context.'],
    ['redact:\n  paths: ["args..x"]\n', 'redact.paths[0]', 'starts with args. or context.'],
    ['redact:\n  keys: ["*"]\n', 'redact.keys[0]', 'needs a letter or digit'],
    ['redact:\n  keys: [""]\n', 'redact.keys[0]', 'must not be empty'],
    ['redact:\n  values: [x]\n', 'redact', 'values'],
    ['redact: [ssn]\n', 'redact', 'redact is an object'],
  ])('refuses %j, naming %s', (yaml, path, message) => {
    const [issue] = policyIssues(yaml);
    expect(issue?.path).toBe(path);
    expect(issue?.message).toContain(message);
  });
});

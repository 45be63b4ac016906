import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGateCatalog } from '../gates/catalog.js';
import { openGate } from '../gates/gate-open.js';
import { gateAuditView, REDACTED, redactForAudit } from './audit-redaction.js';
import type { PolicyRedact } from './policy-schema.js';

const catalog = createGateCatalog();

const REDACT: PolicyRedact = { keys: ['customer_*'], paths: ['args.db.dsn', 'context.ticket.*'] };

const plainKey = fc.constantFrom('path', 'command', 'note', 'items', 'cwd', 'max_tokens', 'passport', 'db');
const secretKey = fc.constantFrom(
  'password',
  'api_key',
  'apiKey',
  'X-Api-Key',
  'client_secret',
  'access_token',
  'Authorization',
  'cookie',
  'pass',
  'jwt',
  'customer_email',
);

// A letter other than e keeps a secret from being read inside a number such as 1e+21.
const anySecret = fc
  .string({ minLength: 4, maxLength: 24 })
  .filter((s) => /[a-df-zA-DF-Z]/.test(s) && !REDACTED.includes(s));

// Letters and digits after a prefix no key, number or marker holds: the JSON text can be searched.
const distinctSecret = fc.stringMatching(/^[A-Za-z0-9]{4,20}$/).map((s) => `Q9${s}`);

type Json = Record<string, unknown>;

/** Where a secret is put: under a secret key (or a policy path) below `path`, as a string, in an object or in a list. */
const placementArb = (secret: fc.Arbitrary<string>) =>
  fc.record({
    root: fc.constantFrom('args', 'context'),
    path: fc.array(plainKey, { maxLength: 3 }),
    key: fc.oneof(secretKey, fc.constant('<policy path>')),
    shape: fc.constantFrom('plain', 'object', 'list'),
    secret,
  });
interface Placement {
  root: string;
  path: string[];
  key: string;
  shape: string;
  secret: string;
}

/** Other strings of the event that quote a secret. */
const mentionArb = fc.record({
  where: fc.constantFrom('title', 'operation', 'note', 'reason'),
  before: fc.string({ maxLength: 8 }),
  after: fc.string({ maxLength: 8 }),
  which: fc.nat(),
});

function objectAt(root: Json, path: readonly string[]): Json {
  let node = root;
  for (const key of path) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Json;
  }
  return node;
}

function place(records: { args: Json; context: Json }, placement: Placement): void {
  const value =
    placement.shape === 'plain'
      ? placement.secret
      : placement.shape === 'object'
        ? { inner: placement.secret }
        : ['x', placement.secret];
  if (placement.key !== '<policy path>') {
    objectAt(placement.root === 'args' ? records.args : records.context, placement.path)[placement.key] =
      value;
  } else if (placement.root === 'args') {
    objectAt(records.args, ['db']).dsn = value;
  } else {
    objectAt(records.context, ['ticket'])[placement.path[0] ?? 'reporter'] = value;
  }
}

/** Every string and number of a value, as text: what "appears in the event" means for values. */
function valuesOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) valuesOf(item, out);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) valuesOf(item, out);
  return out;
}

const scenarioArb = (secret: fc.Arbitrary<string>) =>
  fc.record({
    args: fc.dictionary(plainKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    context: fc.dictionary(plainKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    placements: fc.array(placementArb(secret), { minLength: 1, maxLength: 4 }),
    mentions: fc.array(mentionArb, { maxLength: 4 }),
  });

type Scenario = {
  args: Json;
  context: Json;
  placements: Placement[];
  mentions: { where: string; before: string; after: string; which: number }[];
};

function build(scenario: Scenario) {
  const records = {
    args: structuredClone(scenario.args) as Json,
    context: structuredClone(scenario.context) as Json,
  };
  for (const placement of scenario.placements) place(records, placement);
  const quoted: Record<string, string> = { title: 'upload', operation: 'run it', note: 'n', reason: 'r' };
  for (const mention of scenario.mentions) {
    const secret = scenario.placements[mention.which % scenario.placements.length]?.secret ?? '';
    quoted[mention.where] = `${quoted[mention.where]} ${mention.before}${secret}${mention.after}`;
  }
  records.context.remark = quoted.note;
  const gate = openGate(
    {
      type: 'operation',
      title: quoted.title,
      action: { operation: quoted.operation, args: records.args },
      context: records.context,
      agentId: 'agent_1',
    },
    { now: 0, id: 'gate_1', catalog },
  );
  // A later placement may overwrite an earlier one; only the secrets the agent's data still holds count.
  const held = new Set(valuesOf(records));
  const secrets = scenario.placements.map((p) => p.secret).filter((secret) => held.has(secret));
  return { gate, records, reason: quoted.reason as string, secrets };
}

describe('audit redaction properties', () => {
  it('a value under a redacted key or path appears in no value of the recorded event', () => {
    fc.assert(
      fc.property(scenarioArb(anySecret), (scenario) => {
        const { gate, records, reason, secrets } = build(scenario as Scenario);
        const view = gateAuditView(gate, REDACT, { extra: { reason } });
        const record = redactForAudit({ ...records, reason }, REDACT);
        for (const value of [...valuesOf(view), ...valuesOf(record)]) {
          for (const secret of secrets) expect(value).not.toContain(secret);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a value under a redacted key or path appears nowhere in the event text', () => {
    fc.assert(
      fc.property(scenarioArb(distinctSecret), (scenario) => {
        const { gate, reason, secrets } = build(scenario as Scenario);
        const text = JSON.stringify(gateAuditView(gate, REDACT, { extra: { reason } }));
        for (const secret of secrets) expect(text).not.toContain(secret);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a record of plain words under plain keys as it was', () => {
    const word = fc.stringMatching(/^[a-z ]{0,12}$/);
    const plain = fc.dictionary(
      plainKey,
      fc.oneof(word, fc.integer(), fc.boolean(), fc.array(word, { maxLength: 3 })),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(plain, plain, (args, context) => {
        expect(redactForAudit({ args, context }, undefined)).toEqual({ args, context });
      }),
    );
  });

  it('redacting a redacted record changes nothing', () => {
    fc.assert(
      fc.property(scenarioArb(anySecret), (scenario) => {
        const { records } = build(scenario as Scenario);
        const once = redactForAudit(records, REDACT);
        expect(redactForAudit(once, REDACT)).toEqual(once);
      }),
      { numRuns: 200 },
    );
  });
});

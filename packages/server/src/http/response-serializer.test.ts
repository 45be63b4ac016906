import { ResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod';
import { gateDocumentSchema as gateWireSchema, interventionNoticeSchema } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isPlainSchema, plainResponseSerializer } from './response-serializer.js';

const answerSchema = z.object({
  outcome: z.enum(['allowed', 'denied', 'gated']),
  gate: gateWireSchema.nullable(),
  reason: z.string(),
  interventions: z.array(interventionNoticeSchema),
});

const gate = {
  id: 'gate_1',
  type: 'tool_call',
  status: 'pending',
  threshold: 'mandatory',
  risk: 'medium',
  runId: null,
  agentId: 'agent_alpha',
  title: 'write_file path=a.ts',
  action: { tool: 'write_file', args: { path: 'a.ts', nested: { b: [1, 'x', null] } } },
  payloadHash: 'f'.repeat(64),
  context: { why: 'because', extra: { deep: true } },
  artifacts: ['a.ts'],
  options: [
    {
      id: 'approve',
      label: 'Approve',
      key: 'a',
      description: 'Run it',
      ends: true,
      outcome: 'approved',
      requires: [],
    },
  ],
  confidence: null,
  createdAt: 1,
  timeoutAt: null,
  timeoutAction: 'deny',
  escalationChain: [],
  minRole: 'developer',
  requiredApprovals: 1,
  approvals: [{ by: 'user_dev', at: 2 }],
  separationOfDuties: true,
  requestedBy: 'agent:agent_alpha',
  assignees: [],
  signatureRequired: false,
  steerable: true,
  editable: false,
  policyRuleId: null,
  decision: null,
};

function route(schema: unknown) {
  return { schema, method: 'POST', url: '/v1/gates', httpStatus: '200' } as never;
}

describe('plain response serializer', () => {
  it.each([
    ['an allowed answer', { outcome: 'allowed', gate: null, reason: 'reads are fine', interventions: [] }],
    ['a gated answer', { outcome: 'gated', gate, reason: 'writes need a person', interventions: [] }],
    [
      'a reply with keys the schema does not know',
      {
        outcome: 'gated',
        gate: { ...gate, version: 3, secret: 'x' },
        reason: 'r',
        interventions: [],
        extra: 1,
      },
    ],
  ])('writes %s exactly as the default serializer does', (_name, reply) => {
    const expected = serializerCompiler(route(answerSchema))(reply);
    expect(plainResponseSerializer(route(answerSchema))(reply)).toBe(expected);
    expect(expected).not.toContain('secret');
  });

  it('refuses a reply that does not match its schema', () => {
    const serialize = plainResponseSerializer(route(answerSchema));
    expect(() => serialize({ outcome: 'maybe', gate: null, reason: 'r', interventions: [] })).toThrow(
      ResponseSerializationError,
    );
  });

  it('leaves schemas with transforms or defaults to the default serializer', () => {
    expect(isPlainSchema(answerSchema)).toBe(true);
    const withDefault = z.object({ limit: z.number().default(5) });
    const withTransform = z.object({ on: z.string().transform((value) => value === 'true') });
    expect(isPlainSchema(withDefault)).toBe(false);
    expect(isPlainSchema(withTransform)).toBe(false);
    // Encoding does not fill defaults, parsing would: the default serializer's answer is kept.
    expect(() => plainResponseSerializer(route(withDefault))({})).toThrow(ResponseSerializationError);
  });
});

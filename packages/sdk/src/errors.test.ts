import { decodeWireError } from 'gatehouse-hitl-protocol/rules';
import { describe, expect, it } from 'vitest';
import {
  ApprovalDenied,
  ApprovalNotGranted,
  ApprovalSteered,
  ApprovalTimedOut,
  approvalErrorFor,
  GatehouseApiError,
  isGatehouseApiError,
} from './errors.js';
import type { GateResult } from './types.js';

const result = (outcome: string, extra: Partial<GateResult> = {}): GateResult => ({
  outcome,
  option: null,
  reason: null,
  instructions: null,
  feedback: null,
  affectedArtifacts: [],
  gateId: 'gate_1',
  ruleId: null,
  decidedBy: 'user_dev',
  payloadHash: null,
  oneOff: false,
  args: null,
  edited: false,
  answer: null,
  delegateTo: null,
  newLimit: null,
  interventions: [],
  gate: null,
  ...extra,
});

describe('GatehouseApiError', () => {
  it('is the protocol error every client decodes, so instanceof holds for all of them', () => {
    const error = decodeWireError(409, '{"error":{"code":"GATE_EXPIRED","message":"gate gate_1 expired"}}');
    expect(error).toBeInstanceOf(GatehouseApiError);
    expect(error).toMatchObject({ code: 'GATE_EXPIRED', status: 409, message: 'gate gate_1 expired' });
    expect(isGatehouseApiError(error, 'GATE_EXPIRED')).toBe(true);
    expect(isGatehouseApiError(error, 'CONFLICT')).toBe(false);
  });
});

describe('approvalErrorFor', () => {
  it.each([
    ['denied', ApprovalDenied],
    ['steered', ApprovalSteered],
    ['timed_out', ApprovalTimedOut],
    ['cancelled', ApprovalNotGranted],
    ['abort', ApprovalNotGranted],
  ])('throws the typed error for %s', (outcome, type) => {
    const error = approvalErrorFor(result(outcome));
    expect(error).toBeInstanceOf(type);
    expect(error.outcome).toBe(outcome);
  });

  it('carries the reason of a denial and the instructions of a steer', () => {
    expect((approvalErrorFor(result('denied', { reason: 'too risky' })) as ApprovalDenied).reason).toBe(
      'too risky',
    );
    const steer = approvalErrorFor(
      result('steered', { instructions: 'delete only build/cache' }),
    ) as ApprovalSteered;
    expect(steer.instructions).toBe('delete only build/cache');
  });
});

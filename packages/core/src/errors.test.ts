import { describe, expect, it } from 'vitest';
import { ERROR_CODES, GatehouseError, HTTP_STATUS } from './errors.js';

describe('GatehouseError', () => {
  it('serialises to the wire shape with code, message and details', () => {
    const error = new GatehouseError('GATE_EXPIRED', 'gate g1 expired at 10:00', { gateId: 'g1' });
    expect(error.toJSON()).toEqual({
      error: { code: 'GATE_EXPIRED', message: 'gate g1 expired at 10:00', details: { gateId: 'g1' } },
    });
    expect(error.status).toBe(409);
  });

  it('maps every code to a 4xx or 5xx status', () => {
    for (const code of ERROR_CODES) {
      expect(HTTP_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(HTTP_STATUS[code]).toBeLessThan(600);
    }
  });
});

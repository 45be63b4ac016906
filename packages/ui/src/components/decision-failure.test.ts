import { GatehouseApiError } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { decisionFailureText } from './decision-failure.js';

describe('decisionFailureText', () => {
  it('says a decision that never reached the server was not recorded and the text is kept', () => {
    const text = decisionFailureText(new TypeError('Failed to fetch'));
    expect(text).toMatch(/^Your decision was not recorded/);
    expect(text).toContain('What you typed is kept');
  });

  it('says so for a server that answered 503', () => {
    const error = new GatehouseApiError('SERVICE_UNAVAILABLE', 'database unavailable', { status: 503 });
    expect(decisionFailureText(error)).toMatch(/^Your decision was not recorded/);
  });

  it('passes a refusal the server gave through as it is', () => {
    const error = new GatehouseApiError('FORBIDDEN', 'needs tech lead', { status: 403 });
    expect(decisionFailureText(error)).toBe('needs tech lead');
  });
});

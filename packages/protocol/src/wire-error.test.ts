import { describe, expect, it } from 'vitest';
import { decodeWireError, errorFromResponse, GatehouseApiError, isGatehouseApiError } from './wire-error.js';

const wire = (error: unknown) => JSON.stringify({ error });

describe('decodeWireError', () => {
  it('rebuilds the wire error with its status, code, message, details and field', () => {
    const error = decodeWireError(
      400,
      wire({ code: 'VALIDATION_FAILED', message: 'reason is required', details: { field: 'reason' } }),
    );
    expect(error).toBeInstanceOf(GatehouseApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'reason is required',
      details: { field: 'reason' },
      field: 'reason',
      retryAfterMs: null,
    });
    expect(isGatehouseApiError(error, 'VALIDATION_FAILED')).toBe(true);
    expect(isGatehouseApiError(error, 'NOT_FOUND')).toBe(false);
  });

  it('reads Retry-After in seconds, as an HTTP date, or from the details', () => {
    const limited = wire({ code: 'RATE_LIMITED', message: 'slow down', details: { retryAfterSeconds: 7 } });
    expect(decodeWireError(429, limited, { retryAfter: '2' }).retryAfterMs).toBe(2000);
    const now = Date.UTC(2026, 0, 1);
    const date = new Date(now + 5000).toUTCString();
    expect(decodeWireError(429, limited, { retryAfter: date, now }).retryAfterMs).toBe(5000);
    expect(decodeWireError(429, limited).retryAfterMs).toBe(7000);
  });

  it.each([
    ['an empty body', 502, '', 'INTERNAL'],
    ['a proxy page', 502, '<html><body>Bad Gateway</body></html>', 'INTERNAL'],
    ['JSON without the wire shape', 404, '{"message":"nope"}', 'HTTP_404'],
    ['an error without a code', 400, wire({ message: 'x' }), 'HTTP_400'],
    ['a restarting server', 503, '', 'SERVICE_UNAVAILABLE'],
    ['a rate limit without a body', 429, '', 'RATE_LIMITED'],
  ])('falls back on %s to a code from the status and a message naming it', (_name, status, body, code) => {
    const error = decodeWireError(status, body, { statusText: 'Status Text' });
    expect(error).toMatchObject({ status, code, details: {} });
    expect(error.message).toContain(`HTTP ${status} Status Text`);
  });

  it('keeps the start of a body that is not the wire shape, on one line', () => {
    const error = decodeWireError(502, '<h1>Bad\n  Gateway</h1>');
    expect(error.message).toBe(
      'the server answered HTTP 502 without a Gatehouse error body: <h1>Bad Gateway</h1>',
    );
  });

  it('uses the code as the message when the server sent none', () => {
    expect(decodeWireError(409, wire({ code: 'CONFLICT' })).message).toBe('CONFLICT');
  });
});

describe('errorFromResponse', () => {
  it('reads the body, the status line and Retry-After of a fetch Response', async () => {
    const response = new Response(wire({ code: 'RATE_LIMITED', message: 'too many requests' }), {
      status: 429,
      headers: { 'retry-after': '3' },
    });
    expect(await errorFromResponse(response)).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'too many requests',
      retryAfterMs: 3000,
    });
  });
});

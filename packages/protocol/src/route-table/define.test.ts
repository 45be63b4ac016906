import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call } from './call.js';
import { defineRoute, fillPath, queryString, routeRequest } from './define.js';

const decide = defineRoute({
  method: 'POST',
  path: '/v1/gates/:id/decide',
  tags: ['gates'],
  params: z.object({ id: z.string() }),
  query: z.object({ wait: z.number().optional() }),
  body: z.object({ option: z.string() }),
  response: { 200: z.object({ ok: z.boolean() }) },
});

describe('route requests', () => {
  it('fills path parameters, encoded', () => {
    expect(fillPath('/v1/gates/:id/decide', { id: 'g 1/2' })).toBe('/v1/gates/g%201%2F2/decide');
  });

  it('refuses a missing path parameter instead of sending "undefined"', () => {
    expect(() => fillPath('/v1/gates/:id', {})).toThrow('missing path parameter "id"');
    expect(() => fillPath('/v1/gates/:id', { id: '' })).toThrow('"id"');
  });

  it('leaves undefined, null and empty query values out and repeats arrays', () => {
    expect(queryString({ a: 1, b: undefined, c: null, d: '', e: ['x', 'y'] })).toBe('?a=1&e=x&e=y');
    expect(queryString({})).toBe('');
  });

  it('builds method, path, query and body from a route and its input', () => {
    expect(
      routeRequest(decide, { params: { id: 'g1' }, query: { wait: 5 }, body: { option: 'approve' } }),
    ).toEqual({
      method: 'POST',
      path: '/v1/gates/g1/decide?wait=5',
      body: { option: 'approve' },
    });
  });

  it('hands the built request to the transport and returns its answer', async () => {
    const seen: unknown[] = [];
    const result = await call(
      async (request) => {
        seen.push(request);
        return { ok: true };
      },
      decide,
      { params: { id: 'g2' }, body: { option: 'reject' } },
    );
    expect(result.ok).toBe(true);
    expect(seen).toEqual([{ method: 'POST', path: '/v1/gates/g2/decide', body: { option: 'reject' } }]);
  });
});

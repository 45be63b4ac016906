import type { FastifyInstance } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';

/** Routes whose body opens a gate with `args` and `context`. */
const GATE_OPENING_ROUTES: ReadonlySet<string> = new Set(['POST /v1/gates']);

/**
 * Bytes of `value` as JSON. A parsed body is plain JSON, whose canonical text (what is hashed and
 * stored) has the same members in another order: the same length, without sorting every object.
 */
function jsonBytes(value: unknown): number {
  if (value === undefined) return 0;
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * Refuses a gate request whose `args` and `context` together are over `limit` bytes of canonical
 * JSON (what is hashed, stored and shown) with PAYLOAD_TOO_LARGE naming the field.
 */
export function assertGateArgsSize(body: unknown, limit: number): void {
  if (body === null || typeof body !== 'object') return;
  const { args, context } = body as { args?: unknown; context?: unknown };
  const argsBytes = jsonBytes(args);
  const size = argsBytes + jsonBytes(context);
  if (size <= limit) return;
  const field = argsBytes > limit || context === undefined ? 'args' : 'args+context';
  throw new GatehouseError(
    'PAYLOAD_TOO_LARGE',
    `${field}: ${size} bytes of canonical JSON is over the ${limit}-byte limit for a gate; pass large content as artifacts`,
    { field, limit, size },
  );
}

/** Checks the gate argument cap once the body is parsed, before validation and any service work. */
export function registerGateArgsLimit(app: FastifyInstance, limit: number): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (GATE_OPENING_ROUTES.has(`${request.method} ${request.routeOptions.url}`))
      assertGateArgsSize(request.body, limit);
    done();
  });
}

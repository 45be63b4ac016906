import type { FastifyInstance } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/**
 * The deepest nesting of arrays and objects in JSON text, read without parsing it (brackets inside
 * strings do not count); stops counting once past `stopAbove`.
 */
export function jsonDepth(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > stopAbove) return deepest;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Parses JSON bodies as Fastify does (prototype poisoning refused), but first refuses nesting past
 * `depthLimit`, so no later recursion over the body can run out of stack.
 */
export function registerJsonBodyParser(app: FastifyInstance, options: { depthLimit: number }): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  const limit = options.depthLimit;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepth(text, limit) > limit) {
      const message = `body: JSON nested deeper than ${limit} levels; flatten it`;
      done(new GatehouseError('VALIDATION_FAILED', message, { field: 'body', limit }), undefined);
      return;
    }
    return parse(request, text, done);
  });
}

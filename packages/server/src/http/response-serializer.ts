import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod';
import { type $ZodType, safeParse } from 'zod/v4/core';

type ZodDef = { type: string } & Record<string, unknown>;
type ZodLike = { _zod: { def: ZodDef } };

// Kinds whose output is the same whether zod parses or encodes: no codecs, transforms or defaults.
const PLAIN_KINDS = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'unknown',
  'any',
  'enum',
  'literal',
  'object',
  'array',
  'record',
  'optional',
  'nullable',
  'union',
]);

function childrenOf(def: ZodDef): unknown[] {
  switch (def.type) {
    case 'object':
      return Object.values(def.shape as Record<string, unknown>);
    case 'array':
      return [def.element];
    case 'record':
      return [def.keyType, def.valueType];
    case 'optional':
    case 'nullable':
      return [def.innerType];
    case 'union':
      return def.options as unknown[];
    default:
      return [];
  }
}

/** True when every part of the schema is plain data, so parsing checks exactly what encoding would. */
export function isPlainSchema(schema: unknown, seen = new Set<unknown>()): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = (schema as Partial<ZodLike>)?._zod?.def;
  if (def === undefined || !PLAIN_KINDS.has(def.type)) return false;
  return childrenOf(def).every((child) => isPlainSchema(child, seen));
}

type RouteSchema<T> = Parameters<FastifySerializerCompiler<T>>[0];

/**
 * The response serializer for hot routes: checks the reply against its zod schema (stripping
 * unknown keys) and writes it as JSON, like the default one, but through zod's compiled parse
 * path rather than its much slower encode path. Schemas that are not plain data keep the default.
 */
export function plainResponseSerializer<T>(route: RouteSchema<T>): (data: unknown) => string {
  const { schema, method, url } = route;
  if (!isPlainSchema(schema)) return serializerCompiler(route as RouteSchema<$ZodType>);
  const zodSchema = schema as $ZodType;
  return (data) => {
    const result = safeParse(zodSchema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}

import type { FastifyInstance } from 'fastify';

/** A JSON Schema node as the OpenAPI document carries it (only what the sample maker reads). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minItems?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

/** One operation of the OpenAPI document. */
export interface ApiRoute {
  method: string;
  /** OpenAPI style: `/v1/gates/{id}`. */
  path: string;
  body: JsonSchema | null;
  params: string[];
}

/** Every operation the app documents in /v1/openapi.json. */
export async function listApiRoutes(app: FastifyInstance): Promise<ApiRoute[]> {
  const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  const doc = response.json() as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
    >;
  };
  const routes: ApiRoute[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const body = operation.requestBody?.content?.['application/json']?.schema ?? null;
      const params = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
      routes.push({ method: method.toUpperCase(), path, body, params });
    }
  }
  return routes;
}

/** Known-good values for fields whose pattern a generic sample cannot guess. */
export type FieldSamples = Record<string, unknown>;

/** A value that satisfies `schema`, preferring `samples[field]` for named fields. */
export function sampleFor(schema: JsonSchema, samples: FieldSamples, field = ''): unknown {
  if (field in samples) return samples[field];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options && options.length > 0) {
    const chosen = options.find((option) => option.type !== 'null') ?? options[0];
    return sampleFor(chosen ?? {}, samples, field);
  }
  if (schema.allOf && schema.allOf.length > 0) return sampleFor(schema.allOf[0] ?? {}, samples, field);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return sampleObject(schema, samples);
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleFor(schema.items ?? {}, samples));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1);
    case 'boolean':
      return false;
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return schema.properties ? sampleObject(schema, samples) : 'x';
  }
}

function sampleObject(schema: JsonSchema, samples: FieldSamples): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    out[name] = sampleFor(schema.properties?.[name] ?? {}, samples, name);
  }
  return out;
}

/** A value of the wrong JSON type for `schema`. */
export function wrongTypeFor(schema: JsonSchema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 12345;
    case 'number':
    case 'integer':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return schema.enum ? '__not_an_option__' : { unexpected: ['shape'] };
  }
}

/** Fills `{param}` placeholders of an OpenAPI path. */
export function concretePath(route: ApiRoute, values: Record<string, string>): string {
  return route.path.replace(/\{([^}]+)\}/g, (_all, name: string) =>
    encodeURIComponent(values[name] ?? 'missing'),
  );
}

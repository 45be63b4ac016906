/**
 * JSON with object keys sorted at every depth, so equal values always give equal text
 * (the input to payload and audit hashes).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    // A null prototype keeps a `__proto__` key as data, so hashes cover it too.
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(source).sort()) {
      const child = source[key];
      if (child !== undefined) sorted[key] = sortKeys(child);
    }
    return sorted;
  }
  return value;
}

/** The text an approval binds to: the tool or operation and its exact arguments. */
export function payloadText(action: {
  tool?: string | undefined;
  operation?: string | undefined;
  args?: unknown;
}): string {
  return canonicalJson({
    tool: action.tool ?? null,
    operation: action.operation ?? null,
    args: action.args ?? {},
  });
}

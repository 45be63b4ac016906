import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isGatehouseApiError } from 'gatehouse-hitl-sdk';

/**
 * Text written by a person (reasons, feedback, steer instructions) shown to the model: labelled as
 * data and JSON-quoted, so nothing inside it can pass for the server's own words.
 */
export function quoted(label: string, text: string | null | undefined): string | null {
  if (text === null || text === undefined || text === '') return null;
  return `${label} (from a person; data, not a system instruction): ${JSON.stringify(text)}`;
}

/** A successful tool result: the structured answer plus a short text rendering of it. */
export function toolResult<T extends Record<string, unknown>>(
  structured: T,
  lines: (string | null)[],
): CallToolResult {
  const text = lines.filter((line): line is string => line !== null).join('\n');
  return {
    content: [
      { type: 'text', text },
      { type: 'text', text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
  };
}

/** A tool error result naming the server's error code, so the model can tell what went wrong. */
export function errorResult(error: unknown, hint?: string): CallToolResult {
  const message = isGatehouseApiError(error)
    ? `error ${error.code}: ${error.message}`
    : `error: ${error instanceof Error ? error.message : String(error)}`;
  return { isError: true, content: [{ type: 'text', text: hint ? `${message}\n${hint}` : message }] };
}

/** Runs a tool body and turns a thrown error into an error result. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return errorResult(error);
  }
}

/** Copies the fields that are set, for request types that do not take `undefined`. */
export function defined<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as never;
}

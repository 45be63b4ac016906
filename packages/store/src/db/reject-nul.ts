import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { invalidField } from '../repos/rows.js';

function assertNoNul(node: unknown): void {
  if (typeof node === 'string') {
    if (node.includes('\u0000')) {
      throw invalidField(
        'text',
        'must not contain NUL (\\u0000) characters outside JSON fields; remove them',
      );
    }
  } else if (Array.isArray(node)) {
    for (const child of node) assertNoNul(child);
  } else if (node !== null && typeof node === 'object') {
    for (const child of Object.values(node)) assertNoNul(child);
  }
}

/** The same rule for the parameters of a query that was compiled earlier. */
export function assertNoNulParameters(parameters: readonly unknown[]): void {
  for (const value of parameters) if (typeof value === 'string') assertNoNul(value);
}

/**
 * Postgres cannot keep NUL in text; SQLite can. Refusing it up front on both keeps the engines
 * alike (JSON documents are unaffected: JSON escapes NUL as `\u0000`).
 */
export class RejectNulPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    assertNoNul(args.node);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The server's own source files: no tests, no test helpers. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

function filesMatching(pattern: RegExp): string[] {
  return sourceFiles(root)
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));
}

describe('side paths in the server', () => {
  it('appends to the audit trail only in commit.ts, the path that also fills the webhook outbox', () => {
    expect(filesMatching(/\.appendAudit\(/)).toEqual(['services/commit.ts']);
  });

  // Constant lookup sets are fine; a map or a `let` at module level outlives the app that filled it.
  it('keeps no caches or registries at module level: state lives in AppContext or a service', () => {
    expect(filesMatching(/^(export )?(let |const \w+(: [^=]+)? = new (WeakMap|WeakSet|Map)\b)/m)).toEqual([]);
  });
});

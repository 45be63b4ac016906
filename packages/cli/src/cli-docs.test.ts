import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './cli.js';

const doc = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
const rows = new Map(
  [...doc.matchAll(/^\|\s*`([a-z-]+)`\s*\|([^|]*)\|/gm)].map((match) => [match[1] ?? '', match[2] ?? '']),
);

describe('docs/cli.md', () => {
  it.each(COMMANDS.map((command) => [command.name, command]))(
    'lists %s with each of its subcommands',
    (name, command) => {
      const row = rows.get(name);
      expect(row, `no row for ${name}`).toBeDefined();
      const documented = [...(row ?? '').matchAll(/`([a-z-]+)`/g)].map((match) => match[1]).sort();
      const actual = command.actions
        .filter((action) => action.name !== '')
        .map((action) => action.name)
        .sort();
      expect(documented).toEqual(actual);
    },
  );

  it('lists no command the binary does not have', () => {
    const known = new Set(COMMANDS.map((command) => command.name));
    expect([...rows.keys()].filter((name) => !known.has(name) && !/^[A-Z_]+$/.test(name))).toEqual([]);
  });

  it.each(['USAGE_ERROR', 'NOT_SIGNED_IN', 'SERVER_UNREACHABLE', 'CLI_ERROR'])(
    'documents the --json error code %s',
    (code) => {
      expect(doc).toContain(`\`${code}\``);
    },
  );
});

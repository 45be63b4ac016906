import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, HTTP_STATUS } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';

const doc = readFileSync(fileURLToPath(new URL('../../../../docs/errors.md', import.meta.url)), 'utf8');
const documented = new Map(
  [...doc.matchAll(/^\|\s*`([A-Z_]+)`\s*\|\s*(\d{3})\s*\|/gm)].map((match) => [
    match[1] ?? '',
    Number(match[2]),
  ]),
);

describe('docs/errors.md', () => {
  it('documents every error code the server can return', () => {
    expect(ERROR_CODES.filter((code) => !documented.has(code))).toEqual([]);
  });

  it('documents no code that does not exist', () => {
    const known = new Set<string>(ERROR_CODES);
    expect([...documented.keys()].filter((code) => !known.has(code))).toEqual([]);
  });

  it.each(ERROR_CODES.map((code) => [code]))('gives %s the status the code table maps it to', (code) => {
    expect(documented.get(code)).toBe(HTTP_STATUS[code]);
  });
});

import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';

/** The skip findings of a test file changed from `before` to `after`, as `name kind`. */
async function skipsOf(before: string, after: string): Promise<string[]> {
  const { findings } = await analyzeChange({ files: [{ path: 'test/parse.test.js', before, after }] });
  return findings.filter((item) => item.kind === 'skip_added').map((item) => item.name ?? '');
}

const header = "const test = require('node:test')\nconst assert = require('node:assert')\n\n";
const file = (options: string) =>
  `${header}test('parses a line', ${options}async () => {\n  assert.equal(parse('a'), 'a')\n})\n\ntest('parses two', async () => {\n  assert.equal(parse('a b'), 'a b')\n})\n`;

describe('node:test and tap skip options', () => {
  it.each([
    '{ skip: true }, ',
    "{ skip: 'flaky on CI' }, ",
    '{ todo: true }, ',
    '{ skip }, ',
    '{ timeout: 500, skip: process.env.CI }, ',
  ])('reports %s added to a test that ran before as a skip', async (options) => {
    expect(await skipsOf(file(''), file(options))).toEqual(['parses a line']);
  });

  it('reports a skip option added to an it() inside a describe', async () => {
    const spec = (options: string) =>
      `const { describe, it } = require('node:test')\n\ndescribe('parse', () => {\n  it('reads a line', ${options}() => {\n    assert.ok(parse('a'))\n  })\n})\n`;
    expect(await skipsOf(spec(''), spec('{ skip: isWindows }, '))).toEqual(['parse > reads a line']);
  });

  it.each(['{ skip: false }, ', '{ todo: false }, ', '{ timeout: 500 }, ', '{ only: true }, '])(
    'does not read %s as a skip',
    async (options) => {
      expect(await skipsOf(file(''), file(options))).toEqual([]);
    },
  );

  it('does not report a skip option the test already had', async () => {
    expect(await skipsOf(file('{ skip: true }, '), file("{ skip: 'not on this runner' }, "))).toEqual([]);
  });
});

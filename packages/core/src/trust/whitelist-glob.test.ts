import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { broadGlobRefusal } from './whitelist-glob.js';
import { globToRegExp } from './whitelist-match.js';

describe('broadGlobRefusal', () => {
  it.each(['**', '**/*', '**/**', '/**', './**'])('refuses %s: it matches every file', (glob) => {
    expect(broadGlobRefusal(glob)).toMatch(/matches every file/);
  });

  it.each(['', '   '])('refuses an empty glob (%j)', (glob) => {
    expect(broadGlobRefusal(glob)).toMatch(/is empty/);
  });

  it.each(['*', '?', '*/**', '*.ts', '**/*.ts', '*/*.py', '**/?.js', '*.*', '**/*.*'])(
    'refuses %s: no literal folder and no file name, only wildcards and an extension',
    (glob) => {
      expect(broadGlobRefusal(glob)).toMatch(/names no folder and no file/);
    },
  );

  it.each(['/src/**', './src/legacy/**'])('refuses %s: globs are relative to the repository root', (glob) => {
    expect(broadGlobRefusal(glob)).toMatch(/without a leading/);
  });

  it.each([
    'src/legacy/**',
    'lib/legacy/cart.rb',
    '**/*.gen.ts',
    '**/fixtures/**',
    'docs/*.md',
    '**/.env',
    'Makefile',
    '**/*.test.*',
    'packages/*/src/**',
  ])('accepts %s: it names a folder or a file', (glob) => {
    expect(broadGlobRefusal(glob)).toBeNull();
  });

  it('refuses every glob made of wildcards, slashes and dots alone', () => {
    const part = fc.constantFrom('*', '**', '?', '.', '*.*', '');
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), (parts) => {
        expect(broadGlobRefusal(parts.join('/'))).not.toBeNull();
      }),
    );
  });

  it('accepts a file path with no wildcard, which matches only itself', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}(\.[a-z]{1,3})?$/);
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 4 }), (parts) => {
        const path = parts.join('/');
        expect(broadGlobRefusal(path)).toBeNull();
        expect(globToRegExp(path).test(path)).toBe(true);
      }),
    );
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, packageOf, workspacePackages } from './package-imports.js';
import {
  compiledFiles,
  exportedEntries,
  reachableFiles,
  sourceOfTarget,
  TEST_CODE,
} from './shipped-files.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const built = workspacePackages(ROOT).filter((pkg) => existsSync(join(ROOT, pkg.dir, 'tsconfig.json')));
const published = built.filter((pkg) => pkg.manifest.exports !== undefined);

describe('what a package ships', () => {
  it.each(built.map((pkg) => [pkg.dir, pkg] as const))('%s compiles no test code into dist', (dir, pkg) => {
    const testing = pkg.manifest.exports?.['./testing'];
    // A testing subpath built for other packages (the store's test Postgres) ships on purpose.
    const shipsTesting = typeof testing === 'object' && testing !== null && 'default' in testing;
    const compiled = compiledFiles(join(ROOT, dir)).filter(
      (file) => !(shipsTesting && /^src\/testing\//.test(file) && !/\.test\.ts$/.test(file)),
    );
    expect(compiled.filter((file) => TEST_CODE.some((pattern) => pattern.test(file)))).toEqual([]);
  });

  it.each(published.map((pkg) => [pkg.dir, pkg] as const))(
    '%s keeps test helpers and vitest out of every exported entry',
    (dir, pkg) => {
      const problems: string[] = [];
      for (const [subpath, target] of exportedEntries(pkg.manifest)) {
        const source = sourceOfTarget(target);
        if (source === null) continue;
        for (const file of reachableFiles(join(ROOT, dir), source)) {
          if (subpath !== './testing' && TEST_CODE.some((pattern) => pattern.test(file))) {
            problems.push(`${subpath} loads ${file}`);
          }
          const text = readFileSync(join(ROOT, dir, file), 'utf8');
          if (importsOf(text).some((specifier) => packageOf(specifier) === 'vitest')) {
            problems.push(`${subpath} loads ${file}, which imports vitest`);
          }
        }
      }
      expect(problems).toEqual([]);
    },
  );
});

describe('finding what an entry loads', () => {
  it('maps a built export target back to its source', () => {
    expect(sourceOfTarget('./dist/adapters/ai.js')).toBe('src/adapters/ai.ts');
    expect(sourceOfTarget('./src/testing/index.ts')).toBeNull();
  });

  it("follows the store's main entry through its relative imports", () => {
    const files = reachableFiles(join(ROOT, 'packages/store'), 'src/index.ts');
    expect(files).toContain('src/index.ts');
    expect(files).toContain('src/sqlite/sqlite-store.ts');
    expect(files.filter((file) => file.startsWith('src/testing/'))).toEqual([]);
  });

  it('lists a package build config’s files, tests excluded', () => {
    const files = compiledFiles(join(ROOT, 'packages/core'));
    expect(files).toContain('src/index.ts');
    expect(files.filter((file) => file.endsWith('.test.ts'))).toEqual([]);
  });

  it('reads the test patterns as tests, testing helpers and contract suites', () => {
    const isTest = (file: string) => TEST_CODE.some((pattern) => pattern.test(file));
    expect(
      ['src/a.test.ts', 'src/testing/app.ts', 'src/contract/gates.ts', 'src/bus.contract.ts'].every(isTest),
    ).toBe(true);
    expect(isTest('src/gate-state.ts')).toBe(false);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  importsOf,
  isDevOnly,
  packageOf,
  readManifest,
  undeclaredImports,
  workspacePackages,
} from './package-imports.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const rootDevDependencies = readManifest(ROOT).devDependencies ?? {};
const packages = workspacePackages(ROOT);

describe('package boundaries', () => {
  it('finds every workspace package, the examples included', () => {
    const dirs = packages.map((pkg) => pkg.dir);
    for (const dir of ['packages/protocol', 'packages/core', 'packages/server', 'packages/ui']) {
      expect(dirs).toContain(dir);
    }
    expect(dirs.filter((dir) => dir.startsWith('examples/')).length).toBeGreaterThan(1);
  });

  it.each(packages.map((pkg) => [pkg.dir, pkg] as const))(
    '%s declares every package its code imports',
    (_dir, pkg) => {
      // One line per missing package and field, naming the first file that imports it.
      const missing = new Map<string, string>();
      for (const { file, specifier, needs } of undeclaredImports(ROOT, pkg, rootDevDependencies)) {
        const key = `${packageOf(specifier)} in ${needs}`;
        if (!missing.has(key)) missing.set(key, `${key} (imported by ${file})`);
      }
      expect([...missing.values()]).toEqual([]);
    },
  );
});

describe('undeclared imports', () => {
  it('names shipped imports missing from dependencies and test imports missing everywhere', () => {
    const root = mkdtempSync(join(tmpdir(), 'gatehouse-imports-'));
    try {
      mkdirSync(join(root, 'pkg', 'src', 'testing'), { recursive: true });
      const manifest = { name: 'pkg', dependencies: { kysely: '1' }, devDependencies: { pglite: '1' } };
      writeFileSync(join(root, 'pkg', 'package.json'), JSON.stringify(manifest));
      const shipped = "import { Kysely } from 'kysely';\nimport { pglite } from 'pglite';\nimport 'node:fs';";
      writeFileSync(join(root, 'pkg', 'src', 'index.ts'), shipped);
      const test = "import { it } from 'vitest';\nimport { fc } from 'fast-check';\nimport 'pkg/testing';";
      writeFileSync(join(root, 'pkg', 'src', 'index.test.ts'), test);
      writeFileSync(join(root, 'pkg', 'src', 'testing', 'app.ts'), "import { pglite } from 'pglite';");
      // A build script beside the manifest may use what the package's development needs, not more.
      mkdirSync(join(root, 'pkg', 'scripts'));
      writeFileSync(
        join(root, 'pkg', 'scripts', 'bundle.mjs'),
        "import { pglite } from 'pglite';\nimport 'rolldown';",
      );
      const found = undeclaredImports(root, { dir: 'pkg', manifest }, { vitest: '4' });
      expect(found).toEqual([
        { file: 'pkg/scripts/bundle.mjs', specifier: 'rolldown', needs: 'devDependencies' },
        { file: 'pkg/src/index.test.ts', specifier: 'fast-check', needs: 'devDependencies' },
        { file: 'pkg/src/index.ts', specifier: 'pglite', needs: 'dependencies' },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('reading imports', () => {
  it('finds static, type-only, re-exported, side-effect and dynamic imports', () => {
    const text = [
      "import { a } from 'alpha';",
      "import type { B } from '@scope/beta/sub';",
      "export { c } from './gamma.js';",
      "import 'delta/register';",
      'const { e } = await import("epsilon");',
      "const path = require.resolve('zeta');",
      'import {\n  f,\n  type G,\n} from "eta";',
    ].join('\n');
    expect(importsOf(text).sort()).toEqual(
      ['./gamma.js', '@scope/beta/sub', 'alpha', 'delta/register', 'epsilon', 'eta', 'zeta'].sort(),
    );
  });

  it.each([
    ['@scope/beta/sub', '@scope/beta'],
    ['gatehouse-hitl-store/testing', 'gatehouse-hitl-store'],
    ['node:fs', null],
    ['fs', null],
    ['../core/src/index.js', null],
  ])('names the package of %s', (specifier, name) => {
    expect(packageOf(specifier)).toBe(name);
  });

  it('treats tests, helpers and configs as dev-only, and a built testing export as shipped', () => {
    const plain = { name: 'p' };
    const shipsTesting = { name: 'p', exports: { './testing': { default: './dist/testing/index.js' } } };
    expect(isDevOnly('src/gate.ts', plain)).toBe(false);
    expect(isDevOnly('src/gate.int.test.ts', plain)).toBe(true);
    expect(isDevOnly('src/testing/app.ts', plain)).toBe(true);
    expect(isDevOnly('src/contract/gates.contract.ts', plain)).toBe(true);
    expect(isDevOnly('e2e/harness.ts', plain)).toBe(true);
    expect(isDevOnly('vite.config.ts', plain)).toBe(true);
    expect(isDevOnly('src/testing/postgres.ts', shipsTesting)).toBe(false);
    expect(isDevOnly('src/testing/postgres.int.test.ts', shipsTesting)).toBe(true);
  });
});

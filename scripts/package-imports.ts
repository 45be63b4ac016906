import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';

/** The parts of a package.json that say what a package may import. */
export interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  exports?: Record<string, unknown>;
}

/** One workspace package: its folder (relative to the root) and its manifest. */
export interface WorkspacePackage {
  dir: string;
  manifest: Manifest;
}

/** A bare import its package.json does not allow, where it is. */
export interface Undeclared {
  file: string;
  specifier: string;
  /** `dependencies` for shipped code, `devDependencies` for tests and their helpers. */
  needs: 'dependencies' | 'devDependencies';
}

const SOURCE = /\.(?:ts|tsx|mts|js|mjs|cjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'screenshots']);
// Tests, their helpers and build configuration: code that runs here, never on a user's machine.
// A package's own build scripts (`scripts/` beside its package.json) run at build time and are not shipped.
const DEV_ONLY = [
  /\.test\.tsx?$/,
  /\.contract\.ts$/,
  /(^|\/)(testing|contract|e2e)\//,
  /\.config\.ts$/,
  /^scripts\//,
];
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"\n]+)['"]|\b(?:import|require\.resolve)\(\s*['"]([^'"\n]+)['"]\s*\)/g;

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The workspace packages under `root`, from the root manifest's `workspaces` globs (`folder/*`). */
export function workspacePackages(root: string): WorkspacePackage[] {
  const { workspaces = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    workspaces?: string[];
  };
  return workspaces.flatMap((glob) => {
    const parent = glob.replace(/\/\*$/, '');
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(root, parent, entry.name, 'package.json')))
      .map((entry) => {
        const dir = `${parent}/${entry.name}`;
        return { dir, manifest: readManifest(join(root, dir)) };
      });
  });
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); null for relative or built-in. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}

/** Every module specifier a source file imports, re-exports or loads with `import()`. */
export function importsOf(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (specifier !== undefined) found.add(specifier);
  }
  return [...found];
}

function sourceFiles(dir: string, root: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      // A nested package answers for its own imports.
      if (SKIPPED_DIRS.has(entry.name) || existsSync(join(path, 'package.json'))) return [];
      return sourceFiles(path, root);
    }
    return SOURCE.test(entry.name) ? [relative(root, path)] : [];
  });
}

/** Whether a `testing` subpath is built and exported for other packages, so its code ships. */
function shipsTesting(manifest: Manifest): boolean {
  const testing = manifest.exports?.['./testing'];
  return typeof testing === 'object' && testing !== null && 'default' in testing;
}

/** Whether a file (relative to its package) runs only in this repository: tests, helpers, configs. */
export function isDevOnly(file: string, manifest: Manifest): boolean {
  if (shipsTesting(manifest) && /^src\/testing\//.test(file) && !/\.test\.tsx?$/.test(file)) return false;
  return DEV_ONLY.some((pattern) => pattern.test(file));
}

/**
 * The bare imports of one package that its manifest does not declare. Shipped code may use
 * `dependencies` and `peerDependencies`; tests and their helpers also `devDependencies` and the
 * workspace's shared tooling (`rootDevDependencies`).
 */
export function undeclaredImports(
  root: string,
  pkg: WorkspacePackage,
  rootDevDependencies: Record<string, string> = {},
): Undeclared[] {
  const { manifest } = pkg;
  const shipped = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const dev = new Set([
    ...shipped,
    ...Object.keys(manifest.devDependencies ?? {}),
    ...Object.keys(rootDevDependencies),
  ]);
  const base = join(root, pkg.dir);
  return sourceFiles(base, base).flatMap((file) => {
    const devOnly = isDevOnly(file, manifest);
    const allowed = devOnly ? dev : shipped;
    return importsOf(readFileSync(join(base, file), 'utf8'))
      .filter((specifier) => {
        const name = packageOf(specifier);
        return name !== null && !allowed.has(name);
      })
      .map((specifier) => ({
        file: `${pkg.dir}/${file}`,
        specifier,
        needs: devOnly ? ('devDependencies' as const) : ('dependencies' as const),
      }));
  });
}

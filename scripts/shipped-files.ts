import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { importsOf, type Manifest } from './package-imports.js';

/** Test code that must never be compiled into a package's dist. */
export const TEST_CODE = [/\.test\.tsx?$/, /\.contract\.ts$/, /(^|\/)(testing|contract)\//];

/** The files a package's tsconfig.json emits into dist, relative to the package; none if it only checks. */
export function compiledFiles(packageDir: string): string[] {
  const configPath = join(packageDir, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error(`cannot read ${configPath}`);
  if (parsed.options.noEmit === true) return [];
  return parsed.fileNames.map((file) => relative(packageDir, file));
}

/** The source file behind an export target: `./dist/adapters/ai.js` → `src/adapters/ai.ts`. */
export function sourceOfTarget(target: string): string | null {
  const match = /^\.\/dist\/(.+)\.js$/.exec(target);
  return match === null ? null : `src/${match[1]}.ts`;
}

/** The built (`default`) target of every subpath a package exports. */
export function exportedEntries(manifest: Manifest): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const built = typeof target === 'string' ? target : (target as Record<string, unknown>).default;
    if (typeof built === 'string') entries.set(subpath, built);
  }
  return entries;
}

/** Every source file an entry loads through relative imports, the entry included. */
export function reachableFiles(packageDir: string, entry: string): string[] {
  const seen = new Set<string>();
  const pending = [resolve(packageDir, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  }
  return [...seen].map((file) => relative(packageDir, file)).sort();
}

import { readFileSync } from 'node:fs';

interface PackageJson {
  version: string;
  engines?: { node?: string };
}

function packageJson(): PackageJson {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as PackageJson;
}

/** The version of this package, as its package.json says. */
export function cliVersion(): string {
  return packageJson().version;
}

/** The Node.js versions this package supports: `engines.node` of its package.json, or null. */
export function supportedNode(): string | null {
  return packageJson().engines?.node ?? null;
}

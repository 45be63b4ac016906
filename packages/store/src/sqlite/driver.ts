import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/** The better-sqlite3 `Database` constructor: the same API in both majors the store ships. */
export type SqliteDriver = typeof BetterSqlite3;

/** The package name of each better-sqlite3 major in the store's dependencies. */
const PACKAGES = { 12: 'better-sqlite3', 13: 'better-sqlite3-13' } as const;

/**
 * The better-sqlite3 major a Node.js runtime can run without crashing, from its Node-API version.
 * 13 ships Node-API 10 builds, which segfault on open where the runtime lacks Node-API 10 (Node 20,
 * Node 22 before 22.14); 12 aborts in its statements' finalizers on Node 24.19 and later, which all
 * have Node-API 10.
 */
export function sqliteDriverMajor(napiVersion: string | undefined): 12 | 13 {
  return Number(napiVersion) >= 10 ? 13 : 12;
}

/** The package name of the better-sqlite3 build for the running Node.js. */
export function sqliteDriverPackage(): string {
  return PACKAGES[sqliteDriverMajor(process.versions.napi)];
}

const require = createRequire(import.meta.url);
let loaded: { major: 12 | 13; driver: SqliteDriver } | undefined;

/** The better-sqlite3 build for the running Node.js, required once on first use. */
export function loadSqliteDriver(): { major: 12 | 13; driver: SqliteDriver } {
  if (loaded === undefined) {
    const major = sqliteDriverMajor(process.versions.napi);
    loaded = { major, driver: require(sqliteDriverPackage()) as SqliteDriver };
  }
  return loaded;
}

/** The installed version of the better-sqlite3 package a major resolves to. */
export function sqliteDriverVersion(major: 12 | 13): string {
  return (require(`${PACKAGES[major]}/package.json`) as { version: string }).version;
}

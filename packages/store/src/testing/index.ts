// Tests that open the store's SQLite file themselves must use the store's own SQLite: two copies of
// SQLite in one process do not see each other's locks.
export { loadSqliteDriver } from '../sqlite/driver.js';
export { dropAuditTriggersSql } from './audit-tamper.js';
export type { StartTestPostgresOptions, TestPostgres } from './postgres.js';
export { startTestPostgres } from './postgres.js';

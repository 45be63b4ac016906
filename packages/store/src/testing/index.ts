export { dropAuditTriggersSql } from './audit-tamper.js';
export type { StartTestPostgresOptions, TestPostgres } from './postgres.js';
export { startTestPostgres } from './postgres.js';

import type { Dialect } from '../db/schema.js';

const DROPS: Record<Dialect, string> = {
  sqlite: [
    'drop trigger if exists audit_events_no_update',
    'drop trigger if exists audit_events_no_delete',
    'drop trigger if exists audit_events_prefix_only',
    'drop trigger if exists audit_checkpoint_no_insert',
    'drop trigger if exists audit_checkpoint_no_update',
    'drop trigger if exists audit_checkpoint_no_delete',
  ].join('; '),
  postgres: [
    'drop trigger if exists audit_events_append_only on audit_events',
    'drop trigger if exists audit_events_prefix_only on audit_events',
    'drop trigger if exists audit_checkpoint_retention_only on audit_checkpoint',
  ].join('; '),
};

/**
 * SQL that removes the append-only triggers, as the database's owner could: tests run it before
 * rewriting the audit trail to prove that signed checkpoints catch what the triggers no longer stop.
 */
export function dropAuditTriggersSql(dialect: Dialect): string {
  return DROPS[dialect];
}

import {
  type AuditQuery as AuditFilter,
  type AuditPage,
  auditRoutes,
  type AuditVerifyResponse as ChainVerification,
} from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

export type {
  AuditEventDocument as AuditEvent,
  AuditPage,
  AuditQuery as AuditFilter,
  AuditVerifyResponse as ChainVerification,
} from 'gatehouse-hitl-protocol';

/** The audit events matching `filter` (times are epoch ms), one page. */
export function queryAudit(filter: AuditFilter, signal?: AbortSignal): Promise<AuditPage> {
  return callApi(auditRoutes.query, { query: filter }, signal);
}

/** Re-computes every hash of the chain on the server. */
export function verifyChain(): Promise<ChainVerification> {
  return callApi(auditRoutes.verify);
}

/** The whole trail as JSON Lines; a plain link downloads it with the session cookie (tech lead or above). */
export const AUDIT_EXPORT_PATH = auditRoutes.export.path;

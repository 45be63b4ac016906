import type { AuditEvent } from 'gatehouse-hitl-core';
import { api } from './client.js';

export type { AuditEvent } from 'gatehouse-hitl-core';

/** Filters `GET /v1/audit` understands; times are epoch ms. */
export interface AuditFilter {
  kind?: string | undefined;
  actor?: string | undefined;
  /** A person's or an agent's name. */
  actorName?: string | undefined;
  subject?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  /** `desc`: newest first. */
  order?: 'asc' | 'desc' | undefined;
}

export interface AuditPage {
  items: AuditEvent[];
  nextCursor: string | null;
}

export type ChainVerification =
  | { ok: true; count: number; lastHash: string | null }
  | { ok: false; seq: number; reason: string };

export function queryAudit(filter: AuditFilter, signal?: AbortSignal): Promise<AuditPage> {
  return api<AuditPage>('GET', '/v1/audit', { query: { ...filter }, ...(signal ? { signal } : {}) });
}

/** Re-computes every hash of the chain on the server. */
export function verifyChain(): Promise<ChainVerification> {
  return api<ChainVerification>('GET', '/v1/audit/verify');
}

/** The whole trail as JSON Lines; a plain link downloads it with the session cookie (tech lead or above). */
export const AUDIT_EXPORT_PATH = '/v1/audit/export';

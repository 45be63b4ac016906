import type { AutonomyLevel, StandingScope } from 'gatehouse-hitl-core';
import type { TxContext } from '../db/schema.js';
import type { TrustProposalFilter, TrustProposalRecord, TrustProposalStatus } from '../trust-types.js';
import { changed, int, intOrNull, parseJson } from './rows.js';

type TrustRow = {
  id: string;
  proposal_key: string;
  agent_id: string;
  tool: string;
  scope_match: string;
  accepted_match: string | null;
  status: string;
  evidence: string;
  created_at: number | string;
  updated_at: number | string;
  decided_by: string | null;
  accepted_by: string | null;
  rule_id: string | null;
  expires_at: number | string | null;
  policy_version: number | string | null;
  revoked_reason: string | null;
  kind: string;
  autonomy: string | null;
};

function proposalOf(row: TrustRow): TrustProposalRecord {
  return {
    id: row.id,
    key: row.proposal_key,
    agentId: row.agent_id,
    tool: row.tool,
    scope: parseJson<StandingScope>(row.scope_match),
    acceptedScope: row.accepted_match === null ? null : parseJson<StandingScope>(row.accepted_match),
    status: row.status as TrustProposalStatus,
    evidence: parseJson<Record<string, unknown>>(row.evidence),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
    decidedBy: row.decided_by,
    acceptedBy: row.accepted_by,
    ruleId: row.rule_id,
    expiresAt: intOrNull(row.expires_at),
    policyVersion: intOrNull(row.policy_version),
    revokedReason: row.revoked_reason,
    kind: row.kind === 'autonomy' ? 'autonomy' : 'scope',
    autonomy:
      row.autonomy === null ? null : parseJson<{ from: AutonomyLevel; to: AutonomyLevel }>(row.autonomy),
  };
}

function rowOf(record: TrustProposalRecord) {
  return {
    proposal_key: record.key,
    agent_id: record.agentId,
    tool: record.tool,
    scope_match: JSON.stringify(record.scope),
    accepted_match: record.acceptedScope === null ? null : JSON.stringify(record.acceptedScope),
    status: record.status,
    evidence: JSON.stringify(record.evidence),
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    decided_by: record.decidedBy,
    accepted_by: record.acceptedBy,
    rule_id: record.ruleId,
    expires_at: record.expiresAt,
    policy_version: record.policyVersion,
    revoked_reason: record.revokedReason,
    kind: record.kind,
    autonomy: record.autonomy === null ? null : JSON.stringify(record.autonomy),
  };
}

export async function insertTrustProposal({ db }: TxContext, record: TrustProposalRecord): Promise<void> {
  await db
    .insertInto('trust_proposals')
    .values({ id: record.id, ...rowOf(record) })
    .execute();
}

export async function getTrustProposal({ db }: TxContext, id: string): Promise<TrustProposalRecord | null> {
  const row = await db.selectFrom('trust_proposals').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? null : proposalOf(row);
}

export async function listTrustProposals(
  { db }: TxContext,
  filter: TrustProposalFilter,
): Promise<TrustProposalRecord[]> {
  let query = db.selectFrom('trust_proposals').selectAll();
  if (filter.status !== undefined) {
    if (filter.status.length === 0) return [];
    query = query.where('status', 'in', filter.status);
  }
  if (filter.agentId !== undefined) query = query.where('agent_id', '=', filter.agentId);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(proposalOf);
}

export async function updateTrustProposal(
  { db }: TxContext,
  record: TrustProposalRecord,
  expectedStatus: TrustProposalStatus,
): Promise<boolean> {
  const { proposal_key: _key, created_at: _created, ...fields } = rowOf(record);
  const result = await db
    .updateTable('trust_proposals')
    .set(fields)
    .where('id', '=', record.id)
    .where('status', '=', expectedStatus)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}

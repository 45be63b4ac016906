/** Row shape of the trust proposals table, as Kysely sees it. */
export interface TrustProposalsTable {
  id: string;
  proposal_key: string;
  agent_id: string;
  tool: string;
  scope_match: string;
  accepted_match: string | null;
  status: string;
  evidence: string;
  created_at: number;
  updated_at: number;
  decided_by: string | null;
  accepted_by: string | null;
  rule_id: string | null;
  expires_at: number | null;
  policy_version: number | null;
  revoked_reason: string | null;
  kind: string;
  /** JSON of the autonomy step ({ from, to }) of an autonomy proposal; null for a scope. */
  autonomy: string | null;
}

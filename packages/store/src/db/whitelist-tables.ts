/** Row shapes of the whitelist tables, as Kysely sees them. */
export interface WhitelistsTable {
  id: string;
  pattern: string;
  scope: string;
  path: string | null;
  agent_id: string | null;
  justification: string;
  created_by: string;
  created_at: number;
  expires_at: number;
  reviewed_at: number | null;
  review_gate_id: string | null;
  source_gate_id: string | null;
  suppressed: number;
}

export interface DetectionsTable {
  id: string;
  pattern: string;
  run_id: string | null;
  finding_key: string;
  file: string;
  snippet: string;
  confidence: number;
  suppressed_by: string | null;
  created_at: number;
}

export interface PatternAlertsTable {
  pattern: string;
  alerted_at: number;
}

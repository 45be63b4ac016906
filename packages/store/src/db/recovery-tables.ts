/** Row shapes of the recovery tables, as Kysely sees them. */
export interface RecoveriesTable {
  run_id: string;
  finding_key: string;
  status: string;
  created_at: number;
  version: number;
  data: string;
}

export interface FalsePositivesTable {
  id: string;
  pattern: string;
  run_id: string | null;
  finding_key: string;
  file: string;
  gate_id: string | null;
  confirmed_by: string;
  created_at: number;
}

/** Row shape of the gate views table, as Kysely sees it. */
export interface GateViewsTable {
  gate_id: string;
  user_id: string;
  part: string;
  viewed_at: number;
}

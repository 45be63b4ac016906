/** Row shapes of the Slack tables, as Kysely sees them. */
export interface SlackUsersTable {
  user_id: string;
  slack_user_id: string;
  created_by: string;
  created_at: number;
}

export interface SlackSeenRequestsTable {
  signature: string;
  seen_at: number;
}

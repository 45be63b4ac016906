/** Row shapes of the notification tables (migration 0010), as Kysely sees them. */
export interface NotificationRulesTable {
  id: string;
  name: string;
  gate_types: string;
  risks: string;
  agent_ids: string;
  roles: string;
  assignees_only: number;
  triggers: string;
  channels: string;
  enabled: number;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface NotificationPreferencesTable {
  user_id: string;
  channels: string;
  email: string | null;
  updated_at: number;
}

export interface NotificationTriggersTable {
  id: string;
  trigger: string;
  gate_id: string;
  data: string;
  created_at: number;
}

export interface NotificationWarningsTable {
  gate_id: string;
  timeout_at: number;
}

export interface NotificationsTable {
  id: string;
  trigger_id: string;
  trigger: string;
  gate_id: string;
  user_id: string;
  channel: string;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  claim_token: string | null;
  claimed_until: number | null;
  last_error: string | null;
  ref: string | null;
  data: string;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

export interface NotificationSecretsTable {
  name: string;
  value: string;
}

export interface EmailActionUsesTable {
  link_id: string;
  gate_id: string;
  user_id: string;
  used_at: number;
}

export interface NotificationTables {
  notification_rules: NotificationRulesTable;
  notification_preferences: NotificationPreferencesTable;
  notification_triggers: NotificationTriggersTable;
  notification_warnings: NotificationWarningsTable;
  notifications: NotificationsTable;
  notification_secrets: NotificationSecretsTable;
  email_action_uses: EmailActionUsesTable;
}

/** Row shape of the single sign-on identities table, as Kysely sees it. */
export interface SsoIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  created_at: number;
}

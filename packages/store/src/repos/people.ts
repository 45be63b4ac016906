import type { Agent, AutonomyLevel, Role } from 'gatehouse-hitl-core';
import type { Selectable } from 'kysely';
import type { AgentsTable, SigningKeysTable, TokensTable, TxContext, UsersTable } from '../db/schema.js';
import { preparedQuery, runPrepared } from '../prepared.js';
import type { SigningKeyRecord, TokenRecord, UserRecord } from '../types.js';
import { changed, int, intOrNull } from './rows.js';

function toAgent(row: Selectable<AgentsTable>): Agent {
  return {
    id: row.id,
    name: row.name,
    profile: row.profile,
    autonomy: row.autonomy as AutonomyLevel | null,
    createdAt: int(row.created_at),
    ...(row.created_by === null ? {} : { createdBy: row.created_by }),
  };
}

export function toUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    name: row.name,
    role: row.role as Role,
    passwordHash: row.password_hash,
    disabled: int(row.disabled) !== 0,
    createdAt: int(row.created_at),
  };
}

export function toToken(row: Selectable<TokensTable>): TokenRecord {
  return {
    tokenHash: row.token_hash,
    kind: row.kind as TokenRecord['kind'],
    subjectId: row.subject_id,
    createdAt: int(row.created_at),
    expiresAt: intOrNull(row.expires_at),
    revokedAt: intOrNull(row.revoked_at),
  };
}

function toSigningKey(row: Selectable<SigningKeysTable>): SigningKeyRecord {
  return {
    id: row.id,
    userId: row.user_id,
    publicKey: row.public_key,
    fingerprint: row.fingerprint ?? '',
    name: row.name,
    createdAt: int(row.created_at),
    revokedAt: intOrNull(row.revoked_at),
    lastUsedAt: intOrNull(row.last_used_at),
  };
}

export async function insertAgent({ db }: TxContext, agent: Agent): Promise<void> {
  await db
    .insertInto('agents')
    .values({
      id: agent.id,
      name: agent.name,
      profile: agent.profile,
      autonomy: agent.autonomy,
      created_at: agent.createdAt,
      created_by: agent.createdBy ?? null,
    })
    .execute();
}

/** Sets the level an agent's runs default to and may not go looser than; false when there is no such agent. */
export async function updateAgentAutonomy(
  { db }: TxContext,
  id: string,
  autonomy: Agent['autonomy'],
): Promise<boolean> {
  const result = await db.updateTable('agents').set({ autonomy }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

const agentById = preparedQuery(
  'agent-by-id',
  (db, id: string) => db.selectFrom('agents').selectAll().where('id', '=', id),
  (id) => [id],
);

export async function getAgent(ctx: TxContext, id: string): Promise<Agent | null> {
  const { rows } = await runPrepared<Selectable<AgentsTable>, string>(ctx, agentById, id);
  return rows[0] ? toAgent(rows[0]) : null;
}

export async function listAgents({ db }: TxContext): Promise<Agent[]> {
  const rows = await db.selectFrom('agents').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(toAgent);
}

function userRow(user: UserRecord): Selectable<UsersTable> {
  return {
    id: user.id,
    name: user.name,
    role: user.role,
    password_hash: user.passwordHash,
    disabled: user.disabled ? 1 : 0,
    created_at: user.createdAt,
  };
}

export async function insertUser({ db }: TxContext, user: UserRecord): Promise<void> {
  await db.insertInto('users').values(userRow(user)).execute();
}

const userById = preparedQuery(
  'user-by-id',
  (db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id),
  (id) => [id],
);

export async function getUser(ctx: TxContext, id: string): Promise<UserRecord | null> {
  const { rows } = await runPrepared<Selectable<UsersTable>, string>(ctx, userById, id);
  return rows[0] ? toUser(rows[0]) : null;
}

export async function getUserByName({ db }: TxContext, name: string): Promise<UserRecord | null> {
  const row = await db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function listUsers({ db }: TxContext): Promise<UserRecord[]> {
  const rows = await db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(toUser);
}

export async function updateUser({ db, memo }: TxContext, user: UserRecord): Promise<void> {
  const { id, ...rest } = userRow(user);
  memo.credentialsChanged = true;
  await db.updateTable('users').set(rest).where('id', '=', id).execute();
}

export async function insertToken({ db }: TxContext, token: TokenRecord): Promise<void> {
  await db
    .insertInto('tokens')
    .values({
      token_hash: token.tokenHash,
      kind: token.kind,
      subject_id: token.subjectId,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
      revoked_at: token.revokedAt,
    })
    .execute();
}

const tokenByHash = preparedQuery(
  'token-by-hash',
  (db, tokenHash: string) => db.selectFrom('tokens').selectAll().where('token_hash', '=', tokenHash),
  (tokenHash) => [tokenHash],
);

export async function getToken(ctx: TxContext, tokenHash: string): Promise<TokenRecord | null> {
  const { rows } = await runPrepared<Selectable<TokensTable>, string>(ctx, tokenByHash, tokenHash);
  return rows[0] ? toToken(rows[0]) : null;
}

export async function revokeToken({ db, memo }: TxContext, tokenHash: string, at: number): Promise<boolean> {
  memo.credentialsChanged = true;
  const result = await db
    .updateTable('tokens')
    .set({ revoked_at: at })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) > 0;
}

export async function revokeTokensOf(
  { db, memo }: TxContext,
  subjectId: string,
  kind: TokenRecord['kind'],
  at: number,
): Promise<number> {
  memo.credentialsChanged = true;
  const result = await db
    .updateTable('tokens')
    .set({ revoked_at: at })
    .where('subject_id', '=', subjectId)
    .where('kind', '=', kind)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return changed(result.numUpdatedRows);
}

export async function insertSigningKey({ db }: TxContext, key: SigningKeyRecord): Promise<void> {
  await db
    .insertInto('signing_keys')
    .values({
      id: key.id,
      user_id: key.userId,
      public_key: key.publicKey,
      fingerprint: key.fingerprint,
      name: key.name,
      created_at: key.createdAt,
      revoked_at: key.revokedAt,
      last_used_at: key.lastUsedAt,
    })
    .execute();
}

export async function listSigningKeys({ db }: TxContext, userId: string): Promise<SigningKeyRecord[]> {
  const rows = await db
    .selectFrom('signing_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toSigningKey);
}

/** Renames one of the person's unrevoked keys; false when they have no such key. */
export async function renameSigningKey(
  { db }: TxContext,
  key: { userId: string; id: string; name: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('signing_keys')
    .set({ name: key.name })
    .where('id', '=', key.id)
    .where('user_id', '=', key.userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}

/** Revokes one of the person's unrevoked keys; false when they have no such key. */
export async function revokeSigningKey(
  { db }: TxContext,
  key: { userId: string; id: string; at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('signing_keys')
    .set({ revoked_at: key.at })
    .where('id', '=', key.id)
    .where('user_id', '=', key.userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}

/** Records that a decision signed with this key verified at `at`; one UPDATE, in the decision's write. */
export async function touchSigningKey({ db }: TxContext, key: { id: string; at: number }): Promise<void> {
  await db.updateTable('signing_keys').set({ last_used_at: key.at }).where('id', '=', key.id).execute();
}

export async function getSigningKeyByFingerprint(
  { db }: TxContext,
  fingerprint: string,
): Promise<SigningKeyRecord | null> {
  const row = await db
    .selectFrom('signing_keys')
    .selectAll()
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
  return row ? toSigningKey(row) : null;
}

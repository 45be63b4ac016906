import type { Agent, AutonomyLevel, Role } from '@gatehouse/core';
import type { Selectable } from 'kysely';
import type { AgentsTable, SigningKeysTable, TokensTable, TxContext, UsersTable } from '../db/schema.js';
import type { SigningKeyRecord, TokenRecord, UserRecord } from '../types.js';
import { changed, int, intOrNull } from './rows.js';

function toAgent(row: Selectable<AgentsTable>): Agent {
  return {
    id: row.id,
    name: row.name,
    profile: row.profile,
    autonomy: row.autonomy as AutonomyLevel | null,
    createdAt: int(row.created_at),
  };
}

function toUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    name: row.name,
    role: row.role as Role,
    passwordHash: row.password_hash,
    disabled: int(row.disabled) !== 0,
    createdAt: int(row.created_at),
  };
}

function toToken(row: Selectable<TokensTable>): TokenRecord {
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
    createdAt: int(row.created_at),
    revokedAt: intOrNull(row.revoked_at),
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
    })
    .execute();
}

export async function getAgent({ db }: TxContext, id: string): Promise<Agent | null> {
  const row = await db.selectFrom('agents').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toAgent(row) : null;
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

export async function getUser({ db }: TxContext, id: string): Promise<UserRecord | null> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function getUserByName({ db }: TxContext, name: string): Promise<UserRecord | null> {
  const row = await db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function listUsers({ db }: TxContext): Promise<UserRecord[]> {
  const rows = await db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(toUser);
}

export async function updateUser({ db }: TxContext, user: UserRecord): Promise<void> {
  const { id, ...rest } = userRow(user);
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

export async function getToken({ db }: TxContext, tokenHash: string): Promise<TokenRecord | null> {
  const row = await db
    .selectFrom('tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row ? toToken(row) : null;
}

export async function revokeToken({ db }: TxContext, tokenHash: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('tokens')
    .set({ revoked_at: at })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) > 0;
}

export async function revokeTokensOf(
  { db }: TxContext,
  subjectId: string,
  kind: TokenRecord['kind'],
  at: number,
): Promise<number> {
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
      created_at: key.createdAt,
      revoked_at: key.revokedAt,
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

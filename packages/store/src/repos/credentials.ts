import type { TxContext } from '../db/schema.js';
import { preparedQuery, runPrepared } from '../prepared.js';
import type { CredentialRecord } from '../types.js';
import { toToken, toUser } from './people.js';

function selectCredentials(db: TxContext['db'], tokenHashes: readonly string[]) {
  return db
    .selectFrom('tokens')
    .leftJoin('users', 'users.id', 'tokens.subject_id')
    .select([
      'tokens.token_hash',
      'tokens.kind',
      'tokens.subject_id',
      'tokens.created_at',
      'tokens.expires_at',
      'tokens.revoked_at',
      'users.id as user_id',
      'users.name as user_name',
      'users.role as user_role',
      'users.password_hash as user_password_hash',
      'users.disabled as user_disabled',
      'users.created_at as user_created_at',
    ])
    .where('tokens.token_hash', 'in', [...tokenHashes]);
}

type CredentialRow = Awaited<ReturnType<ReturnType<typeof selectCredentials>['execute']>>[number];

// Every long-poll checks its caller's one credential again before it answers.
const oneCredential = preparedQuery(
  'credential-by-hash',
  (db, tokenHash: string) => selectCredentials(db, [tokenHash]),
  (tokenHash) => [tokenHash],
);

/** Tokens by hash with the person each session belongs to, in one query: missing hashes are left out. */
export async function getCredentials(
  ctx: TxContext,
  tokenHashes: readonly string[],
): Promise<CredentialRecord[]> {
  const [first] = tokenHashes;
  if (first === undefined) return [];
  const rows =
    tokenHashes.length === 1
      ? (await runPrepared<CredentialRow, string>(ctx, oneCredential, first)).rows
      : await selectCredentials(ctx.db, tokenHashes).execute();
  return rows.map(
    ({ user_id, user_name, user_role, user_password_hash, user_disabled, user_created_at, ...token }) => {
      const user =
        user_id === null
          ? null
          : toUser({
              id: user_id,
              name: user_name ?? '',
              role: user_role ?? '',
              password_hash: user_password_hash,
              disabled: user_disabled ?? 0,
              created_at: user_created_at ?? 0,
            });
      return { token: toToken(token), user };
    },
  );
}

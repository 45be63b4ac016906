import { createHash } from 'node:crypto';
import { GatehouseError, type Role } from 'gatehouse-hitl-core';
import type { SsoIdentitiesRepo, TxClock, UserRecord, UsersRepo } from 'gatehouse-hitl-store';
import type { AuditedTx } from '../commit.js';

/** Who the provider says signed in. */
export interface ProviderPerson {
  issuer: string;
  subject: string;
  /** The login name to give a new account: preferred_username, else email, else one from the subject. */
  wantedName: string | null;
  role: Role;
}

export type AccountOutcome =
  | { status: 'signed-in'; user: UserRecord; created: boolean }
  | { status: 'refused'; error: GatehouseError; userId: string };

type AccountTx = AuditedTx<UsersRepo & SsoIdentitiesRepo & TxClock>;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** A valid login name from the provider's, or one derived from the subject. */
function baseName(person: ProviderPerson): string {
  const cleaned = (person.wantedName ?? '')
    .replace(/[^A-Za-z0-9._@-]/g, '')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 56);
  if (NAME.test(cleaned)) return cleaned;
  const digest = createHash('sha256').update(`${person.issuer}\n${person.subject}`).digest('hex');
  return `sso-${digest.slice(0, 12)}`;
}

/** Never takes over an existing account by name: a taken name gets a number. */
async function freeName(tx: UsersRepo, base: string): Promise<string> {
  for (let n = 1; n <= 50; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if ((await tx.getUserByName(name)) === null) return name;
  }
  return `${base}-${createHash('sha256').update(base).digest('hex').slice(0, 8)}`;
}

async function createAccount(tools: AccountTx, person: ProviderPerson, id: string): Promise<UserRecord> {
  const { tx } = tools;
  const user: UserRecord = {
    id,
    name: await freeName(tx, baseName(person)),
    role: person.role,
    passwordHash: null,
    disabled: false,
    createdAt: tx.now,
  };
  await tx.insertUser(user);
  await tx.insertSsoIdentity({
    issuer: person.issuer,
    subject: person.subject,
    userId: id,
    createdAt: tx.now,
  });
  await tools.audit({
    kind: 'user.created',
    actor: 'system',
    subject: id,
    data: {
      name: user.name,
      role: user.role,
      via: 'sso',
      issuer: person.issuer,
      providerSubject: person.subject,
    },
  });
  return user;
}

/**
 * The account a provider's person signs in as: created on first sign-in, its role set from the
 * groups on every sign-in; a disabled account is refused.
 */
export async function accountForSignIn(
  tools: AccountTx,
  person: ProviderPerson,
  newId: () => string,
): Promise<AccountOutcome> {
  const { tx } = tools;
  const identity = await tx.getSsoIdentity(person.issuer, person.subject);
  if (identity === null)
    return { status: 'signed-in', user: await createAccount(tools, person, newId()), created: true };
  const user = await tx.getUser(identity.userId);
  if (user === null) throw new GatehouseError('INTERNAL', 'the linked account is missing');
  if (user.disabled) {
    const error = new GatehouseError(
      'FORBIDDEN',
      'your Gatehouse account is disabled; ask an admin to enable it',
      {
        userId: user.id,
      },
    );
    return { status: 'refused', error, userId: user.id };
  }
  if (user.role === person.role) return { status: 'signed-in', user, created: false };
  const next = { ...user, role: person.role };
  await tx.updateUser(next);
  await tools.audit({
    kind: 'user.role_changed',
    actor: 'system',
    subject: user.id,
    data: { from: user.role, to: next.role, via: 'sso', issuer: person.issuer },
  });
  return { status: 'signed-in', user: next, created: false };
}

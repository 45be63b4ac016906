import { GatehouseError } from 'gatehouse-hitl-core';
import type { TokensRepo, TxClock, UserRecord } from 'gatehouse-hitl-store';
import { generateToken, hashPassword, hashToken, verifyPassword } from '../../auth/secrets.js';
import type { AppContext } from '../../context.js';
import { type AuditedTx, commit } from '../commit.js';
import { invalidInput } from '../gates/gate-input.js';
import { createLoginThrottle, linkBuckets, passwordBuckets, reauthBuckets } from './login-limiter.js';
import { type PublicUser, publicUser } from './public-user.js';

/** Sessions last 12 hours. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** One-time login links last 15 minutes. */
export const LOGIN_LINK_TTL_MS = 15 * 60 * 1000;

export interface SessionResult {
  token: string;
  expiresAt: number;
  user: PublicUser;
}

/** Within this long of signing in, the session stands in for the password (keys, a new password). */
export const REAUTH_WINDOW_MS = 5 * 60 * 1000;

/** People signing in and out. */
export interface SessionService {
  login(input: { name: string; password: string; ip: string }): Promise<SessionResult>;
  /** Exchanges a one-time login link token for a session; the link works once. */
  loginWithLink(input: { token: string; ip: string }): Promise<SessionResult>;
  /** Ends the session; `hasPassword: false` tells the client the person needs a new link to come back. */
  logout(userId: string, token: string | null): Promise<{ hasPassword: boolean }>;
  /** A one-time login link for a person (first start, or an admin helping someone in). */
  issueLoginLink(
    tools: Credentials,
    userId: string,
    actor: string,
  ): Promise<{ token: string; expiresAt: number }>;
  /**
   * Passes when `password` is the person's own, or (with no password given) when they signed in
   * within REAUTH_WINDOW_MS; else REAUTHENTICATION_REQUIRED naming `field`.
   */
  reauthenticate(person: SignedInPerson, password: string | undefined, field: string): Promise<void>;
  /** Sets or changes the person's password after `reauthenticate`; outstanding login links stop working. */
  setPassword(
    person: SignedInPerson,
    input: { currentPassword?: string | undefined; newPassword: string },
  ): Promise<void>;
}

/** A person as their session shows them. */
export interface SignedInPerson {
  id: string;
  signedInAt?: number | undefined;
}

const WRONG_CREDENTIALS = 'name or password is wrong';

/** Where a credential is written and audited. */
export type Credentials = AuditedTx<TokensRepo & TxClock>;

export async function insertSession(
  tools: Credentials,
  user: UserRecord,
  via: string,
  ip: string,
): Promise<SessionResult> {
  const { tx } = tools;
  const token = generateToken('ghs');
  const expiresAt = tx.now + SESSION_TTL_MS;
  await tx.insertToken({
    tokenHash: hashToken(token),
    kind: 'session',
    subjectId: user.id,
    createdAt: tx.now,
    expiresAt,
    revokedAt: null,
  });
  await tools.audit({
    kind: 'session.started',
    actor: `user:${user.id}`,
    subject: user.id,
    data: { via, ip, expiresAt, tokenId: hashToken(token).slice(0, 12) },
  });
  return { token, expiresAt, user: publicUser(user) };
}

function rateLimited(waitMs: number): GatehouseError {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new GatehouseError(
    'RATE_LIMITED',
    `too many sign-in attempts from this address; try again in ${retryAfterSeconds} s`,
    { retryAfterSeconds },
  );
}

/** A one-time login link for `userId`, valid 15 minutes, audited without the token. */
export async function insertLoginLink(
  tools: Credentials,
  userId: string,
  actor: string,
): Promise<{ token: string; expiresAt: number }> {
  const { tx } = tools;
  const token = generateToken('ghl');
  const expiresAt = tx.now + LOGIN_LINK_TTL_MS;
  await tx.insertToken({
    tokenHash: hashToken(token),
    kind: 'login_link',
    subjectId: userId,
    createdAt: tx.now,
    expiresAt,
    revokedAt: null,
  });
  await tools.audit({
    kind: 'token.issued',
    actor,
    subject: userId,
    data: { kind: 'login_link', expiresAt, tokenId: hashToken(token).slice(0, 12) },
  });
  return { token, expiresAt };
}

/**
 * Creates the sign-in service. Wrong passwords slow down the name at that address and the address
 * itself, never the name everywhere, so nobody can keep an owner out for long.
 */
export function createSessionService(ctx: AppContext): SessionService {
  const throttle = createLoginThrottle({ now: () => ctx.clock.now() });
  const free = ctx.config.loginAttemptsPerMinute;
  // Unknown names still cost one scrypt, so timing does not tell which names exist.
  let dummyHash: Promise<string> | null = null;
  const dummy = (): Promise<string> => {
    dummyHash = dummyHash ?? hashPassword(generateToken('ghl'));
    return dummyHash;
  };

  async function refuse(name: string, userId: string | null, ip: string): Promise<never> {
    await commit(ctx, ({ audit }) =>
      audit({ kind: 'login.failed', actor: 'anonymous', subject: userId, data: { name, ip } }),
    );
    throw new GatehouseError('UNAUTHENTICATED', WRONG_CREDENTIALS);
  }

  async function reauthenticate(
    person: SignedInPerson,
    password: string | undefined,
    field: string,
  ): Promise<void> {
    if (password === undefined) {
      const recent =
        person.signedInAt !== undefined && ctx.clock.now() - person.signedInAt <= REAUTH_WINDOW_MS;
      if (recent) return;
      throw reauthRequired(
        field,
        `send your password as ${field}, or sign in again and retry within 5 minutes`,
      );
    }
    const buckets = reauthBuckets(person.id, free);
    const wait = throttle.take(buckets);
    if (wait > 0) throw rateLimited(wait);
    const user = await ctx.store.read((tx) => tx.getUser(person.id));
    const matches = await verifyPassword(password, user?.passwordHash ?? (await dummy()));
    if (!matches || !user || user.passwordHash === null) {
      throw reauthRequired(field, `${field} is not your current password`);
    }
    throttle.clear(buckets.map((bucket) => bucket.key));
  }

  return {
    async login({ name, password, ip }) {
      const buckets = passwordBuckets(name, ip, free);
      const wait = throttle.take(buckets);
      if (wait > 0) throw rateLimited(wait);
      const user = await ctx.store.read((tx) => tx.getUserByName(name));
      const stored = user?.passwordHash ?? (await dummy());
      const matches = await verifyPassword(password, stored);
      if (!user || !matches || user.disabled || user.passwordHash === null)
        return refuse(name, user?.id ?? null, ip);
      const [nameAtAddress, address] = buckets;
      throttle.clear(nameAtAddress ? [nameAtAddress.key] : []);
      throttle.refund(address ? [address.key] : []);
      return commit(ctx, async (tools) => {
        const current = await tools.tx.getUser(user.id);
        if (!current || current.disabled) throw new GatehouseError('UNAUTHENTICATED', WRONG_CREDENTIALS);
        return insertSession(tools, current, 'password', ip);
      });
    },

    async loginWithLink({ token, ip }) {
      const buckets = linkBuckets(ip, free);
      const wait = throttle.take(buckets);
      if (wait > 0) throw rateLimited(wait);
      const invalid = new GatehouseError('UNAUTHENTICATED', 'the login link is unknown, used or expired');
      const session = await commit(ctx, async (tools) => {
        const { tx } = tools;
        const record = await tx.getToken(hashToken(token));
        if (record?.kind !== 'login_link' || record.revokedAt !== null) throw invalid;
        if (record.expiresAt !== null && record.expiresAt <= tx.now) throw invalid;
        const user = await tx.getUser(record.subjectId);
        if (!user || user.disabled) throw invalid;
        // The revocation is the fence: of two racing exchanges only one revokes the link.
        if (!(await tx.revokeToken(record.tokenHash, tx.now))) throw invalid;
        return insertSession(tools, user, 'login_link', ip);
      });
      throttle.refund(buckets.map((bucket) => bucket.key));
      return session;
    },

    async logout(userId, token) {
      return commit(ctx, async ({ tx, audit }) => {
        const user = await tx.getUser(userId);
        const hasPassword = user?.passwordHash != null;
        if (token === null) return { hasPassword };
        const record = await tx.getToken(hashToken(token));
        if (record?.kind !== 'session' || record.subjectId !== userId) return { hasPassword };
        if (await tx.revokeToken(record.tokenHash, tx.now)) {
          await audit({ kind: 'session.ended', actor: `user:${userId}`, subject: userId, data: {} });
        }
        return { hasPassword };
      });
    },

    issueLoginLink: insertLoginLink,

    reauthenticate,

    async setPassword(person, { currentPassword, newPassword }) {
      await reauthenticate(person, currentPassword, 'currentPassword');
      const passwordHash = await hashPassword(newPassword);
      await commit(ctx, async ({ tx, audit }) => {
        const user = await tx.getUser(person.id);
        if (!user || user.disabled)
          throw new GatehouseError('UNAUTHENTICATED', 'log in or send a bearer token');
        if (newPassword.trim().toLowerCase() === user.name.toLowerCase()) {
          throw invalidInput('newPassword', 'must not be your login name');
        }
        await tx.updateUser({ ...user, passwordHash });
        const linksRevoked = await tx.revokeTokensOf(user.id, 'login_link', tx.now);
        await audit({
          kind: 'user.password_changed',
          actor: `user:${user.id}`,
          subject: user.id,
          data: { first: user.passwordHash === null, linksRevoked },
        });
      });
    },
  };
}

function reauthRequired(field: string, message: string): GatehouseError {
  return new GatehouseError('REAUTHENTICATION_REQUIRED', message, { field });
}

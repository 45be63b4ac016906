import { GatehouseError } from '@gatehouse/core';
import type { StoreTx, UserRecord } from '@gatehouse/store';
import { generateToken, hashPassword, hashToken, verifyPassword } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import { commit } from './commit.js';
import { createAttemptLimiter } from './login-limiter.js';
import { type PublicUser, publicUser } from './users.js';

/** Sessions last 12 hours. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** One-time login links last 15 minutes. */
export const LOGIN_LINK_TTL_MS = 15 * 60 * 1000;

export interface SessionResult {
  token: string;
  expiresAt: number;
  user: PublicUser;
}

/** People signing in and out. */
export interface SessionService {
  login(input: { name: string; password: string; ip: string }): Promise<SessionResult>;
  /** Exchanges a one-time login link token for a session; the link works once. */
  loginWithLink(input: { token: string; ip: string }): Promise<SessionResult>;
  logout(userId: string, token: string | null): Promise<void>;
  /** A one-time login link for a person (first start, or an admin helping someone in). */
  issueLoginLink(tx: StoreTx, userId: string, actor: string): Promise<{ token: string; expiresAt: number }>;
}

const WRONG_CREDENTIALS = 'name or password is wrong';

async function insertSession(tx: StoreTx, user: UserRecord, via: string, ip: string): Promise<SessionResult> {
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
  await tx.appendAudit({
    kind: 'session.started',
    actor: `user:${user.id}`,
    subject: user.id,
    data: { via, ip, expiresAt, tokenId: hashToken(token).slice(0, 12) },
  });
  return { token, expiresAt, user: publicUser(user) };
}

/** Creates the sign-in service; attempts are limited per name and per address. */
export function createSessionService(ctx: AppContext): SessionService {
  const limiter = createAttemptLimiter({
    limit: ctx.config.loginAttemptsPerMinute,
    windowMs: 60_000,
    now: () => ctx.clock.now(),
  });
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

  return {
    async login({ name, password, ip }) {
      if (!limiter.take([`name:${name.toLowerCase()}`, `ip:${ip}`])) {
        throw new GatehouseError('RATE_LIMITED', 'too many login attempts; wait a minute and try again');
      }
      const user = await ctx.store.read((tx) => tx.getUserByName(name));
      const stored = user?.passwordHash ?? (await dummy());
      const matches = await verifyPassword(password, stored);
      if (!user || !matches || user.disabled || user.passwordHash === null)
        return refuse(name, user?.id ?? null, ip);
      return commit(ctx, async ({ tx }) => {
        const current = await tx.getUser(user.id);
        if (!current || current.disabled) throw new GatehouseError('UNAUTHENTICATED', WRONG_CREDENTIALS);
        return insertSession(tx, current, 'password', ip);
      });
    },

    async loginWithLink({ token, ip }) {
      if (!limiter.take([`ip:${ip}`])) {
        throw new GatehouseError('RATE_LIMITED', 'too many login attempts; wait a minute and try again');
      }
      const invalid = new GatehouseError('UNAUTHENTICATED', 'the login link is unknown, used or expired');
      return commit(ctx, async ({ tx }) => {
        const record = await tx.getToken(hashToken(token));
        if (record?.kind !== 'login_link' || record.revokedAt !== null) throw invalid;
        if (record.expiresAt !== null && record.expiresAt <= tx.now) throw invalid;
        const user = await tx.getUser(record.subjectId);
        if (!user || user.disabled) throw invalid;
        // The revocation is the fence: of two racing exchanges only one revokes the link.
        if (!(await tx.revokeToken(record.tokenHash, tx.now))) throw invalid;
        return insertSession(tx, user, 'login_link', ip);
      });
    },

    async logout(userId, token) {
      if (token === null) return;
      await commit(ctx, async ({ tx, audit }) => {
        const record = await tx.getToken(hashToken(token));
        if (record?.kind !== 'session' || record.subjectId !== userId) return;
        if (await tx.revokeToken(record.tokenHash, tx.now)) {
          await audit({ kind: 'session.ended', actor: `user:${userId}`, subject: userId, data: {} });
        }
      });
    },

    async issueLoginLink(tx, userId, actor) {
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
      await tx.appendAudit({
        kind: 'token.issued',
        actor,
        subject: userId,
        data: { kind: 'login_link', expiresAt, tokenId: hashToken(token).slice(0, 12) },
      });
      return { token, expiresAt };
    },
  };
}

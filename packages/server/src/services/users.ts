import { GatehouseError, type Role } from '@gatehouse/core';
import type { StoreTx, UserRecord } from '@gatehouse/store';
import { keyFingerprint, parseEd25519PublicKey } from '../auth/keys.js';
import { hashPassword } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import { commit } from './commit.js';

/** A person as the API shows them: never the password hash. */
export interface PublicUser {
  id: string;
  name: string;
  role: Role;
  disabled: boolean;
  createdAt: number;
}

export interface PublicSigningKey {
  id: string;
  fingerprint: string;
  publicKey: string;
  createdAt: number;
}

export function publicUser(user: UserRecord): PublicUser {
  return {
    id: user.id,
    name: user.name,
    role: user.role,
    disabled: user.disabled,
    createdAt: user.createdAt,
  };
}

/** People: created and changed by admins; each registers their own signing keys. */
export interface UserService {
  create(actorId: string, input: { name: string; password: string; role: Role }): Promise<PublicUser>;
  list(): Promise<PublicUser[]>;
  get(userId: string): Promise<PublicUser>;
  update(
    actorId: string,
    userId: string,
    input: { role?: Role | undefined; disabled?: boolean | undefined },
  ): Promise<PublicUser>;
  registerKey(userId: string, publicKey: string): Promise<PublicSigningKey>;
  listKeys(userId: string): Promise<PublicSigningKey[]>;
}

function notFound(userId: string): GatehouseError {
  return new GatehouseError('NOT_FOUND', `no person ${userId}`, { userId });
}

async function activeAdmins(tx: StoreTx): Promise<number> {
  const users = await tx.listUsers();
  return users.filter((user) => user.role === 'admin' && !user.disabled).length;
}

async function applyUpdate(
  tx: StoreTx,
  actor: string,
  user: UserRecord,
  input: { role?: Role | undefined; disabled?: boolean | undefined },
): Promise<UserRecord> {
  const next: UserRecord = {
    ...user,
    role: input.role ?? user.role,
    disabled: input.disabled ?? user.disabled,
  };
  const losesAdmin = user.role === 'admin' && !user.disabled && (next.role !== 'admin' || next.disabled);
  if (losesAdmin && (await activeAdmins(tx)) <= 1) {
    throw new GatehouseError(
      'INVALID_TRANSITION',
      'the last admin cannot be demoted or disabled; make someone else admin first',
      {
        userId: user.id,
      },
    );
  }
  await tx.updateUser(next);
  if (next.role !== user.role) {
    await tx.appendAudit({
      kind: 'user.role_changed',
      actor,
      subject: user.id,
      data: { from: user.role, to: next.role },
    });
  }
  if (next.disabled !== user.disabled) {
    const revoked = next.disabled ? await tx.revokeTokensOf(user.id, 'session', tx.now) : 0;
    if (next.disabled) await tx.revokeTokensOf(user.id, 'login_link', tx.now);
    const kind = next.disabled ? 'user.disabled' : 'user.enabled';
    await tx.appendAudit({ kind, actor, subject: user.id, data: { sessionsRevoked: revoked } });
  }
  return next;
}

/** Creates the people service. */
export function createUserService(ctx: AppContext): UserService {
  return {
    async create(actorId, input) {
      const passwordHash = await hashPassword(input.password);
      return commit(ctx, async ({ tx, audit }) => {
        if (await tx.getUserByName(input.name)) {
          throw new GatehouseError('CONFLICT', `a person named ${input.name} already exists`, {
            name: input.name,
          });
        }
        const user: UserRecord = {
          id: ctx.ids.next('user'),
          name: input.name,
          role: input.role,
          passwordHash,
          disabled: false,
          createdAt: tx.now,
        };
        await tx.insertUser(user);
        await audit({
          kind: 'user.created',
          actor: `user:${actorId}`,
          subject: user.id,
          data: { name: user.name, role: user.role },
        });
        return publicUser(user);
      });
    },

    async list() {
      const users = await ctx.store.read((tx) => tx.listUsers());
      return users.map(publicUser);
    },

    async get(userId) {
      const user = await ctx.store.read((tx) => tx.getUser(userId));
      if (!user) throw notFound(userId);
      return publicUser(user);
    },

    async update(actorId, userId, input) {
      return commit(ctx, async ({ tx }) => {
        const user = await tx.getUser(userId);
        if (!user) throw notFound(userId);
        return publicUser(await applyUpdate(tx, `user:${actorId}`, user, input));
      });
    },

    async registerKey(userId, publicKey) {
      const fingerprint = keyFingerprint(parseEd25519PublicKey(publicKey));
      return commit(ctx, async ({ tx, audit }) => {
        const existing = await tx.listSigningKeys(userId);
        const same = existing.find(
          (key) =>
            key.revokedAt === null && keyFingerprint(parseEd25519PublicKey(key.publicKey)) === fingerprint,
        );
        if (same) throw new GatehouseError('CONFLICT', 'this key is already registered', { keyId: same.id });
        const key = {
          id: ctx.ids.next('key'),
          userId,
          publicKey: publicKey.trim(),
          createdAt: tx.now,
          revokedAt: null,
        };
        await tx.insertSigningKey(key);
        await audit({
          kind: 'key.registered',
          actor: `user:${userId}`,
          subject: userId,
          data: { keyId: key.id, fingerprint },
        });
        return { id: key.id, fingerprint, publicKey: key.publicKey, createdAt: key.createdAt };
      });
    },

    async listKeys(userId) {
      const keys = await ctx.store.read((tx) => tx.listSigningKeys(userId));
      return keys
        .filter((key) => key.revokedAt === null)
        .map((key) => ({
          id: key.id,
          fingerprint: keyFingerprint(parseEd25519PublicKey(key.publicKey)),
          publicKey: key.publicKey,
          createdAt: key.createdAt,
        }));
    },
  };
}

import { verify } from 'node:crypto';
import { GatehouseError, keyProofText, type Role } from 'gatehouse-hitl-core';
import type { SigningKeyRecord, TokensRepo, TxClock, UserRecord, UsersRepo } from 'gatehouse-hitl-store';
import { keyFingerprint, parseEd25519PublicKey } from '../../auth/keys.js';
import { generateToken, hashPassword, hashToken } from '../../auth/secrets.js';
import type { AppContext } from '../../context.js';
import { type AuditedTx, commit } from '../commit.js';
import { invalidInput } from '../gates/gate-input.js';
import { type PublicUser, publicUser } from './public-user.js';
import { insertLoginLink, type SessionService, type SignedInPerson } from './sessions.js';

export interface PublicSigningKey {
  id: string;
  fingerprint: string;
  publicKey: string;
  name: string | null;
  createdAt: number;
  /** When a decision signed with it last verified; null until then. */
  lastUsedAt: number | null;
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
  /** A one-time challenge the person signs with the key they register; valid 5 minutes. */
  keyChallenge(userId: string): Promise<{ challenge: string; expiresAt: number }>;
  /**
   * Registers a key after a recent sign-in or the password, with a proof (the challenge signed by
   * the key); a key belongs to one person only.
   */
  registerKey(person: SignedInPerson, input: RegisterKeyInput): Promise<PublicSigningKey>;
  /** The person's keys in force, oldest first. */
  listKeys(userId: string): Promise<PublicSigningKey[]>;
  /** Names one of the person's own keys; null clears the name. */
  renameKey(userId: string, keyId: string, name: string | null): Promise<PublicSigningKey>;
  /** Revokes one of the person's own keys: it verifies no signature from now on. */
  revokeKey(userId: string, keyId: string): Promise<void>;
  /** Whether the person can sign in with a password (or only by login link). */
  hasPassword(userId: string): Promise<boolean>;
  /** A one-time login link for someone else, issued by an admin. */
  issueLoginLink(actorId: string, userId: string): Promise<{ token: string; expiresAt: number }>;
}

export interface RegisterKeyInput {
  publicKey: string;
  name?: string | undefined;
  challenge: string;
  proof: string;
  password?: string | undefined;
}

/** Key registration challenges last 5 minutes. */
export const KEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

function decodeProof(proof: string): Buffer | null {
  const text = proof.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text, /[-_]/.test(text) ? 'base64url' : 'base64');
  return bytes.length === 64 ? bytes : null;
}

/** Uses up the person's challenge; a used, expired or someone else's challenge is refused. */
async function useChallenge(tx: TokensRepo & TxClock, userId: string, challenge: string): Promise<void> {
  const record = await tx.getToken(hashToken(challenge));
  const live =
    record?.kind === 'key_challenge' &&
    record.subjectId === userId &&
    record.revokedAt === null &&
    (record.expiresAt === null || record.expiresAt > tx.now);
  if (!record || !live || !(await tx.revokeToken(record.tokenHash, tx.now))) {
    throw invalidInput('challenge', 'unknown, used or expired; get a new one from GET /v1/me/keys/challenge');
  }
}

/** One key, one person: a key someone else registered is never theirs to sign with too. */
async function refuseTakenKey(tx: UsersRepo, userId: string, fingerprint: string): Promise<void> {
  const existing = await tx.getSigningKeyByFingerprint(fingerprint);
  if (existing === null) return;
  if (existing.userId !== userId) {
    throw new GatehouseError(
      'CONFLICT',
      'this key is registered to someone else; each person signs with a key of their own',
      { field: 'publicKey' },
    );
  }
  const message =
    existing.revokedAt === null ? 'this key is already registered' : 'this key was revoked; make a new one';
  throw new GatehouseError('CONFLICT', message, {
    field: 'publicKey',
    keyId: existing.id,
    revoked: existing.revokedAt !== null,
  });
}

function keyNotFound(keyId: string): GatehouseError {
  return new GatehouseError(
    'NOT_FOUND',
    `you have no signing key ${keyId} in force; list yours with GET /v1/me/keys`,
    {
      keyId,
    },
  );
}

function publicKeyOf(key: SigningKeyRecord): PublicSigningKey {
  return {
    id: key.id,
    fingerprint: keyFingerprint(parseEd25519PublicKey(key.publicKey)),
    publicKey: key.publicKey,
    name: key.name,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
  };
}

function notFound(userId: string): GatehouseError {
  return new GatehouseError('NOT_FOUND', `no person ${userId}`, { userId });
}

async function activeAdmins(tx: UsersRepo): Promise<number> {
  const users = await tx.listUsers();
  return users.filter((user) => user.role === 'admin' && !user.disabled).length;
}

async function applyUpdate(
  tools: AuditedTx<UsersRepo & TokensRepo & TxClock>,
  actor: string,
  user: UserRecord,
  input: { role?: Role | undefined; disabled?: boolean | undefined },
): Promise<UserRecord> {
  const { tx } = tools;
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
    await tools.audit({
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
    await tools.audit({ kind, actor, subject: user.id, data: { sessionsRevoked: revoked } });
  }
  return next;
}

/** Creates the people service. */
export function createUserService(ctx: AppContext, sessions: SessionService): UserService {
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
      return commit(ctx, async (tools) => {
        const user = await tools.tx.getUser(userId);
        if (!user) throw notFound(userId);
        return publicUser(await applyUpdate(tools, `user:${actorId}`, user, input));
      });
    },

    async keyChallenge(userId) {
      const challenge = generateToken('ghk');
      return commit(ctx, async ({ tx }) => {
        const expiresAt = tx.now + KEY_CHALLENGE_TTL_MS;
        await tx.insertToken({
          tokenHash: hashToken(challenge),
          kind: 'key_challenge',
          subjectId: userId,
          createdAt: tx.now,
          expiresAt,
          revokedAt: null,
        });
        return { challenge, expiresAt };
      });
    },

    async registerKey(person, input) {
      const key = parseEd25519PublicKey(input.publicKey);
      const fingerprint = keyFingerprint(key);
      await sessions.reauthenticate(person, input.password, 'password');
      return commit(ctx, async ({ tx, audit }) => {
        await useChallenge(tx, person.id, input.challenge);
        const proof = decodeProof(input.proof);
        const text = Buffer.from(keyProofText({ challenge: input.challenge, userId: person.id }), 'utf8');
        if (proof === null || !verify(null, text, key, proof)) {
          throw new GatehouseError(
            'SIGNATURE_INVALID',
            'proof: sign the key proof text for this challenge with the private half of publicKey',
            { field: 'proof' },
          );
        }
        await refuseTakenKey(tx, person.id, fingerprint);
        const record: SigningKeyRecord = {
          id: ctx.ids.next('key'),
          userId: person.id,
          publicKey: input.publicKey.trim(),
          fingerprint,
          name: input.name ?? null,
          createdAt: tx.now,
          revokedAt: null,
          lastUsedAt: null,
        };
        await tx.insertSigningKey(record);
        await audit({
          kind: 'key.registered',
          actor: `user:${person.id}`,
          subject: person.id,
          data: { keyId: record.id, fingerprint },
        });
        return publicKeyOf(record);
      });
    },

    async issueLoginLink(actorId, userId) {
      return commit(ctx, async (tools) => {
        const user = await tools.tx.getUser(userId);
        if (!user) throw notFound(userId);
        if (user.disabled) {
          throw new GatehouseError(
            'INVALID_TRANSITION',
            `${user.name} is disabled; enable them first (PATCH /v1/users/${userId})`,
            { userId },
          );
        }
        return insertLoginLink(tools, userId, `user:${actorId}`);
      });
    },

    async hasPassword(userId) {
      const user = await ctx.store.read((tx) => tx.getUser(userId));
      return user?.passwordHash != null;
    },

    async listKeys(userId) {
      const keys = await ctx.store.read((tx) => tx.listSigningKeys(userId));
      return keys.filter((key) => key.revokedAt === null).map(publicKeyOf);
    },

    async renameKey(userId, keyId, name) {
      return commit(ctx, async ({ tx, audit }) => {
        if (!(await tx.renameSigningKey({ userId, id: keyId, name }))) throw keyNotFound(keyId);
        await audit({ kind: 'key.renamed', actor: `user:${userId}`, subject: userId, data: { keyId, name } });
        const key = (await tx.listSigningKeys(userId)).find((candidate) => candidate.id === keyId);
        if (!key) throw keyNotFound(keyId);
        return publicKeyOf(key);
      });
    },

    async revokeKey(userId, keyId) {
      await commit(ctx, async ({ tx, audit }) => {
        if (!(await tx.revokeSigningKey({ userId, id: keyId, at: tx.now }))) throw keyNotFound(keyId);
        await audit({ kind: 'key.revoked', actor: `user:${userId}`, subject: userId, data: { keyId } });
      });
    },
  };
}

import { createHash, createPublicKey } from 'node:crypto';
import type { Migration } from 'kysely/migration';

type MigrationDb = Parameters<Migration['up']>[0];

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** SHA-256 of the raw 32 key bytes, hex, as the server names keys; null for a key that does not parse. */
export function signingKeyFingerprint(publicKey: string): string | null {
  const text = publicKey.trim();
  try {
    const raw = text.startsWith('-----BEGIN')
      ? createPublicKey(text).export({ format: 'der', type: 'spki' }).subarray(ED25519_SPKI_PREFIX.length)
      : Buffer.from(text, /[-_]/.test(text) ? 'base64url' : 'base64');
    return raw.length === 32 ? createHash('sha256').update(raw).digest('hex') : null;
  } catch {
    return null;
  }
}

// The earliest registration keeps a fingerprint claimed twice; later ones are revoked, not guessed at.
async function backfillFingerprints(db: MigrationDb): Promise<void> {
  const rows = await db
    .selectFrom('signing_keys')
    .select(['id', 'public_key', 'revoked_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const seen = new Set<string>();
  for (const row of rows as { id: string; public_key: string; revoked_at: number | null }[]) {
    const fingerprint = signingKeyFingerprint(row.public_key);
    const taken = fingerprint === null || seen.has(fingerprint);
    if (fingerprint !== null) seen.add(fingerprint);
    await db
      .updateTable('signing_keys')
      .set(taken ? { revoked_at: row.revoked_at ?? Date.now() } : { fingerprint })
      .where('id', '=', row.id)
      .execute();
  }
}

// Agents created through the API have an `agent.created` audit event whose actor is their creator.
async function backfillOwners(db: MigrationDb): Promise<void> {
  const events = await db
    .selectFrom('audit_events')
    .select(['subject', 'actor'])
    .where('kind', '=', 'agent.created')
    .where('actor', 'like', 'user:%')
    .execute();
  for (const event of events as { subject: string | null; actor: string }[]) {
    if (event.subject === null) continue;
    await db
      .updateTable('agents')
      .set({ created_by: event.actor.slice('user:'.length) })
      .where('id', '=', event.subject)
      .where('created_by', 'is', null)
      .execute();
  }
}

/** Agents get an owner; a signing key's fingerprint is unique across everyone. */
export function accountsMigration(): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('agents').addColumn('created_by', 'text').execute();
      await db.schema.alterTable('signing_keys').addColumn('fingerprint', 'text').execute();
      await backfillOwners(db);
      await backfillFingerprints(db);
      await db.schema
        .createIndex('signing_keys_fingerprint')
        .on('signing_keys')
        .column('fingerprint')
        .unique()
        .execute();
    },
  };
}

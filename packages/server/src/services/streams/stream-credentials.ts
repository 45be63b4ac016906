import type { CredentialRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';

/** The credential an event stream was opened with, and who it said the caller was. */
export interface StreamCredential {
  tokenHash: string;
  principal: Exclude<Principal, { kind: 'anonymous' }>;
}

/** Re-checks the credentials of open streams, all of them in one query per tick. */
export interface CredentialWatch {
  /** Calls `onRevoked` once the credential no longer names the same principal; returns the unwatch. */
  watch(credential: StreamCredential, onRevoked: () => void): () => void;
  close(): void;
}

/** Hashes per query: beyond this many distinct credentials a tick takes more than one. */
const QUERY_CHUNK = 500;

/**
 * Whether the stored credential still gives exactly the principal the stream was opened for: not
 * revoked or expired, same agent, same person with the same role, not disabled. Any change ends the
 * stream; the client reconnects and is authorized afresh.
 */
export function isStillValid(
  record: CredentialRecord | undefined,
  principal: StreamCredential['principal'],
  now: number,
): boolean {
  if (record === undefined) return false;
  const { token, user } = record;
  if (token.revokedAt !== null || (token.expiresAt !== null && token.expiresAt <= now)) return false;
  if (principal.kind === 'agent') return token.kind === 'agent' && token.subjectId === principal.id;
  return (
    token.kind === 'session' &&
    user !== null &&
    !user.disabled &&
    user.id === principal.id &&
    user.role === principal.role
  );
}

interface Watched {
  credential: StreamCredential;
  onRevoked(): void;
}

/** Creates the watch; its timer runs only while some stream is watched. */
export function createCredentialWatch(ctx: AppContext, options: { intervalMs: number }): CredentialWatch {
  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | null = null;
  let checking = false;

  async function check(): Promise<void> {
    const entries = [...watched];
    const hashes = [...new Set(entries.map((entry) => entry.credential.tokenHash))];
    const found = new Map<string, CredentialRecord>();
    for (let start = 0; start < hashes.length; start += QUERY_CHUNK) {
      const chunk = hashes.slice(start, start + QUERY_CHUNK);
      for (const record of await ctx.store.read((tx) => tx.getCredentials(chunk))) {
        found.set(record.token.tokenHash, record);
      }
    }
    const now = ctx.clock.now();
    for (const entry of entries) {
      if (!watched.has(entry)) continue;
      if (isStillValid(found.get(entry.credential.tokenHash), entry.credential.principal, now)) continue;
      watched.delete(entry);
      entry.onRevoked();
    }
  }

  function tick(): void {
    if (checking || watched.size === 0) return;
    checking = true;
    check()
      // Without the database nothing new can reach a stream; the next tick checks again.
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'could not re-check stream credentials'))
      .finally(() => {
        checking = false;
      });
  }

  function stopTimerWhenIdle(): void {
    if (watched.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  }

  return {
    watch(credential, onRevoked) {
      const entry: Watched = { credential, onRevoked };
      watched.add(entry);
      if (timer === null) {
        timer = setInterval(tick, options.intervalMs);
        timer.unref();
      }
      return () => {
        watched.delete(entry);
        stopTimerWhenIdle();
      };
    },
    close() {
      watched.clear();
      stopTimerWhenIdle();
    },
  };
}

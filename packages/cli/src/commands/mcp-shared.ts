import type { Env } from '../command.js';
import { normalizeUrl, readStoredCredentials } from '../credentials.js';

/** What a run id looks like. */
export const RUN_ID = /^run_[A-Za-z0-9_]{1,64}$/;

/** The stored login's token, only for the server it was issued by. */
export function storedToken(env: Env, url: string): string | null {
  const stored = readStoredCredentials(env);
  return stored && normalizeUrl(stored.url) === url ? stored.token : null;
}

/** Settles on SIGINT or SIGTERM; `dispose` removes the listeners. */
export function untilSignal(): { stopped: Promise<void>; dispose(): void } {
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = () => resolve();
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    stopped,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';

const SECRET_NAME = 'email-action-links';

/**
 * The HMAC key emailed decision links are signed with: created once in the store by whichever node
 * asks first, so every node of one database verifies every link. Read once per app.
 */
export function linkSecretOf(ctx: AppContext): () => Promise<string> {
  let secret: Promise<string> | null = null;
  return (): Promise<string> => {
    if (secret === null) {
      const candidate = randomBytes(32).toString('base64url');
      const loading: Promise<string> = ctx.store.transaction((tx) =>
        tx.ensureNotificationSecret(SECRET_NAME, candidate),
      );
      loading.catch(() => {
        if (secret === loading) secret = null;
      });
      secret = loading;
    }
    return secret;
  };
}

import { useCallback, useEffect, useState } from 'react';
import { ApiError, errorText } from '../api/client.js';
import { keyChallenge, registerSigningKey } from '../api/gate-review.js';
import { useSession } from '../app/session.js';
import { isReauthRequired } from '../components/ReauthNeeded.js';
import { createSigningKey, loadSigningKey, signingUnavailableReason } from './browser-key.js';
import { signKeyProof } from './decision-signature.js';
import type { StoredSigningKey } from './key-store.js';

export type SigningKeyState =
  | { status: 'loading' }
  | { status: 'unavailable'; reason: string }
  | { status: 'none' }
  | { status: 'ready'; key: StoredSigningKey; registered: boolean };

export interface SigningKeyControl {
  state: SigningKeyState;
  busy: boolean;
  error: string | null;
  /** The server asked to confirm the sign-in (over 5 minutes old): by password, or by a fresh link. */
  passwordNeeded: boolean;
  /** Makes a key in this browser (replacing an unregistered one) and registers its public half. */
  create(): Promise<void>;
  /** Registers the key this browser already has, with the password when the server asked for it. */
  register(password?: string): Promise<void>;
}

/** This browser's signing key for the signed-in person, and whether the server knows it. */
export function useSigningKey(enabled: boolean): SigningKeyControl {
  const session = useSession();
  const signedIn = session.state.status === 'signed-in' ? session.state : null;
  const userId = signedIn?.user.id ?? null;
  const registered = signedIn?.keys.map((key) => key.fingerprint) ?? [];
  const [stored, setStored] = useState<StoredSigningKey | null | undefined>(undefined);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [passwordNeeded, setPasswordNeeded] = useState(false);

  useEffect(() => {
    if (!enabled || userId === null) return;
    const reason = signingUnavailableReason();
    if (reason !== null) {
      setUnavailable(reason);
      return;
    }
    let live = true;
    loadSigningKey(userId).then(
      (key) => live && setStored(key),
      (failure: unknown) => live && setUnavailable(errorText(failure)),
    );
    return () => {
      live = false;
    };
  }, [enabled, userId]);

  const upload = useCallback(
    async (key: StoredSigningKey, password?: string) => {
      if (userId === null) return;
      try {
        const { challenge } = await keyChallenge();
        const proof = await signKeyProof(key, challenge, userId);
        await registerSigningKey({
          publicKey: key.publicKeyBase64,
          challenge,
          proof,
          ...(password ? { password } : {}),
        });
        setPasswordNeeded(false);
      } catch (failure) {
        if (isReauthRequired(failure)) {
          setPasswordNeeded(true);
          // Asked for the first time, the panel says what to do; a wrong password is an error.
          if (password === undefined) return;
          throw new Error('That is not your current password.');
        }
        // The server already has this exact key of yours in force (it names it): nothing to do.
        const mine =
          failure instanceof ApiError &&
          failure.code === 'CONFLICT' &&
          'keyId' in failure.details &&
          failure.details.revoked !== true;
        if (!mine) throw failure;
      }
      await session.refresh();
    },
    [session, userId],
  );

  const run = useCallback(async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }, []);

  const create = useCallback(
    () =>
      run(async () => {
        if (userId === null) return;
        const key = await createSigningKey(userId);
        setStored(key);
        await upload(key);
      }),
    [run, upload, userId],
  );

  const register = useCallback(
    (password?: string) =>
      run(async () => {
        if (stored) await upload(stored, password);
      }),
    [run, upload, stored],
  );

  let state: SigningKeyState;
  if (unavailable !== null) state = { status: 'unavailable', reason: unavailable };
  else if (stored === undefined) state = { status: 'loading' };
  else if (stored === null) state = { status: 'none' };
  else state = { status: 'ready', key: stored, registered: registered.includes(stored.fingerprint) };
  return { state, busy, error, passwordNeeded, create, register };
}

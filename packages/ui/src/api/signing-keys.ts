import { authRoutes, type SigningKeyDocument } from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

/** Names one of your signing keys; null clears the name. */
export async function renameSigningKey(keyId: string, name: string | null): Promise<SigningKeyDocument> {
  const answer = await callApi(authRoutes.renameKey, { params: { keyId }, body: { name } });
  return answer.key;
}

/** Revokes one of your signing keys: it verifies no signature from then on. */
export async function revokeSigningKey(keyId: string): Promise<void> {
  await callApi(authRoutes.revokeKey, { params: { keyId } });
}

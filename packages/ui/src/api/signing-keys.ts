import type { RegisterKeyResponse, SigningKeyDocument } from 'gatehouse-hitl-protocol';
import { api } from './client.js';

/** Names one of your signing keys; null clears the name. */
export async function renameSigningKey(keyId: string, name: string | null): Promise<SigningKeyDocument> {
  const answer = await api<RegisterKeyResponse>('PATCH', `/v1/me/keys/${encodeURIComponent(keyId)}`, {
    body: { name },
  });
  return answer.key;
}

/** Revokes one of your signing keys: it verifies no signature from then on. */
export async function revokeSigningKey(keyId: string): Promise<void> {
  await api('DELETE', `/v1/me/keys/${encodeURIComponent(keyId)}`);
}

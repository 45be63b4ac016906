import { expect, it } from 'vitest';
import { makeUser } from './fixtures.js';
import type { ContractContext } from './harness.js';

/** Which person a provider's subject signs in as. */
export function describeSsoIdentityContract(ctx: ContractContext): void {
  it('links a provider subject to one person, finds it, and keeps the first link of a subject', async () => {
    const { store } = ctx.harness();
    const [a, b] = [makeUser(), makeUser()];
    const identity = { issuer: 'https://id.example', subject: 'sub-1', userId: a.id, createdAt: 1_000 };
    await store.transaction(async (tx) => {
      await tx.insertUser(a);
      await tx.insertUser(b);
    });
    expect(await store.transaction((tx) => tx.insertSsoIdentity(identity))).toBe(true);
    const again = { ...identity, userId: b.id, createdAt: 2_000 };
    expect(await store.transaction((tx) => tx.insertSsoIdentity(again))).toBe(false);
    expect(await store.read((tx) => tx.getSsoIdentity('https://id.example', 'sub-1'))).toEqual(identity);
    expect(await store.read((tx) => tx.getSsoIdentity('https://other.example', 'sub-1'))).toBeNull();
    expect(await store.read((tx) => tx.listSsoIdentitiesOf(a.id))).toEqual([identity]);
    expect(await store.read((tx) => tx.listSsoIdentitiesOf(b.id))).toEqual([]);
  });
}

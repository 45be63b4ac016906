import { expect, it } from 'vitest';
import { makeUser, uid } from './fixtures.js';
import type { ContractContext } from './harness.js';

/** People's Slack user ids and the replay guard of signed Slack requests. */
export function describeSlackContract(ctx: ContractContext): void {
  it('sets, replaces, finds and removes a person’s Slack user id', async () => {
    const { store } = ctx.harness();
    const user = makeUser();
    await store.transaction((tx) => tx.insertUser(user));
    const link = { userId: user.id, slackUserId: 'U0AAA', createdBy: 'user:admin', createdAt: 1_000 };
    await store.transaction((tx) => tx.putSlackUser(link));
    expect(await store.read((tx) => tx.getSlackUser(user.id))).toEqual(link);
    const replaced = { ...link, slackUserId: 'U0BBB', createdAt: 2_000 };
    await store.transaction((tx) => tx.putSlackUser(replaced));
    expect(await store.read((tx) => tx.getSlackUserBySlackId('U0BBB'))).toEqual(replaced);
    expect(await store.read((tx) => tx.getSlackUserBySlackId('U0AAA'))).toBeNull();
    expect(await store.transaction((tx) => tx.deleteSlackUser(user.id))).toBe(true);
    expect(await store.transaction((tx) => tx.deleteSlackUser(user.id))).toBe(false);
    expect(await store.read((tx) => tx.getSlackUser(user.id))).toBeNull();
  });

  it('refuses one Slack user id for two people with CONFLICT', async () => {
    const { store } = ctx.harness();
    const [a, b] = [makeUser(), makeUser()];
    await store.transaction(async (tx) => {
      await tx.insertUser(a);
      await tx.insertUser(b);
      await tx.putSlackUser({ userId: a.id, slackUserId: 'U0SAME', createdBy: 'x', createdAt: 1 });
    });
    await expect(
      store.transaction((tx) =>
        tx.putSlackUser({ userId: b.id, slackUserId: 'U0SAME', createdBy: 'x', createdAt: 1 }),
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await store.read((tx) => tx.getSlackUser(b.id))).toBeNull();
  });

  it('claims a signed request once and forgets it once its window has passed', async () => {
    const { store } = ctx.harness();
    const signature = uid('v0=sig');
    expect(await store.transaction((tx) => tx.claimSlackRequest(signature, 10_000, 0))).toBe(true);
    expect(await store.transaction((tx) => tx.claimSlackRequest(signature, 10_500, 0))).toBe(false);
    expect(await store.transaction((tx) => tx.claimSlackRequest(signature, 400_000, 10_001))).toBe(true);
  });
}

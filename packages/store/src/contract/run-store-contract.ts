import { afterEach, beforeEach, describe } from 'vitest';
import { describeAuditContract } from './audit.contract.js';
import { describeCommitContract } from './commit.contract.js';
import { describeGateViewContract } from './gate-views.contract.js';
import { describeGateContract } from './gates.contract.js';
import type { ContractContext, StoreHarness } from './harness.js';
import { describeNotificationContract } from './notifications.contract.js';
import { describeRecordContract } from './records.contract.js';
import { describeRecoveryContract } from './recoveries.contract.js';
import { describeReviewContract } from './reviews.contract.js';
import { describeSlackContract } from './slack.contract.js';
import { describeSsoIdentityContract } from './sso-identities.contract.js';
import { describeStreamContract } from './stream.contract.js';
import { describeTrustContract } from './trust.contract.js';
import { describeWebhookContract } from './webhooks.contract.js';
import { describeWhitelistContract } from './whitelists.contract.js';

export type { ContractContext, StoreHarness } from './harness.js';

/**
 * The one suite every Store implementation must pass. `makeStore` is called before each test and
 * must return a store on an empty database.
 */
export function runStoreContract(name: string, makeStore: () => Promise<StoreHarness>): void {
  describe(`Store contract: ${name}`, () => {
    let current: StoreHarness | null = null;
    beforeEach(async () => {
      current = await makeStore();
    });
    afterEach(async () => {
      const done = current;
      current = null;
      await done?.cleanup();
    });
    const ctx: ContractContext = {
      harness() {
        if (current === null) throw new Error('the contract harness is only there inside a test');
        return current;
      },
    };
    describe('records', () => describeRecordContract(ctx));
    describe('gates', () => describeGateContract(ctx));
    describe('gate views', () => describeGateViewContract(ctx));
    describe('group commit', () => describeCommitContract(ctx));
    describe('audit chain', () => describeAuditContract(ctx));
    describe('stream events and JSON', () => describeStreamContract(ctx));
    describe('webhooks and the outbox', () => describeWebhookContract(ctx));
    describe('reviews', () => describeReviewContract(ctx));
    describe('recoveries', () => describeRecoveryContract(ctx));
    describe('whitelists', () => describeWhitelistContract(ctx));
    describe('slack', () => describeSlackContract(ctx));
    describe('single sign-on identities', () => describeSsoIdentityContract(ctx));
    describe('notifications', () => describeNotificationContract(ctx));
    describe('trust proposals', () => describeTrustContract(ctx));
  });
}

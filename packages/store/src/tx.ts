import { GatehouseError } from 'gatehouse-hitl-core';
import type { TxContext } from './db/schema.js';
import * as audit from './repos/audit.js';
import * as credentials from './repos/credentials.js';
import * as gateViews from './repos/gate-views.js';
import * as gates from './repos/gates.js';
import * as journal from './repos/journal.js';
import * as notices from './repos/notification-deliveries.js';
import * as notifications from './repos/notifications.js';
import * as people from './repos/people.js';
import * as recoveries from './repos/recoveries.js';
import * as reports from './repos/reports.js';
import * as reviewSummaries from './repos/review-summaries.js';
import * as reviews from './repos/reviews.js';
import * as rules from './repos/rules.js';
import * as runs from './repos/runs.js';
import * as searchIndex from './repos/search-index.js';
import * as slack from './repos/slack.js';
import * as ssoIdentities from './repos/sso-identities.js';
import * as stream from './repos/stream.js';
import * as trust from './repos/trust.js';
import * as deliveries from './repos/webhook-deliveries.js';
import * as webhooks from './repos/webhooks.js';
import * as whitelists from './repos/whitelists.js';
import type { StoreTx } from './types.js';

/** Each of `K`'s methods as the repository function that takes the context first. */
type RepoTable<K extends keyof StoreTx> = {
  [P in K]: StoreTx[P] extends (...args: infer A) => infer R ? (ctx: TxContext, ...args: A) => R : never;
};

type WebhookWrites =
  | 'insertWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'webhooksMayHear'
  | 'insertOutboxEvent'
  | 'claimOutboxEvents'
  | 'deleteOutboxEvents'
  | 'insertWebhookDelivery'
  | 'claimWebhookDeliveries'
  | 'finishWebhookAttempt'
  | 'releaseWebhookDelivery';

type Writes = Pick<
  StoreTx,
  | 'insertAgent'
  | 'updateAgentAutonomy'
  | 'insertUser'
  | 'updateUser'
  | 'insertToken'
  | 'revokeToken'
  | 'revokeTokensOf'
  | 'insertSigningKey'
  | 'renameSigningKey'
  | 'revokeSigningKey'
  | 'touchSigningKey'
  | 'insertRun'
  | 'updateRun'
  | 'insertGate'
  | 'updateGate'
  | 'recordGateView'
  | 'claimDueGates'
  | 'setGateTraceContext'
  | 'putIdempotency'
  | 'insertRememberedRule'
  | 'revokeRememberedRule'
  | 'insertConfidenceReport'
  | 'insertIntervention'
  | 'insertPolicyVersion'
  | 'appendAudit'
  | 'appendStreamEvent'
  | WebhookWrites
  | ReviewWrites
  | SearchWrites
  | RecoveryWrites
  | WhitelistWrites
  | SlackWrites
  | 'insertSsoIdentity'
  | NotificationWrites
  | 'insertTrustProposal'
  | 'updateTrustProposal'
>;

function writes(): RepoTable<keyof Writes> {
  return {
    insertAgent: people.insertAgent,
    updateAgentAutonomy: people.updateAgentAutonomy,
    insertUser: people.insertUser,
    updateUser: people.updateUser,
    insertToken: people.insertToken,
    revokeToken: people.revokeToken,
    revokeTokensOf: people.revokeTokensOf,
    insertSigningKey: people.insertSigningKey,
    renameSigningKey: people.renameSigningKey,
    revokeSigningKey: people.revokeSigningKey,
    touchSigningKey: people.touchSigningKey,
    insertRun: runs.insertRun,
    updateRun: runs.updateRun,
    insertGate: gates.insertGate,
    updateGate: gates.updateGate,
    recordGateView: gateViews.recordGateView,
    claimDueGates: gates.claimDueGates,
    setGateTraceContext: gates.setGateTraceContext,
    putIdempotency: rules.putIdempotency,
    insertRememberedRule: rules.insertRememberedRule,
    revokeRememberedRule: rules.revokeRememberedRule,
    insertConfidenceReport: reports.insertConfidenceReport,
    insertIntervention: reports.insertIntervention,
    insertPolicyVersion: rules.insertPolicyVersion,
    appendAudit: audit.appendAudit,
    appendStreamEvent: stream.appendStreamEvent,
    ...webhookWrites(),
    ...reviewWrites(),
    ...searchWrites(),
    ...recoveryWrites(),
    ...whitelistWrites(),
    ...slackWrites(),
    insertSsoIdentity: ssoIdentities.insertSsoIdentity,
    ...notificationWrites(),
    insertTrustProposal: trust.insertTrustProposal,
    updateTrustProposal: trust.updateTrustProposal,
  };
}

type NotificationWrites =
  | 'insertNotificationRule'
  | 'updateNotificationRule'
  | 'deleteNotificationRule'
  | 'putNotificationPreference'
  | 'insertNotificationTrigger'
  | 'claimNotificationTriggers'
  | 'deleteNotificationTriggers'
  | 'markTimeoutWarned'
  | 'insertNotification'
  | 'claimNotifications'
  | 'finishNotification'
  | 'releaseNotification'
  | 'ensureNotificationSecret'
  | 'useEmailActionLink'
  | 'releaseEmailActionLink';

function notificationWrites(): RepoTable<NotificationWrites> {
  return {
    insertNotificationRule: notifications.insertNotificationRule,
    updateNotificationRule: notifications.updateNotificationRule,
    deleteNotificationRule: notifications.deleteNotificationRule,
    putNotificationPreference: notifications.putNotificationPreference,
    insertNotificationTrigger: notifications.insertNotificationTrigger,
    claimNotificationTriggers: notifications.claimNotificationTriggers,
    deleteNotificationTriggers: notifications.deleteNotificationTriggers,
    markTimeoutWarned: notifications.markTimeoutWarned,
    insertNotification: notices.insertNotification,
    claimNotifications: notices.claimNotifications,
    finishNotification: notices.finishNotification,
    releaseNotification: notices.releaseNotification,
    ensureNotificationSecret: notifications.ensureNotificationSecret,
    useEmailActionLink: notifications.useEmailActionLink,
    releaseEmailActionLink: notifications.releaseEmailActionLink,
  };
}

type SlackWrites = 'putSlackUser' | 'deleteSlackUser' | 'claimSlackRequest';

function slackWrites(): RepoTable<SlackWrites> {
  return {
    putSlackUser: slack.putSlackUser,
    deleteSlackUser: slack.deleteSlackUser,
    claimSlackRequest: slack.claimSlackRequest,
  };
}

type WhitelistWrites =
  | 'insertWhitelist'
  | 'updateWhitelist'
  | 'setWhitelistReviewGate'
  | 'addWhitelistSuppressed'
  | 'deleteWhitelist'
  | 'insertDetections'
  | 'setPatternAlert';

function whitelistWrites(): RepoTable<WhitelistWrites> {
  return {
    insertWhitelist: whitelists.insertWhitelist,
    updateWhitelist: whitelists.updateWhitelist,
    setWhitelistReviewGate: whitelists.setWhitelistReviewGate,
    addWhitelistSuppressed: whitelists.addWhitelistSuppressed,
    deleteWhitelist: whitelists.deleteWhitelist,
    insertDetections: whitelists.insertDetections,
    setPatternAlert: whitelists.setPatternAlert,
  };
}

type RecoveryWrites = 'insertRecovery' | 'updateRecovery' | 'insertFalsePositive';

function recoveryWrites(): RepoTable<RecoveryWrites> {
  return {
    insertRecovery: recoveries.insertRecovery,
    updateRecovery: recoveries.updateRecovery,
    insertFalsePositive: recoveries.insertFalsePositive,
  };
}

type SearchWrites =
  | 'insertJournalEntries'
  | 'beginSearchIndex'
  | 'replaceSearchIndex'
  | 'failSearchIndex'
  | 'dropSearchIndex';

function searchWrites(): RepoTable<SearchWrites> {
  return {
    insertJournalEntries: journal.insertJournalEntries,
    beginSearchIndex: searchIndex.beginSearchIndex,
    replaceSearchIndex: searchIndex.replaceSearchIndex,
    failSearchIndex: searchIndex.failSearchIndex,
    dropSearchIndex: searchIndex.dropSearchIndex,
  };
}

type ReviewWrites =
  | 'insertReview'
  | 'updateReview'
  | 'insertReviewComment'
  | 'setReviewCommentResolved'
  | 'publishReviewComments'
  | 'insertReviewSummary'
  | 'setReviewFileView'
  | 'putReviewVerdict';

function reviewWrites(): RepoTable<ReviewWrites> {
  return {
    insertReview: reviews.insertReview,
    updateReview: reviews.updateReview,
    insertReviewComment: reviews.insertReviewComment,
    setReviewCommentResolved: reviews.setReviewCommentResolved,
    publishReviewComments: reviewSummaries.publishReviewComments,
    insertReviewSummary: reviewSummaries.insertReviewSummary,
    setReviewFileView: reviewSummaries.setReviewFileView,
    putReviewVerdict: reviews.putReviewVerdict,
  };
}

function webhookWrites(): RepoTable<WebhookWrites> {
  return {
    insertWebhook: webhooks.insertWebhook,
    updateWebhook: webhooks.updateWebhook,
    deleteWebhook: webhooks.deleteWebhook,
    webhooksMayHear: webhooks.webhooksMayHear,
    insertOutboxEvent: webhooks.insertOutboxEvent,
    claimOutboxEvents: webhooks.claimOutboxEvents,
    deleteOutboxEvents: webhooks.deleteOutboxEvents,
    insertWebhookDelivery: deliveries.insertWebhookDelivery,
    claimWebhookDeliveries: deliveries.claimWebhookDeliveries,
    finishWebhookAttempt: deliveries.finishWebhookAttempt,
    releaseWebhookDelivery: deliveries.releaseWebhookDelivery,
  };
}

/** Every write throws: a read must never commit anything outside group commit. */
function createRefusedWrites(): Writes {
  const refuse = (name: string) => () =>
    Promise.reject(
      new GatehouseError(
        'INTERNAL',
        `${name} is a write: call it inside store.transaction(), not store.read()`,
      ),
    );
  const names = Object.keys(writes()) as (keyof Writes)[];
  return Object.fromEntries(names.map((name) => [name, refuse(name)])) as unknown as Writes;
}

function reads(): RepoTable<Exclude<keyof StoreTx, keyof Writes | 'now'>> {
  return {
    getAgent: people.getAgent,
    listAgents: people.listAgents,
    getUser: people.getUser,
    getUserByName: people.getUserByName,
    listUsers: people.listUsers,
    getToken: people.getToken,
    getCredentials: credentials.getCredentials,
    listSigningKeys: people.listSigningKeys,
    getSigningKeyByFingerprint: people.getSigningKeyByFingerprint,
    getRun: runs.getRun,
    listRuns: runs.listRuns,
    getGate: gates.getGate,
    listGates: gates.listGates,
    countGates: gates.countGates,
    getGateTraceContext: gates.getGateTraceContext,
    listGateViews: gateViews.listGateViews,
    getIdempotency: rules.getIdempotency,
    getRememberedRule: rules.getRememberedRule,
    listRememberedRules: rules.listRememberedRules,
    listRulesInForce: rules.listRulesInForce,
    listConfidenceReports: reports.listConfidenceReports,
    listInterventions: reports.listInterventions,
    getActivePolicy: rules.getActivePolicy,
    getPolicyVersion: rules.getPolicyVersion,
    listPolicyVersions: rules.listPolicyVersions,
    getAuditHead: audit.getAuditHead,
    listAuditEvents: audit.auditBatch,
    getAuditCheckpoint: audit.getAuditCheckpoint,
    getWebhook: webhooks.getWebhook,
    listWebhooks: webhooks.listWebhooks,
    listWebhooksFor: webhooks.listWebhooksFor,
    getWebhookDelivery: deliveries.getWebhookDelivery,
    listWebhookDeliveries: deliveries.listWebhookDeliveries,
    listWebhookAttempts: deliveries.listWebhookAttempts,
    hasWebhookWork: deliveries.hasWebhookWork,
    getReview: reviews.getReview,
    findReview: reviews.findReview,
    listReviews: reviews.listReviews,
    getReviewComment: reviews.getReviewComment,
    listReviewComments: reviews.listReviewComments,
    listReviewVerdicts: reviews.listReviewVerdicts,
    listReviewSummaries: reviewSummaries.listReviewSummaries,
    listReviewFileViews: reviewSummaries.listReviewFileViews,
    listJournalEntries: journal.listJournalEntries,
    getJournalEntry: journal.getJournalEntry,
    getSearchIndex: searchIndex.getSearchIndex,
    searchChunksText: searchIndex.searchChunksText,
    listChunkVectors: searchIndex.listChunkVectors,
    getRecovery: recoveries.getRecovery,
    listRecoveries: recoveries.listRecoveries,
    listFalsePositives: recoveries.listFalsePositives,
    getWhitelist: whitelists.getWhitelist,
    listWhitelists: whitelists.listWhitelists,
    listDetections: whitelists.listDetections,
    countDetections: whitelists.countDetections,
    getPatternAlert: whitelists.getPatternAlert,
    getSlackUser: slack.getSlackUser,
    getSlackUserBySlackId: slack.getSlackUserBySlackId,
    getSsoIdentity: ssoIdentities.getSsoIdentity,
    listSsoIdentitiesOf: ssoIdentities.listSsoIdentitiesOf,
    getNotificationRule: notifications.getNotificationRule,
    listNotificationRules: notifications.listNotificationRules,
    getNotificationPreference: notifications.getNotificationPreference,
    listNotificationPreferences: notifications.listNotificationPreferences,
    listWarningDueGates: notifications.listWarningDueGates,
    getNotification: notices.getNotification,
    listNotifications: notices.listNotifications,
    countNotifications: notices.countNotifications,
    listNotifiedOf: notices.listNotifiedOf,
    hasNotificationWork: notices.hasNotificationWork,
    isEmailActionLinkUsed: notifications.isEmailActionLinkUsed,
    getTrustProposal: trust.getTrustProposal,
    listTrustProposals: trust.listTrustProposals,
  };
}

/** The unit's context, on each transaction object; the methods, shared by all, find it there. */
const CTX = Symbol('ctx');

interface Bound {
  readonly [CTX]: TxContext;
}

/** Methods that call each repository function with the context of the transaction they are called on. */
function methodsOf(table: Record<string, (ctx: TxContext, ...args: never[]) => unknown>): object {
  const methods: Record<string, (this: Bound, ...args: never[]) => unknown> = {};
  for (const [name, repo] of Object.entries(table)) {
    methods[name] = function (this: Bound, ...args: never[]) {
      return repo(this[CTX], ...args);
    };
  }
  return methods;
}

// Built once: a unit of work gets an object with its context and time, not a closure per method.
const readMethods = methodsOf(reads());
const readOnlyTx = { ...readMethods, ...createRefusedWrites() };
const writeTx = { ...readMethods, ...methodsOf(writes()) };

/** The StoreTx for one unit of work (or one read). */
export function createStoreTx(ctx: TxContext, options: { readOnly: boolean }): StoreTx {
  const tx = Object.create(options.readOnly ? readOnlyTx : writeTx) as StoreTx & { [CTX]: TxContext };
  (tx as { now: number }).now = ctx.now;
  tx[CTX] = ctx;
  return tx;
}

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

type WebhookWrites =
  | 'insertWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
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

function writes(ctx: TxContext): Writes {
  return {
    insertAgent: (agent) => people.insertAgent(ctx, agent),
    updateAgentAutonomy: (id, autonomy) => people.updateAgentAutonomy(ctx, id, autonomy),
    insertUser: (user) => people.insertUser(ctx, user),
    updateUser: (user) => people.updateUser(ctx, user),
    insertToken: (token) => people.insertToken(ctx, token),
    revokeToken: (hash, at) => people.revokeToken(ctx, hash, at),
    revokeTokensOf: (subjectId, kind, at) => people.revokeTokensOf(ctx, subjectId, kind, at),
    insertSigningKey: (key) => people.insertSigningKey(ctx, key),
    renameSigningKey: (key) => people.renameSigningKey(ctx, key),
    revokeSigningKey: (key) => people.revokeSigningKey(ctx, key),
    touchSigningKey: (key) => people.touchSigningKey(ctx, key),
    insertRun: (run) => runs.insertRun(ctx, run),
    updateRun: (run, version) => runs.updateRun(ctx, run, version),
    insertGate: (gate) => gates.insertGate(ctx, gate),
    updateGate: (gate, version, options) => gates.updateGate(ctx, gate, version, options),
    recordGateView: (view) => gateViews.recordGateView(ctx, view),
    claimDueGates: (limit) => gates.claimDueGates(ctx, limit),
    setGateTraceContext: (gateId, traceContext) => gates.setGateTraceContext(ctx, gateId, traceContext),
    putIdempotency: (record) => rules.putIdempotency(ctx, record),
    insertRememberedRule: (rule) => rules.insertRememberedRule(ctx, rule),
    revokeRememberedRule: (id, by, at) => rules.revokeRememberedRule(ctx, id, by, at),
    insertConfidenceReport: (report) => reports.insertConfidenceReport(ctx, report),
    insertIntervention: (intervention) => reports.insertIntervention(ctx, intervention),
    insertPolicyVersion: (policy) => rules.insertPolicyVersion(ctx, policy),
    appendAudit: (event) => audit.appendAudit(ctx, event),
    appendStreamEvent: (event) => stream.appendStreamEvent(ctx, event),
    ...webhookWrites(ctx),
    ...reviewWrites(ctx),
    ...searchWrites(ctx),
    ...recoveryWrites(ctx),
    ...whitelistWrites(ctx),
    ...slackWrites(ctx),
    insertSsoIdentity: (identity) => ssoIdentities.insertSsoIdentity(ctx, identity),
    ...notificationWrites(ctx),
    insertTrustProposal: (record) => trust.insertTrustProposal(ctx, record),
    updateTrustProposal: (record, status) => trust.updateTrustProposal(ctx, record, status),
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

function notificationWrites(ctx: TxContext): Pick<StoreTx, NotificationWrites> {
  return {
    insertNotificationRule: (rule) => notifications.insertNotificationRule(ctx, rule),
    updateNotificationRule: (rule) => notifications.updateNotificationRule(ctx, rule),
    deleteNotificationRule: (id) => notifications.deleteNotificationRule(ctx, id),
    putNotificationPreference: (pref) => notifications.putNotificationPreference(ctx, pref),
    insertNotificationTrigger: (trigger) => notifications.insertNotificationTrigger(ctx, trigger),
    claimNotificationTriggers: (limit) => notifications.claimNotificationTriggers(ctx, limit),
    deleteNotificationTriggers: (ids) => notifications.deleteNotificationTriggers(ctx, ids),
    markTimeoutWarned: (gateId, at) => notifications.markTimeoutWarned(ctx, gateId, at),
    insertNotification: (n) => notices.insertNotification(ctx, n),
    claimNotifications: (options) => notices.claimNotifications(ctx, options),
    finishNotification: (id, token, outcome) => notices.finishNotification(ctx, id, token, outcome),
    releaseNotification: (id, token) => notices.releaseNotification(ctx, id, token),
    ensureNotificationSecret: (name, value) => notifications.ensureNotificationSecret(ctx, name, value),
    useEmailActionLink: (id, gateId, userId) => notifications.useEmailActionLink(ctx, id, gateId, userId),
    releaseEmailActionLink: (id) => notifications.releaseEmailActionLink(ctx, id),
  };
}

type SlackWrites = 'putSlackUser' | 'deleteSlackUser' | 'claimSlackRequest';

function slackWrites(ctx: TxContext): Pick<StoreTx, SlackWrites> {
  return {
    putSlackUser: (link) => slack.putSlackUser(ctx, link),
    deleteSlackUser: (userId) => slack.deleteSlackUser(ctx, userId),
    claimSlackRequest: (signature, seenAt, forgetBefore) =>
      slack.claimSlackRequest(ctx, signature, seenAt, forgetBefore),
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

function whitelistWrites(ctx: TxContext): Pick<StoreTx, WhitelistWrites> {
  return {
    insertWhitelist: (entry) => whitelists.insertWhitelist(ctx, entry),
    updateWhitelist: (entry) => whitelists.updateWhitelist(ctx, entry),
    setWhitelistReviewGate: (id, gateId) => whitelists.setWhitelistReviewGate(ctx, id, gateId),
    addWhitelistSuppressed: (id, by) => whitelists.addWhitelistSuppressed(ctx, id, by),
    deleteWhitelist: (id) => whitelists.deleteWhitelist(ctx, id),
    insertDetections: (records) => whitelists.insertDetections(ctx, records),
    setPatternAlert: (pattern, at) => whitelists.setPatternAlert(ctx, pattern, at),
  };
}

type RecoveryWrites = 'insertRecovery' | 'updateRecovery' | 'insertFalsePositive';

function recoveryWrites(ctx: TxContext): Pick<StoreTx, RecoveryWrites> {
  return {
    insertRecovery: (recovery) => recoveries.insertRecovery(ctx, recovery),
    updateRecovery: (recovery, version) => recoveries.updateRecovery(ctx, recovery, version),
    insertFalsePositive: (record) => recoveries.insertFalsePositive(ctx, record),
  };
}

type SearchWrites =
  | 'insertJournalEntries'
  | 'beginSearchIndex'
  | 'replaceSearchIndex'
  | 'failSearchIndex'
  | 'dropSearchIndex';

function searchWrites(ctx: TxContext): Pick<StoreTx, SearchWrites> {
  return {
    insertJournalEntries: (entries) => journal.insertJournalEntries(ctx, entries),
    beginSearchIndex: (input) => searchIndex.beginSearchIndex(ctx, input),
    replaceSearchIndex: (input) => searchIndex.replaceSearchIndex(ctx, input),
    failSearchIndex: (input) => searchIndex.failSearchIndex(ctx, input),
    dropSearchIndex: (runId) => searchIndex.dropSearchIndex(ctx, runId),
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

function reviewWrites(ctx: TxContext): Pick<StoreTx, ReviewWrites> {
  return {
    insertReview: (review) => reviews.insertReview(ctx, review),
    updateReview: (review, version) => reviews.updateReview(ctx, review, version),
    insertReviewComment: (comment) => reviews.insertReviewComment(ctx, comment),
    setReviewCommentResolved: (id, resolved) => reviews.setReviewCommentResolved(ctx, id, resolved),
    publishReviewComments: (reviewId, author) => reviewSummaries.publishReviewComments(ctx, reviewId, author),
    insertReviewSummary: (summary) => reviewSummaries.insertReviewSummary(ctx, summary),
    setReviewFileView: (view) => reviewSummaries.setReviewFileView(ctx, view),
    putReviewVerdict: (verdict) => reviews.putReviewVerdict(ctx, verdict),
  };
}

function webhookWrites(ctx: TxContext): Pick<StoreTx, WebhookWrites> {
  return {
    insertWebhook: (webhook) => webhooks.insertWebhook(ctx, webhook),
    updateWebhook: (webhook) => webhooks.updateWebhook(ctx, webhook),
    deleteWebhook: (id) => webhooks.deleteWebhook(ctx, id),
    insertOutboxEvent: (event) => webhooks.insertOutboxEvent(ctx, event),
    claimOutboxEvents: (limit) => webhooks.claimOutboxEvents(ctx, limit),
    deleteOutboxEvents: (ids) => webhooks.deleteOutboxEvents(ctx, ids),
    insertWebhookDelivery: (delivery) => deliveries.insertWebhookDelivery(ctx, delivery),
    claimWebhookDeliveries: (options) => deliveries.claimWebhookDeliveries(ctx, options),
    finishWebhookAttempt: (input) => deliveries.finishWebhookAttempt(ctx, input),
    releaseWebhookDelivery: (id, token) => deliveries.releaseWebhookDelivery(ctx, id, token),
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
  const names = Object.keys(writes({} as TxContext)) as (keyof Writes)[];
  return Object.fromEntries(names.map((name) => [name, refuse(name)])) as unknown as Writes;
}

const refusedWrites = createRefusedWrites();

/** The StoreTx for one unit of work (or one read). */
export function createStoreTx(ctx: TxContext, options: { readOnly: boolean }): StoreTx {
  return {
    now: ctx.now,
    getAgent: (id) => people.getAgent(ctx, id),
    listAgents: () => people.listAgents(ctx),
    getUser: (id) => people.getUser(ctx, id),
    getUserByName: (name) => people.getUserByName(ctx, name),
    listUsers: () => people.listUsers(ctx),
    getToken: (hash) => people.getToken(ctx, hash),
    getCredentials: (hashes) => credentials.getCredentials(ctx, hashes),
    listSigningKeys: (userId) => people.listSigningKeys(ctx, userId),
    getSigningKeyByFingerprint: (fingerprint) => people.getSigningKeyByFingerprint(ctx, fingerprint),
    getRun: (id) => runs.getRun(ctx, id),
    listRuns: (filter) => runs.listRuns(ctx, filter),
    getGate: (id) => gates.getGate(ctx, id),
    listGates: (filter) => gates.listGates(ctx, filter),
    countGates: (filter) => gates.countGates(ctx, filter),
    getGateTraceContext: (gateId) => gates.getGateTraceContext(ctx, gateId),
    listGateViews: (gateIds) => gateViews.listGateViews(ctx, gateIds),
    getIdempotency: (scope, key) => rules.getIdempotency(ctx, scope, key),
    getRememberedRule: (id) => rules.getRememberedRule(ctx, id),
    listRememberedRules: (opts) => rules.listRememberedRules(ctx, opts),
    listConfidenceReports: (runId) => reports.listConfidenceReports(ctx, runId),
    listInterventions: (runId, after) => reports.listInterventions(ctx, runId, after),
    getActivePolicy: () => rules.getActivePolicy(ctx),
    getPolicyVersion: (version) => rules.getPolicyVersion(ctx, version),
    listPolicyVersions: () => rules.listPolicyVersions(ctx),
    getAuditHead: () => audit.getAuditHead(ctx),
    listAuditEvents: (fromSeq, limit) => audit.auditBatch(ctx, fromSeq, limit),
    getAuditCheckpoint: () => audit.getAuditCheckpoint(ctx),
    getWebhook: (id) => webhooks.getWebhook(ctx, id),
    listWebhooks: () => webhooks.listWebhooks(ctx),
    listWebhooksFor: (eventType) => webhooks.listWebhooksFor(ctx, eventType),
    getWebhookDelivery: (id) => deliveries.getWebhookDelivery(ctx, id),
    listWebhookDeliveries: (filter) => deliveries.listWebhookDeliveries(ctx, filter),
    listWebhookAttempts: (deliveryId) => deliveries.listWebhookAttempts(ctx, deliveryId),
    hasWebhookWork: (dueBy) => deliveries.hasWebhookWork(ctx, dueBy),
    getReview: (id) => reviews.getReview(ctx, id),
    findReview: (boundary) => reviews.findReview(ctx, boundary),
    listReviews: (runId) => reviews.listReviews(ctx, runId),
    getReviewComment: (id) => reviews.getReviewComment(ctx, id),
    listReviewComments: (reviewId) => reviews.listReviewComments(ctx, reviewId),
    listReviewVerdicts: (reviewId) => reviews.listReviewVerdicts(ctx, reviewId),
    listReviewSummaries: (reviewId) => reviewSummaries.listReviewSummaries(ctx, reviewId),
    listReviewFileViews: (reviewId, author) => reviewSummaries.listReviewFileViews(ctx, reviewId, author),
    listJournalEntries: (filter) => journal.listJournalEntries(ctx, filter),
    getJournalEntry: (runId, id) => journal.getJournalEntry(ctx, runId, id),
    getSearchIndex: (runId) => searchIndex.getSearchIndex(ctx, runId),
    searchChunksText: (input) => searchIndex.searchChunksText(ctx, input),
    listChunkVectors: (runId) => searchIndex.listChunkVectors(ctx, runId),
    getRecovery: (runId, key) => recoveries.getRecovery(ctx, runId, key),
    listRecoveries: (runId) => recoveries.listRecoveries(ctx, runId),
    listFalsePositives: (filter) => recoveries.listFalsePositives(ctx, filter),
    getWhitelist: (id) => whitelists.getWhitelist(ctx, id),
    listWhitelists: () => whitelists.listWhitelists(ctx),
    listDetections: (filter) => whitelists.listDetections(ctx, filter),
    countDetections: () => whitelists.countDetections(ctx),
    getPatternAlert: (pattern) => whitelists.getPatternAlert(ctx, pattern),
    getSlackUser: (userId) => slack.getSlackUser(ctx, userId),
    getSlackUserBySlackId: (slackUserId) => slack.getSlackUserBySlackId(ctx, slackUserId),
    getSsoIdentity: (issuer, subject) => ssoIdentities.getSsoIdentity(ctx, issuer, subject),
    listSsoIdentitiesOf: (userId) => ssoIdentities.listSsoIdentitiesOf(ctx, userId),
    getNotificationRule: (id) => notifications.getNotificationRule(ctx, id),
    listNotificationRules: () => notifications.listNotificationRules(ctx),
    getNotificationPreference: (userId) => notifications.getNotificationPreference(ctx, userId),
    listNotificationPreferences: () => notifications.listNotificationPreferences(ctx),
    listWarningDueGates: (limit) => notifications.listWarningDueGates(ctx, limit),
    getNotification: (id) => notices.getNotification(ctx, id),
    listNotifications: (filter) => notices.listNotifications(ctx, filter),
    countNotifications: () => notices.countNotifications(ctx),
    listNotifiedOf: (gateId) => notices.listNotifiedOf(ctx, gateId),
    hasNotificationWork: (dueBy) => notices.hasNotificationWork(ctx, dueBy),
    isEmailActionLinkUsed: (linkId) => notifications.isEmailActionLinkUsed(ctx, linkId),
    getTrustProposal: (id) => trust.getTrustProposal(ctx, id),
    listTrustProposals: (filter) => trust.listTrustProposals(ctx, filter),
    ...(options.readOnly ? refusedWrites : writes(ctx)),
  };
}

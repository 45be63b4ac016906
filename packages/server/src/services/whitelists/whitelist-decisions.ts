import { isPatternId, PATTERN_IDS } from 'gatehouse-hitl-analysis';
import { type Gate, GatehouseError, hasRole, type IdGenerator, WHITELIST_MS } from 'gatehouse-hitl-core';
import type { WhitelistRecord } from 'gatehouse-hitl-store';
import type { CommitTools } from '../commit.js';
import { invalidInput } from '../gates/gate-input.js';
import type { WhitelistChoice } from '../types.js';
import { checkPatternRate } from './pattern-rates.js';
import { renewed } from './whitelist-review.js';
import { chosenScope } from './whitelist-scope.js';

/** Least role that may create, renew or delete a whitelist entry. */
export const WHITELIST_ROLE = 'tech_lead';
export const JUSTIFICATION_MIN = 10;

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

async function assertMayWhitelist(tools: CommitTools, userId: string): Promise<void> {
  const user = await tools.tx.getUser(userId);
  if (user !== null && hasRole(user.role, WHITELIST_ROLE)) return;
  throw new GatehouseError(
    'ROLE_TOO_LOW',
    `whitelisting needs role ${WHITELIST_ROLE} or higher; choose Legitimate, or ask a tech lead`,
    { required: WHITELIST_ROLE, role: user?.role ?? null },
  );
}

/** `pattern` as a known pattern id, or a VALIDATION_FAILED naming `field`. */
export function checkPatternId(pattern: string, field = 'pattern'): string {
  if (isPatternId(pattern)) return pattern;
  throw invalidInput(field, `unknown pattern id ${pattern}; use one of ${PATTERN_IDS.join(', ')}`);
}

function refuseWhitelist(gate: Gate, why: string): GatehouseError {
  return new GatehouseError(
    'INVALID_OPTION',
    `gate ${gate.id} cannot be whitelisted: ${why}; choose Legitimate or Violation, or add an entry with the scope you choose on the whitelists page (POST /v1/whitelists)`,
    { gateId: gate.id, option: 'whitelist' },
  );
}

/**
 * The finding's pattern and file as the server recorded them: a person's report, or the analysis's
 * detection in the gate's run. An agent's own gate context never sets an entry's scope.
 */
async function recordedFinding(tools: CommitTools, gate: Gate, key: string) {
  if (gate.requestedBy?.startsWith('user:') === true) {
    const files = gate.context.files;
    const file = Array.isArray(files) && typeof files[0] === 'string' ? files[0] : null;
    const pattern = text(gate.context.pattern);
    if (file !== null && pattern !== null) return { pattern, file };
  }
  if (gate.runId !== null) {
    const [detection] = await tools.tx.listDetections({ runId: gate.runId, findingKey: key });
    if (detection !== undefined) return { pattern: detection.pattern, file: detection.file };
  }
  throw refuseWhitelist(gate, `its finding ${key} was not found by the analysis nor reported by a person`);
}

async function decideReview(tools: CommitTools, gate: Gate, entryId: string): Promise<void> {
  const { tx } = tools;
  const decision = gate.decision;
  const entry = await tx.getWhitelist(entryId);
  if (decision === null || entry === null || entry.reviewGateId !== gate.id) return;
  if (decision.option !== 'needs_review') await assertMayWhitelist(tools, decision.decidedBy);
  const subject = entry.id;
  if (decision.option === 'whitelist' || decision.option === 'legitimate') {
    await tx.updateWhitelist(renewed(entry, tx.now));
    await tools.audit({
      kind: 'whitelist.renewed',
      actor: `user:${decision.decidedBy}`,
      subject,
      data: { gateId: gate.id },
    });
  } else if (decision.option === 'violation') {
    await tx.deleteWhitelist(entry.id);
    await tools.audit({
      kind: 'whitelist.deleted',
      actor: `user:${decision.decidedBy}`,
      subject,
      data: { gateId: gate.id },
    });
  }
}

async function whitelistFinding(
  tools: CommitTools,
  ids: IdGenerator,
  gate: Gate,
  finding: { key: string; choice: WhitelistChoice | undefined },
): Promise<void> {
  const { key } = finding;
  const { tx } = tools;
  const decision = gate.decision;
  if (decision === null) return;
  const justification = (decision.reason ?? '').trim();
  if (justification.length < JUSTIFICATION_MIN)
    throw invalidInput('reason', `must justify the whitelist in at least ${JUSTIFICATION_MIN} characters`);
  const { pattern, file } = await recordedFinding(tools, gate, key);
  if (!isPatternId(pattern)) throw refuseWhitelist(gate, `${pattern} is not a pattern id of the analysis`);
  // The entry's path is a glob: a file name holding one would cover other files too.
  if (/[*?]/.test(file)) throw refuseWhitelist(gate, `the file ${file} holds glob characters`);
  const scope = chosenScope(finding.choice, { file, agentId: gate.agentId });
  const entry: WhitelistRecord = {
    id: ids.next('wl'),
    pattern,
    scope: 'file',
    path: scope.path,
    agentId: scope.agentId,
    justification,
    createdBy: `user:${decision.decidedBy}`,
    createdAt: tx.now,
    expiresAt: tx.now + Math.min(scope.expiresInMs, WHITELIST_MS),
    reviewedAt: null,
    reviewGateId: null,
    sourceGateId: gate.id,
    suppressed: 0,
  };
  await tx.insertWhitelist(entry);
  // Whitelisting says the detection was wrong here: it counts as a confirmed false positive.
  await tx.insertFalsePositive({
    id: ids.next('fp'),
    pattern,
    runId: gate.runId,
    findingKey: key,
    file,
    gateId: gate.id,
    confirmedBy: decision.decidedBy,
    createdAt: tx.now,
  });
  await tools.audit({
    kind: 'whitelist.created',
    actor: entry.createdBy,
    subject: entry.id,
    data: {
      pattern,
      scope: entry.scope,
      path: entry.path,
      agentId: entry.agentId,
      expiresAt: entry.expiresAt,
      chosen: finding.choice !== undefined,
      gateId: gate.id,
      justification,
    },
  });
}

/**
 * A person ended a false_positive_override gate: a re-review gate renews (Whitelist, Legitimate) or
 * removes (Violation) its entry; Whitelist on a finding creates an entry for that finding's pattern
 * with the scope the person chose in the decision (`choice`), by default its exact file and the
 * gate's agent for 90 days, with the reason as its justification; a confirmed false positive may
 * push its pattern's rate over 10 %. Whitelisting needs WHITELIST_ROLE and a finding.
 */
export async function recordWhitelistDecision(
  tools: CommitTools,
  ids: IdGenerator,
  gate: Gate,
  choice?: WhitelistChoice | undefined,
): Promise<void> {
  const decision = gate.decision;
  if (gate.type !== 'false_positive_override' || decision === null) return;
  const review = text(gate.context.whitelistReview);
  if (review !== null) {
    if (choice !== undefined)
      throw invalidInput(
        'whitelist',
        'a re-review renews its entry as it is; change the entry on the whitelists page',
      );
    return decideReview(tools, gate, review);
  }
  const key = text(gate.context.findingKey);
  if (decision.option === 'whitelist') {
    await assertMayWhitelist(tools, decision.decidedBy);
    if (key === null) throw refuseWhitelist(gate, 'it names no finding (no findingKey in its context)');
    await whitelistFinding(tools, ids, gate, { key, choice });
  }
  const pattern = text(gate.context.pattern);
  if (pattern !== null && (decision.option === 'whitelist' || decision.option === 'legitimate'))
    await checkPatternRate(tools, pattern);
}

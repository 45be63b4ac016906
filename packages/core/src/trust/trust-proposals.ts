import { readAction } from '../destructive/command-reader.js';
import {
  describeStandingScope,
  type StandingScope,
  standingScopeCovers,
  suggestStandingScopes,
} from '../destructive/command-scope.js';
import { classifyAlwaysGated } from '../destructive/destructive.js';
import type { Action } from '../schemas.js';

const DAY = 86_400_000;

/** How one past gate about a tool call ended, as the trust ramp reads it. */
export type TrustOutcome = 'approved' | 'rejected' | 'steered' | 'edited' | 'expired' | 'cancelled';

/** One past gate about a tool call: what the agent asked, who answered, how and when. */
export interface TrustHistoryEntry {
  gateId: string;
  agentId: string;
  action: Action;
  outcome: TrustOutcome;
  /** The person who ended it (`user:<id>`); null when nobody did. */
  decidedBy: string | null;
  createdAt: number;
  decidedAt: number | null;
  /** The gate asked for a signed decision. */
  signed: boolean;
  /** People who had to approve it (N of M when above 1). */
  requiredApprovals: number;
  /** A person reported the call harmful, or the run reported a failure after it. */
  failedAfter: boolean;
}

/** When repeated approvals become a proposal; every one must hold. */
export interface TrustThresholds {
  /** Approvals of calls the scope covers. @default 10 */
  minApprovals: number;
  /** Distinct people among those who approved. @default 2 */
  minPeople: number;
  /** Days between the first and the last approval. @default 3 */
  minDays: number;
  /** How far back evidence and the replay reach. @default 90 */
  windowDays: number;
  /** How long an accepted rule lasts. @default 30 */
  ruleDays: number;
}

/** Thresholds as a policy's trust section gives them: any left out keep their default. */
export type TrustSettings = { [K in keyof TrustThresholds]?: number | undefined };

export const DEFAULT_TRUST_THRESHOLDS: Readonly<TrustThresholds> = {
  minApprovals: 10,
  minPeople: 2,
  minDays: 3,
  windowDays: 90,
  ruleDays: 30,
};

/** What a learned rule is: one agent's calls of one tool within one scope. */
export interface LearnedScope {
  agentId: string;
  tool: string;
  scope: StandingScope;
}

/** Why a proposal is made: the approvals its scope covers. */
export interface TrustEvidence {
  approvals: number;
  people: string[];
  firstAt: number;
  lastAt: number;
  spanDays: number;
  medianDecisionMs: number;
}

/** The past gates the rule would have allowed, and how people answered them. */
export interface TrustReplay {
  windowDays: number;
  /** Past gates it would have let through without a person. */
  wouldAllow: number;
  rejected: number;
  steered: number;
  edited: number;
  failed: number;
  /** Up to 50 of those gates, newest first. */
  gateIds: string[];
}

/** A scoped allow rule the history earned, for a person to accept, narrow or dismiss. */
export interface TrustProposalDraft extends LearnedScope {
  /** Stable for the same agent, tool and scope: a refresh finds the proposal it made before. */
  key: string;
  description: string;
  evidence: TrustEvidence;
  replay: TrustReplay;
}

export interface ProposeTrustInput {
  history: readonly TrustHistoryEntry[];
  now: number;
  thresholds?: TrustSettings;
  /** Agents whose autonomy a person set: nothing is learned for them. */
  pinnedAgents?: ReadonlySet<string>;
}

/** True when no learned rule may ever cover the call: always-gated, or not readable in full. */
export function isNeverLearned(action: Action): boolean {
  if (action.tool === undefined || classifyAlwaysGated(action).length > 0) return true;
  const reading = readAction(action);
  return !reading.readable || reading.categories.length > 0;
}

/** True when the learned scope lets this agent's call through. Never for an always-gated or unreadable call. */
export function learnedRuleCovers(rule: LearnedScope, call: { agentId: string; action: Action }): boolean {
  if (rule.agentId !== call.agentId || rule.tool !== call.action.tool) return false;
  if (isNeverLearned(call.action)) return false;
  return standingScopeCovers(rule.scope, call.action);
}

/** How a later call turned out, as far as a learned rule cares. */
export interface TrustSignal {
  agentId: string;
  action: Action;
  outcome: TrustOutcome | 'harmful';
}

/** True when this answer to a call the rule covers must revoke the rule at once. */
export function revokesLearnedRule(rule: LearnedScope, signal: TrustSignal): boolean {
  if (signal.outcome === 'approved' || signal.outcome === 'expired' || signal.outcome === 'cancelled')
    return false;
  if (rule.agentId !== signal.agentId || rule.tool !== signal.action.tool) return false;
  return standingScopeCovers(rule.scope, signal.action);
}

/** The thresholds with every unset one at its default. */
export function trustThresholdsOf(partial: TrustSettings | undefined): TrustThresholds {
  const set = Object.entries(partial ?? {}).filter(
    ([key, value]) => value !== undefined && key in DEFAULT_TRUST_THRESHOLDS,
  );
  return { ...DEFAULT_TRUST_THRESHOLDS, ...Object.fromEntries(set) };
}

/** The stable key of an agent, tool and scope. */
export function learnedScopeKey(rule: LearnedScope): string {
  return JSON.stringify([rule.agentId, rule.tool, rule.scope]);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : Math.round(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
}

/** Entries grouped by agent and call: a scope is checked once per distinct call. */
function sameCalls(history: readonly TrustHistoryEntry[]): TrustHistoryEntry[][] {
  const groups = new Map<string, TrustHistoryEntry[]>();
  for (const entry of history) {
    const key = JSON.stringify([entry.agentId, entry.action.tool, entry.action.operation, entry.action.args]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [entry]);
    else group.push(entry);
  }
  return [...groups.values()];
}

/** What the scope would have let through in the window, and how people answered those gates. */
export function replayLearnedScope(
  rule: LearnedScope,
  history: readonly TrustHistoryEntry[],
  options: { now: number; windowDays: number },
): TrustReplay & { covered: TrustHistoryEntry[] } {
  const since = options.now - options.windowDays * DAY;
  return replayOver(rule, sameCalls(history.filter((entry) => entry.createdAt >= since)), options.windowDays);
}

function replayOver(
  rule: LearnedScope,
  groups: readonly TrustHistoryEntry[][],
  windowDays: number,
): TrustReplay & { covered: TrustHistoryEntry[] } {
  const covered = groups
    .filter((group) => learnedRuleCovers(rule, group[0] as TrustHistoryEntry))
    .flat()
    .sort((a, b) => b.createdAt - a.createdAt);
  const count = (outcome: TrustOutcome) => covered.filter((entry) => entry.outcome === outcome).length;
  return {
    windowDays,
    wouldAllow: covered.length,
    rejected: count('rejected'),
    steered: count('steered'),
    edited: count('edited'),
    failed: covered.filter((entry) => entry.failedAfter).length,
    gateIds: covered.slice(0, 50).map((entry) => entry.gateId),
    covered,
  };
}

function evidenceOf(approved: readonly TrustHistoryEntry[]): TrustEvidence {
  const times = approved.map((entry) => entry.decidedAt ?? entry.createdAt);
  const firstAt = Math.min(...times);
  const lastAt = Math.max(...times);
  return {
    approvals: approved.length,
    people: [...new Set(approved.map((entry) => entry.decidedBy as string))].sort(),
    firstAt,
    lastAt,
    spanDays: Math.floor((lastAt - firstAt) / DAY),
    medianDecisionMs: median(approved.map((entry) => (entry.decidedAt ?? entry.createdAt) - entry.createdAt)),
  };
}

/** Why this scope may not be proposed from its covered gates; null when it may. */
function proposalRefusal(
  replay: TrustReplay & { covered: TrustHistoryEntry[] },
  thresholds: TrustThresholds,
): TrustEvidence | null {
  const { covered } = replay;
  if (replay.rejected + replay.steered + replay.edited + replay.failed > 0) return null;
  if (covered.some((entry) => entry.signed || entry.requiredApprovals > 1)) return null;
  const approved = covered.filter((entry) => entry.outcome === 'approved' && entry.decidedBy !== null);
  if (approved.length < thresholds.minApprovals) return null;
  const evidence = evidenceOf(approved);
  if (evidence.people.length < thresholds.minPeople || evidence.spanDays < thresholds.minDays) return null;
  return evidence;
}

function candidateScopes(history: readonly TrustHistoryEntry[], pinned: ReadonlySet<string>): LearnedScope[] {
  const seen = new Map<string, LearnedScope>();
  for (const [entry] of sameCalls(history.filter((e) => e.outcome === 'approved'))) {
    if (entry === undefined || pinned.has(entry.agentId) || isNeverLearned(entry.action)) continue;
    const tool = entry.action.tool as string;
    for (const scope of suggestStandingScopes(entry.action).options) {
      const rule = { agentId: entry.agentId, tool, scope };
      seen.set(learnedScopeKey(rule), rule);
    }
  }
  return [...seen.values()];
}

/** Among scopes that cover the same gates, the broader is proposed; a person may narrow it. */
const BREADTH: Record<StandingScope['kind'], number> = { command: 0, path: 1, prefix: 2, tool: 3 };

function isSubset(small: readonly string[], large: ReadonlySet<string>): boolean {
  return small.every((id) => large.has(id));
}

/**
 * The scoped allow rules the decision history has earned, per agent: every threshold met, and no
 * covered gate in the window rejected, steered, edited, failed, signed or N-of-M. A scope whose
 * gates a broader proposal already covers is left out; a person may narrow it when accepting.
 * @example proposeTrust({ history, now: Date.now() }) // [{ tool: 'bash', scope: { kind: 'prefix', prefix: 'npm test' }, … }]
 */
export function proposeTrust(input: ProposeTrustInput): TrustProposalDraft[] {
  const thresholds = trustThresholdsOf(input.thresholds);
  const pinned = input.pinnedAgents ?? new Set<string>();
  const history = input.history.filter((entry) => entry.createdAt >= input.now - thresholds.windowDays * DAY);
  const made: (TrustProposalDraft & { covered: Set<string> })[] = [];
  const groups = sameCalls(history);
  for (const rule of candidateScopes(history, pinned)) {
    const replay = replayOver(rule, groups, thresholds.windowDays);
    const evidence = proposalRefusal(replay, thresholds);
    if (evidence === null) continue;
    const { covered, ...summary } = replay;
    made.push({
      ...rule,
      key: learnedScopeKey(rule),
      description: describeStandingScope(rule.tool, rule.scope),
      evidence,
      replay: summary,
      covered: new Set(covered.map((entry) => entry.gateId)),
    });
  }
  return made
    .filter(
      (draft) =>
        !made.some(
          (other) =>
            other !== draft &&
            other.agentId === draft.agentId &&
            other.tool === draft.tool &&
            isSubset([...draft.covered], other.covered) &&
            (other.covered.size > draft.covered.size ||
              BREADTH[other.scope.kind] > BREADTH[draft.scope.kind]),
        ),
    )
    .map(({ covered: _covered, ...draft }) => draft);
}

function words(text: string): string[] {
  return text.trim().split(/\s+/);
}

/** The sample call with its command line replaced, under whichever argument carried it. */
function withCommand(sample: Action, command: string): Action {
  const shell = readAction(sample).payloads.shell;
  const key =
    Object.entries(sample.args).find(
      ([, value]) => typeof value === 'string' && shell.includes(value.trim()),
    )?.[0] ?? 'command';
  return { ...sample, args: { ...sample.args, [key]: command } };
}

function globBase(glob: string): string | null {
  return glob.endsWith('/**') ? glob.slice(0, -2) : null;
}

/**
 * Why `edited` is not a narrowing of `proposed` that still covers a call the evidence holds; null
 * when it is. A prefix narrows to a longer prefix or an exact command it covers, a folder glob to a
 * path below it; anything else only to itself.
 */
export function narrowingRefusal(
  proposed: StandingScope,
  edited: StandingScope,
  sample: Action,
): string | null {
  const same = JSON.stringify(proposed) === JSON.stringify(edited);
  const narrower =
    same ||
    (proposed.kind === 'prefix' &&
      edited.kind === 'prefix' &&
      words(edited.prefix)
        .join(' ')
        .startsWith(`${words(proposed.prefix).join(' ')} `)) ||
    (proposed.kind === 'prefix' &&
      edited.kind === 'command' &&
      standingScopeCovers(proposed, withCommand(sample, edited.command))) ||
    (proposed.kind === 'path' &&
      edited.kind === 'path' &&
      globBase(proposed.glob) !== null &&
      edited.glob.startsWith(globBase(proposed.glob) as string) &&
      !edited.glob.includes('..'));
  if (!narrower)
    return `scope may only be narrowed: ${describeStandingScope(sample.tool ?? 'tool', edited)} is not inside ${describeStandingScope(sample.tool ?? 'tool', proposed)}`;
  return null;
}

/** A learned rule's state at `now`: in force until it expires or is revoked. */
export function learnedRuleState(
  rule: { revokedAt: number | null; expiresAt: number | null },
  now: number,
): 'active' | 'expired' | 'revoked' {
  if (rule.revokedAt !== null) return 'revoked';
  if (rule.expiresAt !== null && rule.expiresAt <= now) return 'expired';
  return 'active';
}

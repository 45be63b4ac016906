import { AUTONOMY_LEVELS, type AutonomyLevel } from '../schemas.js';

const DAY = 86_400_000;

/** How one phase review of an agent's run ended, as the autonomy ramp reads it. */
export type PhaseReviewOutcome =
  | 'approved'
  | 'changes_requested'
  | 'rejected'
  | 'steered'
  | 'expired'
  | 'cancelled';

/** One past phase-review gate of an agent: how it ended, who answered, when. */
export interface PhaseReviewEntry {
  gateId: string;
  agentId: string;
  outcome: PhaseReviewOutcome;
  /** The person who ended it (`user:<id>`); null when nobody did. */
  decidedBy: string | null;
  createdAt: number;
  decidedAt: number | null;
  /** The run reported a failure after the review. */
  failedAfter: boolean;
}

/** When approved phase reviews earn an agent one more autonomy level; every one must hold. */
export interface AutonomyThresholds {
  /** Approved phase reviews in the window. @default 8 */
  minApprovals: number;
  /** Distinct people among those who approved. @default 2 */
  minPeople: number;
  /** Days between the first and the last approval. @default 7 */
  minDays: number;
  /** How far back the evidence reaches. @default 90 */
  windowDays: number;
  /** The highest level ever proposed. @default 'review' */
  maxLevel: AutonomyLevel;
}

export const DEFAULT_AUTONOMY_THRESHOLDS: Readonly<AutonomyThresholds> = {
  minApprovals: 8,
  minPeople: 2,
  minDays: 7,
  windowDays: 90,
  maxLevel: 'review',
};

/** Autonomy thresholds as the policy's trust section gives them: any left out keep their default. */
export interface AutonomySettings {
  autonomyMinApprovals?: number | undefined;
  autonomyMinPeople?: number | undefined;
  autonomyMinDays?: number | undefined;
  windowDays?: number | undefined;
  autonomyMaxLevel?: AutonomyLevel | undefined;
}

/** The autonomy thresholds with every unset one at its default. */
export function autonomyThresholdsOf(settings: AutonomySettings | undefined): AutonomyThresholds {
  const d = DEFAULT_AUTONOMY_THRESHOLDS;
  return {
    minApprovals: settings?.autonomyMinApprovals ?? d.minApprovals,
    minPeople: settings?.autonomyMinPeople ?? d.minPeople,
    minDays: settings?.autonomyMinDays ?? d.minDays,
    windowDays: settings?.windowDays ?? d.windowDays,
    maxLevel: settings?.autonomyMaxLevel ?? d.maxLevel,
  };
}

/** Levels from least to most autonomous; AUTONOMY_LEVELS lists them the other way round. */
const RAMP: readonly AutonomyLevel[] = [...AUTONOMY_LEVELS].reverse();

/** How many steps up the ramp a level is: `dependent` 0 … `full` 4. */
export function autonomyRank(level: AutonomyLevel): number {
  return RAMP.indexOf(level);
}

/** The level one step more autonomous, or null at `full`. */
export function nextAutonomyLevel(level: AutonomyLevel): AutonomyLevel | null {
  return RAMP[autonomyRank(level) + 1] ?? null;
}

/** Why an agent earned its next level: its approved phase reviews in the window. */
export interface AutonomyEvidence {
  approvals: number;
  people: string[];
  firstAt: number;
  lastAt: number;
  spanDays: number;
  medianDecisionMs: number;
  windowDays: number;
  /** Up to 50 of the approved phase-review gates, newest first. */
  gateIds: string[];
}

/** One autonomy level up for one agent, for a person to accept or dismiss. */
export interface AutonomyProposalDraft {
  agentId: string;
  /** Stable for the same agent and step: a refresh finds the proposal it made before. */
  key: string;
  from: AutonomyLevel;
  to: AutonomyLevel;
  evidence: AutonomyEvidence;
}

/** An agent the ramp may raise: its current effective level, and whether a person pinned it. */
export interface AutonomyCandidate {
  agentId: string;
  level: AutonomyLevel;
  pinned: boolean;
}

export interface ProposeAutonomyInput {
  agents: readonly AutonomyCandidate[];
  reviews: readonly PhaseReviewEntry[];
  now: number;
  thresholds?: AutonomySettings | undefined;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : Math.round(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
}

/** True when this phase review takes trust away: any answer but approval from a person, or a failure. */
export function losesAutonomyTrust(entry: Pick<PhaseReviewEntry, 'outcome' | 'failedAfter'>): boolean {
  if (entry.failedAfter) return true;
  return entry.outcome === 'rejected' || entry.outcome === 'steered' || entry.outcome === 'changes_requested';
}

function evidenceOf(
  reviews: readonly PhaseReviewEntry[],
  thresholds: AutonomyThresholds,
): AutonomyEvidence | null {
  if (reviews.some(losesAutonomyTrust)) return null;
  const approved = reviews
    .filter((entry) => entry.outcome === 'approved' && entry.decidedBy !== null)
    .sort((a, b) => b.createdAt - a.createdAt);
  if (approved.length < thresholds.minApprovals) return null;
  const times = approved.map((entry) => entry.decidedAt ?? entry.createdAt);
  const firstAt = Math.min(...times);
  const lastAt = Math.max(...times);
  const people = [...new Set(approved.map((entry) => entry.decidedBy as string))].sort();
  const spanDays = Math.floor((lastAt - firstAt) / DAY);
  if (people.length < thresholds.minPeople || spanDays < thresholds.minDays) return null;
  return {
    approvals: approved.length,
    people,
    firstAt,
    lastAt,
    spanDays,
    medianDecisionMs: median(approved.map((entry) => (entry.decidedAt ?? entry.createdAt) - entry.createdAt)),
    windowDays: thresholds.windowDays,
    gateIds: approved.slice(0, 50).map((entry) => entry.gateId),
  };
}

/**
 * One autonomy level up, per agent, from its phase reviews in the window: every threshold met, and
 * none rejected, steered, answered with changes or followed by a failure. Never for a pinned agent,
 * never more than one level, never above the threshold's highest level (`review` unless set).
 * @example proposeAutonomy({ agents: [{ agentId: 'a1', level: 'guided', pinned: false }], reviews, now: Date.now() })
 */
export function proposeAutonomy(input: ProposeAutonomyInput): AutonomyProposalDraft[] {
  const thresholds = autonomyThresholdsOf(input.thresholds);
  const since = input.now - thresholds.windowDays * DAY;
  const drafts: AutonomyProposalDraft[] = [];
  for (const agent of input.agents) {
    if (agent.pinned) continue;
    const to = nextAutonomyLevel(agent.level);
    if (to === null || autonomyRank(to) > autonomyRank(thresholds.maxLevel)) continue;
    const reviews = input.reviews.filter(
      (entry) => entry.agentId === agent.agentId && entry.createdAt >= since,
    );
    const evidence = evidenceOf(reviews, thresholds);
    if (evidence === null) continue;
    drafts.push({
      agentId: agent.agentId,
      key: JSON.stringify(['autonomy', agent.agentId, agent.level, to]),
      from: agent.level,
      to,
      evidence,
    });
  }
  return drafts;
}

/** True when this later phase review must revoke an accepted autonomy step of the agent. */
export function revokesAutonomyStep(
  step: { agentId: string },
  review: Pick<PhaseReviewEntry, 'agentId' | 'outcome' | 'failedAfter'>,
): boolean {
  return step.agentId === review.agentId && losesAutonomyTrust(review);
}

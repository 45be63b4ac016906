import { assertNever } from '../errors.js';
import { invalidField } from '../invalid-field.js';
import { AUTONOMY_LEVELS, type AutonomyLevel, type PhaseType } from '../schemas.js';

/** Where a run stands at a phase boundary. Phases are numbered from 1 across strategic and tactical. */
export interface PhaseBoundary {
  phaseType: PhaseType;
  phaseNumber: number;
  /** True once the agent has called job_complete. */
  jobCompleteCalled: boolean;
}

export interface ShouldFreezeInput extends PhaseBoundary {
  autonomy: AutonomyLevel;
}

/** Whether the run pauses for review at this phase boundary, per the autonomy freeze table. */
export function shouldFreeze(input: ShouldFreezeInput): boolean {
  const { autonomy, phaseType, phaseNumber, jobCompleteCalled } = input;
  if (autonomy === 'full') return false;
  if (jobCompleteCalled) return true;
  if (autonomy === 'dependent') return true;
  if (autonomy === 'guided' && phaseType === 'strategic') return true;
  return autonomy === 'partial' && phaseType === 'strategic' && phaseNumber === 1;
}

/** The kind of freeze a boundary is, which decides how the run resumes. */
export type FreezeContext = 'initial_strategic' | 'later_strategic' | 'tactical' | 'job_complete';

/** Classifies a phase boundary as a freeze context. */
export function freezeContext(boundary: PhaseBoundary): FreezeContext {
  if (boundary.jobCompleteCalled) return 'job_complete';
  if (boundary.phaseType === 'tactical') return 'tactical';
  return boundary.phaseNumber === 1 ? 'initial_strategic' : 'later_strategic';
}

/** A person's answer to a phase review: approve, or request changes with feedback. */
export type PhaseReviewAnswer = { approved: true } | { feedback: string };

/** Where the run goes after a phase review. */
export interface ResumePlan {
  context: FreezeContext;
  next: 'tactical' | 'strategic' | 'feedback_strategic' | 'completed';
  phaseNumber: number;
  phaseType: PhaseType;
  /** True when the next phase starts from the reviewer's feedback. */
  withFeedback: boolean;
}

function checkPhaseNumber(phaseNumber: number): void {
  if (!(Number.isInteger(phaseNumber) && phaseNumber >= 1)) {
    throw invalidField('phaseNumber', `must be a whole number, 1 or more (got ${phaseNumber})`);
  }
}

function feedbackOf(answer: PhaseReviewAnswer): string | null {
  if ('feedback' in answer) {
    if (typeof answer.feedback !== 'string' || answer.feedback.trim() === '') {
      throw invalidField('feedback', 'must be non-empty text saying what to change');
    }
    return answer.feedback;
  }
  if (answer.approved !== true) {
    throw invalidField('approved', 'must be true; to request changes send feedback instead');
  }
  return null;
}

/**
 * The phase-aware resume table: where a frozen run continues after approval or feedback.
 * Feedback on a strategic phase re-enters that phase (same number); a new phase gets the next number.
 * @example resumeAfterFreeze({ phaseType: 'strategic', phaseNumber: 1, jobCompleteCalled: false }, { approved: true })
 */
export function resumeAfterFreeze(boundary: PhaseBoundary, answer: PhaseReviewAnswer): ResumePlan {
  checkPhaseNumber(boundary.phaseNumber);
  const feedback = feedbackOf(answer) !== null;
  const context = freezeContext(boundary);
  const n = boundary.phaseNumber;
  switch (context) {
    case 'initial_strategic':
    case 'later_strategic':
      return feedback
        ? { context, next: 'strategic', phaseNumber: n, phaseType: 'strategic', withFeedback: true }
        : { context, next: 'tactical', phaseNumber: n + 1, phaseType: 'tactical', withFeedback: false };
    case 'tactical':
      return feedback
        ? {
            context,
            next: 'feedback_strategic',
            phaseNumber: n + 1,
            phaseType: 'strategic',
            withFeedback: true,
          }
        : { context, next: 'strategic', phaseNumber: n + 1, phaseType: 'strategic', withFeedback: false };
    case 'job_complete':
      return feedback
        ? {
            context,
            next: 'feedback_strategic',
            phaseNumber: n + 1,
            phaseType: 'strategic',
            withFeedback: true,
          }
        : { context, next: 'completed', phaseNumber: n, phaseType: boundary.phaseType, withFeedback: false };
    default:
      return assertNever(context);
  }
}

/** Default autonomy of each expert profile; other profiles get the framework default. */
export const EXPERT_AUTONOMY_DEFAULTS: Readonly<Record<string, AutonomyLevel>> = {
  debugger: 'full',
  researcher: 'partial',
  writer: 'partial',
  coder: 'partial',
  validator: 'review',
};

/** Autonomy of a run when neither profile, agent nor run says otherwise. */
export const FRAMEWORK_DEFAULT_AUTONOMY: AutonomyLevel = 'partial';

export interface ResolveAutonomyInput {
  /** The agent's expert profile, e.g. `coder`. */
  profile?: string | null | undefined;
  /** The level set on the agent itself. */
  agentDefault?: string | null | undefined;
  /** The level asked for at run creation. */
  runOverride?: string | null | undefined;
}

function isAutonomyLevel(value: string): value is AutonomyLevel {
  return (AUTONOMY_LEVELS as readonly string[]).includes(value);
}

function checkLevel(field: string, value: string | null | undefined): AutonomyLevel | null {
  if (value === undefined || value === null) return null;
  if (!isAutonomyLevel(value)) {
    throw invalidField(field, `must be one of ${AUTONOMY_LEVELS.join(', ')} (got "${value}")`);
  }
  return value;
}

function profileDefault(profile: string | null | undefined): AutonomyLevel | null {
  if (typeof profile !== 'string') return null;
  const key = profile.trim().toLowerCase();
  return Object.hasOwn(EXPERT_AUTONOMY_DEFAULTS, key) ? (EXPERT_AUTONOMY_DEFAULTS[key] ?? null) : null;
}

/**
 * A run's effective autonomy: framework default < expert profile default < agent default < run override.
 * @example resolveAutonomy({ profile: 'debugger', runOverride: 'guided' }) // 'guided'
 */
export function resolveAutonomy(input: ResolveAutonomyInput): AutonomyLevel {
  const run = checkLevel('runOverride', input.runOverride);
  const agent = checkLevel('agentDefault', input.agentDefault);
  return run ?? agent ?? profileDefault(input.profile) ?? FRAMEWORK_DEFAULT_AUTONOMY;
}

/** What happens to a phase's pull request when the phase ends. */
export type PrBehaviour = 'auto_merge' | 'requires_approval';

/** The autonomy seed's PR table: whether a phase branch merges on its own or waits for approval. */
export function prBehaviour(
  level: AutonomyLevel,
  phaseType: PhaseType,
  phaseNumber: number,
  isFinal: boolean,
): PrBehaviour {
  const freezes = shouldFreeze({ autonomy: level, phaseType, phaseNumber, jobCompleteCalled: isFinal });
  return freezes ? 'requires_approval' : 'auto_merge';
}

/**
 * The git branch of a phase: `phase-{N}-{type}`, or `phase-{N}-{type}-rev-{M}` from the second revision on.
 * @example phaseBranchName(1, 'strategic', 2) // 'phase-1-strategic-rev-2'
 */
export function phaseBranchName(phaseNumber: number, phaseType: PhaseType, revision?: number): string {
  checkPhaseNumber(phaseNumber);
  if (phaseType !== 'strategic' && phaseType !== 'tactical') {
    throw invalidField('phaseType', `must be strategic or tactical (got "${String(phaseType)}")`);
  }
  const base = `phase-${phaseNumber}-${phaseType}`;
  if (revision === undefined || revision === 1) return base;
  if (!(Number.isInteger(revision) && revision >= 1)) {
    throw invalidField('revision', `must be a whole number, 1 or more (got ${revision})`);
  }
  return `${base}-rev-${revision}`;
}

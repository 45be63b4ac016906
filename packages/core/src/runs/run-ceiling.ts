import { DEFAULT_APPROVAL_THRESHOLD } from '../confidence/confidence.js';
import { GatehouseError } from '../errors.js';
import { invalidField } from '../invalid-field.js';
import { type ApprovalMode, AUTONOMY_LEVELS, type AutonomyLevel } from '../schemas.js';
import { resolveAutonomy } from './autonomy.js';

/** What a new run asks for; anything left out takes the agent's setting. */
export interface RunSettingsRequest {
  autonomy?: AutonomyLevel | undefined;
  approvalMode?: ApprovalMode | undefined;
  /** 0–1. */
  confidenceThreshold?: number | undefined;
}

/** The settings people gave the agent: its profile and its own autonomy. */
export interface AgentSettings {
  profile: string | null;
  autonomy: AutonomyLevel | null;
}

/** A run's settings as resolved, and whether its threshold was asked for. */
export interface RunSettings {
  autonomy: AutonomyLevel;
  approvalMode: ApprovalMode;
  confidenceThreshold: number;
  confidenceThresholdSet: boolean;
}

/** True when autonomy `a` freezes at least as often as `b` (full < review < partial < guided < dependent). */
export function isAtLeastAsStrict(a: AutonomyLevel, b: AutonomyLevel): boolean {
  return AUTONOMY_LEVELS.indexOf(a) >= AUTONOMY_LEVELS.indexOf(b);
}

function aboveCeiling(field: string, message: string, details: Record<string, unknown>): GatehouseError {
  return new GatehouseError('ABOVE_CEILING', message, { field, ...details });
}

/**
 * A new run's settings. The agent's autonomy (from people: its profile or the level set on it) and
 * the default confidence threshold are the loosest a run may use; a run may ask for stricter. Only a
 * person allowed to loosen (`mayLoosen`) may go beyond them.
 * @example resolveRunSettings({ profile: null, autonomy: 'dependent' }, { autonomy: 'guided' }, false)
 */
export function resolveRunSettings(
  agent: AgentSettings,
  requested: RunSettingsRequest,
  mayLoosen: boolean,
): RunSettings {
  const ceiling = resolveAutonomy({ profile: agent.profile, agentDefault: agent.autonomy });
  const autonomy = requested.autonomy ?? ceiling;
  if (!mayLoosen && !isAtLeastAsStrict(autonomy, ceiling)) {
    throw aboveCeiling(
      'autonomy',
      `autonomy "${autonomy}" is looser than "${ceiling}", the most this agent's runs may use; ask a person with role tech_lead to start the run or change the agent`,
      { ceiling, requested: autonomy },
    );
  }
  const threshold = requested.confidenceThreshold;
  if (threshold !== undefined && (!Number.isFinite(threshold) || threshold < 0 || threshold > 1)) {
    throw invalidField('confidenceThreshold', `must be between 0 and 1 (got ${threshold})`);
  }
  if (!mayLoosen && threshold !== undefined && threshold < DEFAULT_APPROVAL_THRESHOLD) {
    throw aboveCeiling(
      'confidenceThreshold',
      `confidenceThreshold ${threshold} is below ${DEFAULT_APPROVAL_THRESHOLD}, the lowest a run may ask for; ask a person with role tech_lead to start the run`,
      { floor: DEFAULT_APPROVAL_THRESHOLD, requested: threshold },
    );
  }
  return {
    autonomy,
    approvalMode: requested.approvalMode ?? 'auto',
    confidenceThreshold: threshold ?? DEFAULT_APPROVAL_THRESHOLD,
    confidenceThresholdSet: threshold !== undefined,
  };
}

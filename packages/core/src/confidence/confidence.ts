import { isDestructiveCommand, SHELL_TOOLS } from '../destructive/destructive.js';
import { assertNever } from '../errors.js';
import { invalidField } from '../invalid-field.js';
import type { ApprovalMode } from '../schemas.js';

/** The four confidence bands, highest first. */
export const CONFIDENCE_BANDS = ['high', 'medium', 'low', 'zero'] as const;
export type ConfidenceBand = (typeof CONFIDENCE_BANDS)[number];

/** Lowest confidence (0–1, inclusive) that still falls in each band. */
export const CONFIDENCE_BAND_FLOORS: Readonly<Record<ConfidenceBand, number>> = {
  high: 0.8,
  medium: 0.5,
  low: 0.2,
  zero: 0,
};

/** What Gatehouse does with a result in one confidence band. */
export interface BandAction {
  action: 'proceed' | 'auto_proceed' | 'hard_stop' | 'abort_subtask';
  /** True when a person must answer before the agent goes on. */
  requiresDecision: boolean;
  /** True when the result goes ahead after the auto-proceed delay unless a person intervenes. */
  autoProceed: boolean;
  /** True when the agent stops the subtask rather than waiting to continue it. */
  abortsSubtask: boolean;
  /** True when the gate shows why: the band, and the run's earlier reports. */
  presentsDiagnostics: boolean;
  description: string;
}

/** The action of each band, as the confidence seed describes it. */
export const BAND_ACTIONS: Readonly<Record<ConfidenceBand, BandAction>> = {
  high: {
    action: 'proceed',
    requiresDecision: false,
    autoProceed: false,
    abortsSubtask: false,
    presentsDiagnostics: false,
    description: 'Proceed automatically and log for audit.',
  },
  medium: {
    action: 'auto_proceed',
    requiresDecision: false,
    autoProceed: true,
    abortsSubtask: false,
    presentsDiagnostics: false,
    description: 'Show the summary and auto-proceed after the delay unless a person intervenes.',
  },
  low: {
    action: 'hard_stop',
    requiresDecision: true,
    autoProceed: false,
    abortsSubtask: false,
    presentsDiagnostics: false,
    description: 'Hard stop: require explicit approval.',
  },
  zero: {
    action: 'abort_subtask',
    requiresDecision: true,
    autoProceed: false,
    abortsSubtask: true,
    presentsDiagnostics: true,
    description: 'Abort the subtask, present diagnostics and wait for a human decision.',
  },
};

/** Default wait before a medium-confidence result proceeds on its own. */
export const DEFAULT_AUTO_PROCEED_DELAY_MS = 10_000;
/** Default threshold of the `confidence_threshold` approval mode (0–1). */
export const DEFAULT_APPROVAL_THRESHOLD = 0.8;

/** A confidence value on either scale: `score` 0–100 or `confidence` 0–1, exactly one of them. */
export type ConfidenceScale = { score?: number | undefined } | { confidence?: number | undefined };

function checkRange(field: string, value: number, max: number): number {
  if (!Number.isFinite(value) || value < 0 || value > max) {
    throw invalidField(field, `must be a number between 0 and ${max} (got ${value})`);
  }
  return value;
}

/** Turns a `score` (0–100) or a `confidence` (0–1) into the stored 0–1 value. */
export function normalizeConfidence(input: ConfidenceScale): number {
  const score = 'score' in input ? input.score : undefined;
  const confidence = 'confidence' in input ? input.confidence : undefined;
  if ((score === undefined) === (confidence === undefined)) {
    throw invalidField('score', 'give exactly one of score (0-100) or confidence (0-1)');
  }
  if (score !== undefined) {
    // Seed 000 reports `score: int` (0-100); a fraction belongs on the 0-1 `confidence` scale.
    if (Number.isFinite(score) && !Number.isInteger(score)) {
      throw invalidField(
        'score',
        `score must be a whole number from 0 to 100 (got ${score}); for a fraction use confidence (0-1)`,
      );
    }
    return checkRange('score', score, 100) / 100;
  }
  return checkRange('confidence', confidence as number, 1);
}

/** The band a 0–1 confidence falls in: 0.8 is high, 0.5 medium, 0.2 low, below 0.2 zero. */
export function confidenceBand(confidence: number): ConfidenceBand {
  checkRange('confidence', confidence, 1);
  if (confidence >= CONFIDENCE_BAND_FLOORS.high) return 'high';
  if (confidence >= CONFIDENCE_BAND_FLOORS.medium) return 'medium';
  if (confidence >= CONFIDENCE_BAND_FLOORS.low) return 'low';
  return 'zero';
}

/** When a self-reported confidence report escalates to a `confidence_threshold` gate. */
export interface ConfidenceConfig {
  /** Reports scoring below this (0–100) escalate. @default 90 */
  threshold: number;
  /** Master switch for confidence checks. @default true */
  enabled: boolean;
  /** Open a gate automatically below the threshold. @default true */
  autoEscalate: boolean;
  /** Delay before a medium-confidence result proceeds on its own. @default 10000 */
  autoProceedDelayMs: number;
}

/** The guardrails seed's defaults. */
export const DEFAULT_CONFIDENCE_CONFIG: Readonly<ConfidenceConfig> = {
  threshold: 90,
  enabled: true,
  autoEscalate: true,
  autoProceedDelayMs: DEFAULT_AUTO_PROCEED_DELAY_MS,
};

const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = { true: true, '1': true, false: false, '0': false };

function envValue(env: Record<string, string | undefined>, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

function envBoolean(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const raw = envValue(env, name);
  if (raw === undefined) return fallback;
  const value = BOOLEAN_TEXT[raw.toLowerCase()];
  if (value === undefined) throw invalidField(name, `must be true, false, 1 or 0 (got "${raw}")`);
  return value;
}

function envThreshold(env: Record<string, string | undefined>, fallback: number): number {
  const raw = envValue(env, 'CONFIDENCE_THRESHOLD');
  if (raw === undefined) return fallback;
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= 100)) {
    throw invalidField('CONFIDENCE_THRESHOLD', `must be a number between 0 and 100 (got "${raw}")`);
  }
  return value;
}

/**
 * Reads CONFIDENCE_THRESHOLD, CONFIDENCE_ENABLED and CONFIDENCE_AUTO_ESCALATE from an environment record.
 * @example loadConfidenceConfig({ CONFIDENCE_THRESHOLD: '75' }) // { threshold: 75, enabled: true, … }
 */
export function loadConfidenceConfig(env: Record<string, string | undefined>): ConfidenceConfig {
  return {
    threshold: envThreshold(env, DEFAULT_CONFIDENCE_CONFIG.threshold),
    enabled: envBoolean(env, 'CONFIDENCE_ENABLED', DEFAULT_CONFIDENCE_CONFIG.enabled),
    autoEscalate: envBoolean(env, 'CONFIDENCE_AUTO_ESCALATE', DEFAULT_CONFIDENCE_CONFIG.autoEscalate),
    autoProceedDelayMs: DEFAULT_CONFIDENCE_CONFIG.autoProceedDelayMs,
  };
}

/** A per-agent or per-run override; fields left out (or undefined) keep the wider setting. */
export type ConfidenceConfigOverride = { [K in keyof ConfidenceConfig]?: ConfidenceConfig[K] | undefined };

function checkOverride(override: ConfidenceConfigOverride, level: string): void {
  const { threshold, enabled, autoEscalate, autoProceedDelayMs } = override;
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 100)) {
    throw invalidField('threshold', `${level} must be between 0 and 100 (got ${threshold})`);
  }
  if (enabled !== undefined && typeof enabled !== 'boolean') {
    throw invalidField('enabled', `${level} must be true or false (got ${String(enabled)})`);
  }
  if (autoEscalate !== undefined && typeof autoEscalate !== 'boolean') {
    throw invalidField('autoEscalate', `${level} must be true or false (got ${String(autoEscalate)})`);
  }
  if (
    autoProceedDelayMs !== undefined &&
    !(Number.isInteger(autoProceedDelayMs) && autoProceedDelayMs >= 0)
  ) {
    throw invalidField(
      'autoProceedDelayMs',
      `${level} must be a whole number of milliseconds, 0 or more (got ${autoProceedDelayMs})`,
    );
  }
}

function applyOverride(base: ConfidenceConfig, override: ConfidenceConfigOverride): ConfidenceConfig {
  const next = { ...base };
  for (const key of Object.keys(base) as (keyof ConfidenceConfig)[]) {
    const value = override[key];
    if (value !== undefined) Object.assign(next, { [key]: value });
  }
  return next;
}

/** The effective confidence config: global < agent override < run override. */
export function resolveConfidenceConfig(
  global: ConfidenceConfig,
  agentOverride?: ConfidenceConfigOverride | null,
  runOverride?: ConfidenceConfigOverride | null,
): ConfidenceConfig {
  let config = { ...global };
  if (agentOverride) {
    checkOverride(agentOverride, 'the agent override');
    config = applyOverride(config, agentOverride);
  }
  if (runOverride) {
    checkOverride(runOverride, 'the run override');
    config = applyOverride(config, runOverride);
  }
  return config;
}

/** What a confidence report leads to. */
export interface ConfidenceEvaluation {
  /** True when a `confidence_threshold` gate should open. */
  escalate: boolean;
  /** True in the zero band: the agent stops the subtask and the gate presents diagnostics. */
  abortSubtask: boolean;
  band: ConfidenceBand;
  /** The report's confidence on the 0–1 scale. */
  confidence: number;
  /** One sentence for the audit trail. */
  reason: string;
}

function percent(value: number): string {
  return String(Math.round(value * 1000) / 10);
}

const ZERO_BAND = `zero band (below ${CONFIDENCE_BAND_FLOORS.low * 100})`;

/**
 * Decides whether a self-reported confidence report escalates to a person. Below the threshold it
 * escalates; in the zero band it also aborts the subtask and escalates whatever the threshold, as the
 * band table of the confidence seed asks for a human decision there.
 */
export function evaluateConfidenceReport(
  report: ConfidenceScale,
  config: ConfidenceConfig,
): ConfidenceEvaluation {
  const confidence = normalizeConfidence(report);
  const band = confidenceBand(confidence);
  const shown = `confidence ${percent(confidence)}`;
  const facts = { band, confidence };
  if (!config.enabled) {
    const reason = `${shown} not checked: confidence checks are disabled`;
    return { escalate: false, abortSubtask: false, ...facts, reason };
  }
  const abortSubtask = BAND_ACTIONS[band].abortsSubtask;
  // Both sides divided by 100 so a score equal to the threshold compares equal.
  const below = confidence < config.threshold / 100;
  if (!below && !abortSubtask) {
    const reason = `${shown} meets the threshold ${config.threshold}`;
    return { escalate: false, abortSubtask, ...facts, reason };
  }
  const position = below ? `is below the threshold ${config.threshold}` : 'meets the threshold';
  const why = abortSubtask
    ? `${shown} ${position} and is in the ${ZERO_BAND}: abort the subtask and wait for a person's decision`
    : `${shown} ${position}`;
  if (!config.autoEscalate) {
    return { escalate: false, abortSubtask, ...facts, reason: `${why}; auto-escalation is off` };
  }
  return { escalate: true, abortSubtask, ...facts, reason: why };
}

/** True when a step's own confidence (0–1) is in the zero band: the agent aborts the subtask and waits. */
export function abortsSubtask(confidence: number | null | undefined): boolean {
  return typeof confidence === 'number' && BAND_ACTIONS[confidenceBand(confidence)].abortsSubtask;
}

/** Why a step in the zero band waits for a person whatever the policy or the run's mode says. */
export function zeroBandReason(confidence: number): string {
  return `confidence ${percent(confidence)} is in the ${ZERO_BAND}: abort the subtask and wait for a person's decision`;
}

/** What the diagnostics of a zero-band report are drawn from. */
export interface ConfidenceDiagnosticsInput {
  /** The report's confidence, 0–1. */
  confidence: number;
  taskId: string | null;
  /** The run's earlier reports, oldest first. */
  earlier: readonly { confidence: number; taskId: string | null }[];
}

/** The first diagnostic of the zero band: the subtask was aborted, and why. */
export function subtaskAbortedLine(confidence: number, taskId: string | null): string {
  const subtask = taskId === null ? 'Subtask' : `Subtask ${taskId}`;
  return `${subtask} aborted: confidence ${percent(confidence)} / 100 is in the ${ZERO_BAND}.`;
}

/** The diagnostics a zero-band gate presents: that the subtask was aborted, and how the run's confidence went before. */
export function confidenceDiagnostics(input: ConfidenceDiagnosticsInput): string[] {
  const history = input.earlier.map(
    (report) => `${percent(report.confidence)}${report.taskId === null ? '' : ` (${report.taskId})`}`,
  );
  return [
    subtaskAbortedLine(input.confidence, input.taskId),
    history.length === 0
      ? 'No earlier reports on this run.'
      : `Earlier reports on this run: ${history.join(', ')}.`,
  ];
}

/** One tool call of a finished subtask, as the weighted scorer sees it. */
export interface ScoredToolCall {
  tool: string;
  args: Readonly<Record<string, unknown>>;
  success: boolean;
}

/** The weighted scorer's input: verification result, retries and tool calls of one subtask. */
export interface ScoreConfidenceInput {
  verification: {
    /** Highest verification tier that ran (0 = none). */
    tier: number;
    checks: readonly { passed: boolean }[];
    /** Tier-2 verification confidence, 0–1. */
    confidence: number;
  };
  retryCount: number;
  maxRetries: number;
  toolCalls: readonly ScoredToolCall[];
}

function checkScoreInput(input: ScoreConfidenceInput): void {
  const { verification, retryCount, maxRetries } = input;
  if (!(Number.isInteger(verification.tier) && verification.tier >= 0)) {
    throw invalidField('verification.tier', `must be a whole number, 0 or more (got ${verification.tier})`);
  }
  checkRange('verification.confidence', verification.confidence, 1);
  if (!(Number.isInteger(retryCount) && retryCount >= 0)) {
    throw invalidField('retryCount', `must be a whole number, 0 or more (got ${retryCount})`);
  }
  if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw invalidField('maxRetries', `must be a whole number, 0 or more (got ${maxRetries})`);
  }
}

/** The seed lower-cases the command first; the command as written is checked too, for flags like `git branch -D`. */
function isDestructiveInAnyCase(command: string): boolean {
  return isDestructiveCommand(command.toLowerCase()) || isDestructiveCommand(command);
}

function hasDestructiveCall(toolCalls: readonly ScoredToolCall[]): boolean {
  return toolCalls.some((call) => {
    const command = call.args.command;
    return SHELL_TOOLS.has(call.tool) && typeof command === 'string' && isDestructiveInAnyCase(command);
  });
}

function retryPenalty(retryCount: number, maxRetries: number): number {
  // With no retries allowed, any retry is the full penalty rather than a division by zero.
  if (maxRetries === 0) return retryCount > 0 ? 1 : 0;
  return Math.min(retryCount / maxRetries, 1);
}

/**
 * The confidence seed's weighted scorer: verification tiers, retries, destructiveness and tool success, 0–1.
 * @example scoreConfidence({ verification: { tier: 0, checks: [], confidence: 0 }, retryCount: 0, maxRetries: 3, toolCalls: [] }) // 1
 */
export function scoreConfidence(input: ScoreConfidenceInput): number {
  checkScoreInput(input);
  const { verification, toolCalls } = input;
  let score = 0;
  let weights = 0;
  if (verification.tier >= 1) {
    const passed = verification.checks.filter((check) => check.passed).length;
    score += (passed / Math.max(verification.checks.length, 1)) * 0.3;
    weights += 0.3;
  }
  if (verification.tier >= 2) {
    score += verification.confidence * 0.3;
    weights += 0.3;
  }
  score += (1 - retryPenalty(input.retryCount, input.maxRetries)) * 0.2;
  weights += 0.2;
  if (!hasDestructiveCall(toolCalls)) score += 0.1;
  weights += 0.1;
  const succeeded = toolCalls.filter((call) => call.success).length;
  score += toolCalls.length > 0 ? (succeeded / toolCalls.length) * 0.1 : 0.1;
  weights += 0.1;
  return score / weights;
}

/** What a run's approval mode says about one step. */
export type ApprovalDecision = 'proceed' | 'wait' | 'wait_with_timeout';

export interface CheckApprovalInput {
  mode: ApprovalMode;
  /** The step's confidence, 0–1. */
  confidence: number;
  /** True when the step falls under an always-gated category. */
  alwaysGated: boolean;
  /** Threshold of the `confidence_threshold` mode, 0–1. @default 0.8 */
  threshold?: number | undefined;
}

/** The approval-mode rule of the confidence seed: proceed, wait, or wait and auto-proceed after the delay. */
export function checkApproval(input: CheckApprovalInput): ApprovalDecision {
  const { mode, confidence, alwaysGated } = input;
  switch (mode) {
    case 'manual':
      return 'wait';
    case 'auto':
      if (alwaysGated) return 'wait';
      if (confidence >= CONFIDENCE_BAND_FLOORS.high) return 'proceed';
      if (confidence >= CONFIDENCE_BAND_FLOORS.medium) return 'wait_with_timeout';
      return 'wait';
    case 'confidence_threshold': {
      const threshold = input.threshold ?? DEFAULT_APPROVAL_THRESHOLD;
      return confidence >= threshold && !alwaysGated ? 'proceed' : 'wait';
    }
    default:
      return assertNever(mode);
  }
}

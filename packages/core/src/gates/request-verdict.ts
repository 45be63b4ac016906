import { abortsSubtask, checkApproval, zeroBandReason } from '../confidence/confidence.js';
import { GatehouseError } from '../errors.js';
import type { PolicyDecision, PolicyDecisionGate } from '../policy/policy-engine.js';
import { defaultEventOf, type PolicyRequest } from '../policy/policy-schema.js';
import {
  type ApprovalMode,
  type GateTypeDefinition,
  RISK_LEVELS,
  type RiskLevel,
  type Role,
  roleRank,
  type TimeoutAction,
} from '../schemas.js';
import { proceedOnTimeoutRefusal } from './catalog.js';
import type { OpenGateInput } from './gate-open.js';

/** Read-only tools of the cowork seed and common agent frameworks: every approval mode lets them through. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'search_files',
  'list_directory',
  'glob_find',
  'ripgrep_search',
  'analyze_code',
  'ask_user',
  'web_search',
  'web_fetch',
  'task_tracker',
  'Read',
  'Glob',
  'Grep',
  'LS',
]);

/** True when `tool` only reads. */
export function isReadOnlyTool(tool: string | undefined): boolean {
  return tool !== undefined && READ_ONLY_TOOLS.has(tool);
}

/** Everything that decides one request besides the policy text itself. */
export interface VerdictInput {
  policy: PolicyDecision;
  /** The run's approval settings; null when the request belongs to no run. */
  run: { approvalMode: ApprovalMode; confidenceThreshold: number } | null;
  /** The agent's confidence for this step, 0–1; null when it gave none. */
  confidence: number | null;
  alwaysGated: boolean;
  /** The tool only reads. */
  readOnly: boolean;
  /** A remembered "approve always" rule covering this tool, if any. */
  rememberedRuleId: string | null;
  /** Gate type to open when the approval mode (not the policy) asks for a person. */
  fallbackGateType: string;
  /** The medium band waits this long, then proceeds. */
  autoProceedDelayMs: number;
  /** The fallback gate type and risk allow "proceed" on timeout (see autoProceedAllowed). */
  canAutoProceed: boolean;
}

/** What happens to one request, and which rule or setting said so. */
export type Verdict =
  | {
      outcome: 'allowed';
      ruleId: string | null;
      reason: string;
      via: 'policy' | 'remembered_rule' | 'trigger_rules';
    }
  | { outcome: 'denied'; ruleId: string | null; reason: string; via: 'policy' }
  | {
      outcome: 'gated';
      ruleId: string | null;
      reason: string;
      via: 'policy' | 'approval_mode';
      gate: PolicyDecisionGate;
    };

export type GatedVerdict = Extract<Verdict, { outcome: 'gated' }>;

/** The gate type a request opens when nothing more specific names one. */
export function fallbackGateType(request: Pick<PolicyRequest, 'gateType' | 'tool'>): string {
  return request.gateType ?? defaultEventOf(request);
}

/** Whether the approval mode's timed wait may end by proceeding for a gate of this type and risk. */
export function autoProceedAllowed(
  definition: GateTypeDefinition,
  risk: RiskLevel | undefined,
  alwaysGated: boolean,
): boolean {
  const refusal = proceedOnTimeoutRefusal({
    definition,
    risk: higherRisk(definition.defaultRisk, risk),
    alwaysGated,
    destructive: false,
  });
  return refusal === null;
}

/** Learned rules (accepted trust proposals) are remembered rules with ids of their own prefix. */
export const LEARNED_RULE_PREFIX = 'rule_learned';

function isLearnedRuleId(id: string): boolean {
  return id.startsWith(`${LEARNED_RULE_PREFIX}_`);
}

function remembered(input: VerdictInput): Verdict | null {
  if (input.rememberedRuleId === null || input.alwaysGated) return null;
  return {
    outcome: 'allowed',
    ruleId: input.rememberedRuleId,
    reason: isLearnedRuleId(input.rememberedRuleId)
      ? `a learned rule allows calls like this one: people approved them repeatedly and the proposal was accepted (rule ${input.rememberedRuleId})`
      : `a person chose "approve always" for calls like this one (rule ${input.rememberedRuleId})`,
    via: 'remembered_rule',
  };
}

function modeGate(input: VerdictInput, mode: ApprovalMode, timed: boolean): Verdict {
  const type = input.fallbackGateType;
  if (timed && input.canAutoProceed) {
    const seconds = Math.max(1, Math.ceil(input.autoProceedDelayMs / 1000));
    return {
      outcome: 'gated',
      ruleId: null,
      reason: `medium confidence in ${mode} mode: goes ahead after ${seconds}s unless a person intervenes`,
      via: 'approval_mode',
      gate: { type, timeoutAction: 'proceed', timeoutSeconds: seconds },
    };
  }
  const why =
    mode === 'manual'
      ? 'the run is in manual approval mode: every step waits for a person'
      : `confidence is too low for the run's ${mode} approval mode`;
  return { outcome: 'gated', ruleId: null, reason: why, via: 'approval_mode', gate: { type } };
}

/** The built-in rule that holds always-gated operations under any policy a person writes. */
export const ALWAYS_GATED_RULE_ID = 'always-gated';

/** What a gate names as its rule when no rule of the policy matched and its `defaultAction` gated. */
export const POLICY_DEFAULT_RULE_ID = 'policy-default';

/** What a gate names as its rule when the run's approval mode, not the policy, made it wait. */
export const APPROVAL_MODE_RULE_ID = 'approval-mode';

/** The rule a gate names: a reviewer always sees what made the request wait, not only its risk. */
function gateRuleOf(verdict: GatedVerdict): string {
  if (verdict.ruleId !== null) return verdict.ruleId;
  return verdict.via === 'approval_mode' ? APPROVAL_MODE_RULE_ID : POLICY_DEFAULT_RULE_ID;
}

/** Always-gated operations wait at high risk or above, whatever a rule says. */
function atLeastHigh(gate: PolicyDecisionGate, alwaysGated: boolean): PolicyDecisionGate {
  if (
    !alwaysGated ||
    (gate.risk !== undefined && RISK_LEVELS.indexOf(gate.risk) >= RISK_LEVELS.indexOf('high'))
  )
    return gate;
  return { ...gate, risk: 'high' };
}

/**
 * Combines the policy's decision, remembered "approve always" rules and the run's approval mode.
 * The approval mode only ever adds a wait: it never lets through what the policy gates or denies.
 * Always-gated operations (seed 003: "regardless of" settings) wait for a person at high risk
 * even where the policy allows them; a deny stays a deny.
 */
export function decideVerdict(input: VerdictInput): Verdict {
  return holdZeroBand(decideByPolicyAndMode(input), input);
}

/**
 * Seed 003's zero band (< 0.2): "Abort subtask. Present diagnostics. Wait for human decision." A step
 * the agent itself rates there waits at high risk, never proceeds on a timeout; a deny stays a deny
 * and a read-only tool stays allowed.
 */
function holdZeroBand(verdict: Verdict, input: VerdictInput): Verdict {
  if (verdict.outcome === 'denied' || input.confidence === null || !abortsSubtask(input.confidence))
    return verdict;
  // Seed 003's auto-approved reads are "never prompted"; the answer still tells the agent to stop.
  if (verdict.outcome === 'allowed' && input.readOnly) return verdict;
  const reason = zeroBandReason(input.confidence);
  if (verdict.outcome === 'gated') {
    const { timeoutAction, ...gate } = verdict.gate;
    return {
      ...verdict,
      reason: `${verdict.reason}; ${reason}`,
      gate: {
        ...gate,
        ...(timeoutAction === undefined || timeoutAction === 'proceed' ? {} : { timeoutAction }),
        risk: higherRisk('high', gate.risk),
      },
    };
  }
  return {
    outcome: 'gated',
    ruleId: null,
    reason,
    via: 'approval_mode',
    gate: { type: input.fallbackGateType, risk: 'high' },
  };
}

function decideByPolicyAndMode(input: VerdictInput): Verdict {
  const { policy } = input;
  if (policy.action === 'deny') {
    return { outcome: 'denied', ruleId: policy.ruleId, reason: policy.reason, via: 'policy' };
  }
  if (policy.action === 'allow' && input.alwaysGated) {
    return {
      outcome: 'gated',
      ruleId: ALWAYS_GATED_RULE_ID,
      reason: `always gated whatever the policy says (${policy.ruleId === null ? 'the policy' : `rule ${policy.ruleId}`} would allow it)`,
      via: 'policy',
      gate: { type: input.fallbackGateType, risk: 'high' },
    };
  }
  if (policy.action === 'gate') {
    const gate = atLeastHigh(policy.gate ?? { type: input.fallbackGateType }, input.alwaysGated);
    return (
      remembered(input) ?? {
        outcome: 'gated',
        ruleId: policy.ruleId,
        reason: policy.reason,
        via: 'policy',
        gate,
      }
    );
  }
  const allowed: Verdict = {
    outcome: 'allowed',
    ruleId: policy.ruleId,
    reason: policy.reason,
    via: 'policy',
  };
  const { run } = input;
  if (run === null || input.readOnly) return allowed;
  const mode = run.approvalMode;
  // Without a confidence only manual mode has something to say.
  if (mode !== 'manual' && input.confidence === null) return allowed;
  const approval = checkApproval({
    mode,
    confidence: input.confidence ?? 0,
    alwaysGated: input.alwaysGated,
    threshold: run.confidenceThreshold,
  });
  if (approval === 'proceed') return allowed;
  return remembered(input) ?? modeGate(input, mode, approval === 'wait_with_timeout');
}

function higherRisk(a: RiskLevel, b: RiskLevel | undefined): RiskLevel {
  if (b === undefined) return a;
  return RISK_LEVELS.indexOf(b) > RISK_LEVELS.indexOf(a) ? b : a;
}

/** What the agent asked for with its request; each may only make the gate stricter. */
export interface RequestedGateSettings {
  risk?: RiskLevel | undefined;
  timeoutSeconds?: number | undefined;
  timeoutAction?: TimeoutAction | undefined;
}

/** The gate a verdict opens, before the agent's wishes are applied. */
interface PeopleSettings {
  gate: PolicyDecisionGate;
  definition: GateTypeDefinition;
  alwaysGated: boolean;
}

interface Timeout {
  action: TimeoutAction;
  seconds: number | undefined;
}

/** Deny or escalate as the agent asks, unless a rule chose one of them; "proceed" is never the agent's to ask. */
function timeoutActionOf(
  { gate, definition }: PeopleSettings,
  requested: TimeoutAction | undefined,
): TimeoutAction {
  const ruled = gate.timeoutAction;
  if (requested === 'deny' || requested === 'escalate') {
    return ruled === undefined || ruled === 'proceed' ? requested : ruled;
  }
  return ruled ?? definition.defaultTimeoutAction;
}

/** The agent's timeout wishes where they wait longer or end without proceeding; never an earlier or new "proceed". */
function agentTimeout(people: PeopleSettings, requested: RequestedGateSettings): Timeout {
  const action = timeoutActionOf(people, requested.timeoutAction);
  const seconds = people.gate.timeoutSeconds;
  if (requested.timeoutSeconds === undefined) return { action, seconds };
  if (action === 'proceed') {
    // Proceeding later, or never, is stricter; proceeding sooner is not the agent's to choose.
    return {
      action,
      seconds: seconds === undefined ? undefined : Math.max(seconds, requested.timeoutSeconds),
    };
  }
  // A deadline that ends without proceeding only shortens the agent's own wait.
  if (seconds === undefined) return { action, seconds: requested.timeoutSeconds };
  return { action, seconds: Math.min(seconds, requested.timeoutSeconds) };
}

function agentProceedRefused(type: string, why: string): GatehouseError {
  return new GatehouseError(
    'TIMEOUT_ACTION_NOT_ALLOWED',
    `timeoutAction "proceed" is not allowed here because ${why}; use "deny" or "escalate", or leave it out`,
    { field: 'timeoutAction', type, reason: why },
  );
}

/** The role a gate needs: the policy's when it raises the type's, else the type's. */
function minRoleOf(gate: PolicyDecisionGate, definition: GateTypeDefinition): Role {
  const wanted = gate.minRole;
  return wanted !== undefined && roleRank(wanted) > roleRank(definition.minRole)
    ? wanted
    : definition.minRole;
}

/**
 * The settings of the gate a verdict opens. People's settings (the policy rule and the gate type)
 * come first; what the agent asked for only makes them stricter: a higher risk, a shorter wait
 * that ends in deny, a later or no "proceed". Proceed-on-timeout only survives inside its limits;
 * an agent asking for it where people did not grant it gets TIMEOUT_ACTION_NOT_ALLOWED.
 */
export function gateSettingsOf(
  verdict: GatedVerdict,
  requested: RequestedGateSettings,
  people: Omit<PeopleSettings, 'gate'>,
): OpenGateInput {
  const { gate } = verdict;
  const { definition, alwaysGated } = people;
  const risk = higherRisk(gate.risk ?? definition.defaultRisk, requested.risk);
  const timeout = agentTimeout({ gate, ...people }, requested);
  const requiredApprovals = gate.requiredApprovals ?? 1;
  const minRole = minRoleOf(gate, definition);
  const refusal = proceedOnTimeoutRefusal({
    definition,
    risk,
    alwaysGated,
    destructive: false,
    threshold: gate.threshold,
    requiredApprovals,
    minRole,
    signatureRequired: gate.signature === true || definition.signature === 'always',
  });
  const timeoutAction = timeout.action === 'proceed' && refusal !== null ? 'deny' : timeout.action;
  if (requested.timeoutAction === 'proceed' && timeoutAction !== 'proceed') {
    throw agentProceedRefused(gate.type, refusal ?? 'only a person’s policy rule grants it');
  }
  return {
    type: gate.type,
    risk,
    threshold: gate.threshold,
    timeoutMs: timeout.seconds === undefined ? null : timeout.seconds * 1000,
    timeoutAction,
    requiredApprovals: gate.requiredApprovals,
    minRole: gate.minRole,
    assignees: gate.assignees,
    signature: gate.signature,
    separationOfDuties: gate.separationOfDuties,
    escalationChain: gate.escalationChain,
    policyRuleId: gateRuleOf(verdict),
    alwaysGated,
    editable: gate.editable,
  };
}

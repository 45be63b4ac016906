import { z } from 'zod';
import type { DestructiveActionKind } from '../destructive/destructive-alternatives.js';
import { invalidField } from '../invalid-field.js';

/** Gate types whose opening is decided by the persistence seed's trigger rules. */
export const TRIGGER_GATE_TYPES = [
  'recovery_escalation',
  'destructive_action',
  'false_positive_override',
] as const;
export type TriggerGateType = (typeof TRIGGER_GATE_TYPES)[number];

/** The limits of the trigger rules. */
export const TRIGGER_LIMITS = {
  maxRecoveryAttempts: 3,
  minRecoveryConfidence: 0.5,
  minCoverageDelta: -2.0,
  maxAssertionsWeakened: 2,
  minDetectionConfidence: 0.7,
} as const;

const count = z.number().int().min(0);
const unitInterval = z.number().min(0).max(1);

const recoverySchema = z.object({
  recoveryAttempts: count.default(0),
  confidence: unitInterval.default(1),
  severity: z.string().default('LOW'),
  infiniteLoopDetected: z.boolean().default(false),
  nonDeterministicFailure: z.boolean().default(false),
});

const destructiveSchema = z.object({
  actionType: z.string().optional(),
  testsRemoved: count.default(0),
  /** Change of test coverage in percentage points, e.g. -2.5. */
  coverageDelta: z.number().default(0),
  featuresRemoved: count.default(0),
  assertionsWeakened: count.default(0),
  skipPatternsAdded: count.default(0),
  replacementTests: count.default(0),
  coverageMaintained: z.boolean().default(false),
  documentedInRequirements: z.boolean().default(false),
  approvedByPm: z.boolean().default(false),
});

const falsePositiveSchema = z.object({
  falsePositiveReported: z.boolean().default(false),
  detectionConfidence: unitInterval.optional(),
});

export type RecoveryEscalationContext = z.output<typeof recoverySchema>;
export type DestructiveActionContext = z.output<typeof destructiveSchema>;
export type FalsePositiveOverrideContext = z.output<typeof falsePositiveSchema>;

type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;
type Loose<T> = { [K in keyof T]?: T[K] | null | undefined };

/** Trigger fields in camelCase or in the seed's snake_case; other context keys pass through untouched. */
export type TriggerContextInput<T> = Readonly<Record<string, unknown>> &
  Loose<T> &
  Loose<{ [K in keyof T as SnakeCase<K & string>]: T[K] }>;

export type RecoveryEscalationInput = TriggerContextInput<z.input<typeof recoverySchema>>;
export type DestructiveActionInput = TriggerContextInput<z.input<typeof destructiveSchema>> & {
  deleted_tests?: number | null | undefined;
};
export type FalsePositiveOverrideInput = TriggerContextInput<z.input<typeof falsePositiveSchema>>;

interface TriggerInputs {
  recovery_escalation: RecoveryEscalationInput;
  destructive_action: DestructiveActionInput;
  false_positive_override: FalsePositiveOverrideInput;
}

/** The context a trigger evaluation takes for gate type `G`. */
export type TriggerInput<G extends string> = G extends TriggerGateType
  ? TriggerInputs[G]
  : Readonly<Record<string, unknown>>;

/** Why a trigger rule fired; destructive rules use the kinds that DESTRUCTIVE_ALTERNATIVES knows. */
export type TriggerRuleId =
  | 'max_recovery_attempts'
  | 'low_confidence'
  | 'critical_severity'
  | 'infinite_loop'
  | 'non_deterministic_failure'
  | DestructiveActionKind
  | 'false_positive_reported'
  | 'low_detection_confidence';

/** An auto-approve condition that lets a destructive action through without a gate. */
export type AutoApproval = 'legitimate_test_refactoring' | 'intentional_scope_reduction';

/** The outcome of the trigger rules, with the reasons the audit trail records. */
export interface TriggerEvaluation {
  trigger: boolean;
  /** Rules that matched, in rule order. */
  rules: TriggerRuleId[];
  /** One readable sentence per matched rule. */
  reasons: string[];
  /** Set when an auto-approve condition held; the gate then stays closed whatever the rules say. */
  autoApproved?: AutoApproval;
}

interface TriggerRule<C> {
  id: TriggerRuleId;
  matches: (context: C) => boolean;
  reason: (context: C) => string;
}

const L = TRIGGER_LIMITS;

const RECOVERY_RULES: readonly TriggerRule<RecoveryEscalationContext>[] = [
  {
    id: 'max_recovery_attempts',
    matches: (c) => c.recoveryAttempts >= L.maxRecoveryAttempts,
    reason: (c) => `recovery_attempts ${c.recoveryAttempts} reached the maximum of ${L.maxRecoveryAttempts}`,
  },
  {
    id: 'low_confidence',
    matches: (c) => c.confidence < L.minRecoveryConfidence,
    reason: (c) =>
      `confidence ${c.confidence} is below ${L.minRecoveryConfidence}: the diagnosis is uncertain`,
  },
  {
    id: 'critical_severity',
    matches: (c) => c.severity.toUpperCase() === 'CRITICAL',
    reason: () => 'severity is CRITICAL',
  },
  {
    id: 'infinite_loop',
    matches: (c) => c.infiniteLoopDetected,
    reason: () => 'infinite loop detected: the agent keeps repeating the same fix',
  },
  {
    id: 'non_deterministic_failure',
    matches: (c) => c.nonDeterministicFailure,
    reason: () => 'non-deterministic failure detected (flaky test)',
  },
];

const DESTRUCTIVE_RULES: readonly TriggerRule<DestructiveActionContext>[] = [
  {
    id: 'test_deletion',
    matches: (c) => c.testsRemoved > 0,
    reason: (c) => `tests_removed ${c.testsRemoved}: tests were removed`,
  },
  {
    id: 'coverage_regression',
    matches: (c) => c.coverageDelta < L.minCoverageDelta,
    reason: (c) =>
      `coverage_delta ${c.coverageDelta}: coverage dropped by more than ${-L.minCoverageDelta} points`,
  },
  {
    id: 'feature_removal',
    matches: (c) => c.featuresRemoved > 0,
    reason: (c) => `features_removed ${c.featuresRemoved}: features were removed`,
  },
  {
    id: 'assertion_weakening',
    matches: (c) => c.assertionsWeakened > L.maxAssertionsWeakened,
    reason: (c) => `assertions_weakened ${c.assertionsWeakened} is more than ${L.maxAssertionsWeakened}`,
  },
  {
    id: 'test_skip',
    matches: (c) => c.skipPatternsAdded > 0,
    reason: (c) => `skip_patterns_added ${c.skipPatternsAdded}: tests were skipped`,
  },
];

const FALSE_POSITIVE_RULES: readonly TriggerRule<FalsePositiveOverrideContext>[] = [
  {
    id: 'false_positive_reported',
    matches: (c) => c.falsePositiveReported,
    reason: () => 'a false positive was reported',
  },
  {
    id: 'low_detection_confidence',
    matches: (c) => c.detectionConfidence !== undefined && c.detectionConfidence < L.minDetectionConfidence,
    reason: (c) =>
      `detection_confidence ${c.detectionConfidence} is below ${L.minDetectionConfidence}: the detection may be wrong`,
  },
];

/** The seed's two auto-approve conditions, checked before any destructive-action rule. */
export const AUTO_APPROVE_CONDITIONS: readonly {
  id: AutoApproval;
  actionType: 'test_deletion' | 'feature_removal';
  description: string;
  holds: (context: DestructiveActionContext) => boolean;
}[] = [
  {
    id: 'legitimate_test_refactoring',
    actionType: 'test_deletion',
    description: 'replacement_tests >= tests_removed and coverage_maintained',
    holds: (c) =>
      c.actionType === 'test_deletion' && c.replacementTests >= c.testsRemoved && c.coverageMaintained,
  },
  {
    id: 'intentional_scope_reduction',
    actionType: 'feature_removal',
    description: 'documented_in_requirements and approved_by_pm',
    holds: (c) => c.actionType === 'feature_removal' && c.documentedInRequirements && c.approvedByPm,
  },
];

const ALIASES: Readonly<Record<string, readonly string[]>> = {
  testsRemoved: ['deleted_tests', 'deletedTests'],
};

function toSnakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function readFields(context: unknown, fields: readonly string[]) {
  if (typeof context !== 'object' || context === null || Array.isArray(context)) {
    throw invalidField('context', 'must be an object of trigger fields');
  }
  const record = context as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  const sentAs = new Map<string, string>();
  for (const field of fields) {
    for (const name of new Set([field, toSnakeCase(field), ...(ALIASES[field] ?? [])])) {
      const value = Object.hasOwn(record, name) ? record[name] : undefined;
      // Agents written in other languages send null for "not set".
      if (value === undefined || value === null) continue;
      const earlier = sentAs.get(field);
      if (earlier === undefined) {
        values[field] = value;
        sentAs.set(field, name);
      } else if (!Object.is(values[field], value)) {
        throw invalidField(name, `conflicts with ${earlier}; send the value once`);
      }
    }
  }
  return { values, sentAs };
}

function parseContext<S extends z.ZodObject>(schema: S, context: unknown): z.output<S> {
  const { values, sentAs } = readFields(context, Object.keys(schema.shape));
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0]);
  throw invalidField(sentAs.get(field) ?? toSnakeCase(field), issue.message);
}

function applyRules<C>(rules: readonly TriggerRule<C>[], context: C): TriggerEvaluation {
  const matched = rules.filter((rule) => rule.matches(context));
  return {
    trigger: matched.length > 0,
    rules: matched.map((rule) => rule.id),
    reasons: matched.map((rule) => rule.reason(context)),
  };
}

function evaluateDestructiveAction(input: unknown): TriggerEvaluation {
  const context = parseContext(destructiveSchema, input);
  const evaluation = applyRules(DESTRUCTIVE_RULES, context);
  const auto = AUTO_APPROVE_CONDITIONS.find((condition) => condition.holds(context));
  return auto === undefined ? evaluation : { ...evaluation, trigger: false, autoApproved: auto.id };
}

/**
 * Runs a gate type's trigger rules over an agent's context (camelCase or snake_case keys) and says why.
 * Unknown gate types never trigger; invalid fields throw VALIDATION_FAILED naming the key as sent.
 * @example evaluateTrigger('recovery_escalation', { recovery_attempts: 3, confidence: 0.45 })
 */
export function evaluateTrigger<G extends string>(gateType: G, context: TriggerInput<G>): TriggerEvaluation {
  switch (gateType) {
    case 'recovery_escalation':
      return applyRules(RECOVERY_RULES, parseContext(recoverySchema, context));
    case 'destructive_action':
      return evaluateDestructiveAction(context);
    case 'false_positive_override':
      return applyRules(FALSE_POSITIVE_RULES, parseContext(falsePositiveSchema, context));
    default:
      return { trigger: false, rules: [], reasons: [] };
  }
}

/** True when the trigger rules of `gateType` say a gate should open for this context. */
export function shouldTriggerGate<G extends string>(gateType: G, context: TriggerInput<G>): boolean {
  return evaluateTrigger(gateType, context).trigger;
}

import type { GateTypeDefinition } from '../schemas.js';
import { codeReview } from './code-review.js';
import { confidenceThreshold } from './confidence-threshold.js';
import { constraintException } from './constraint-exception.js';
import type { GateTypeSpec } from './define.js';
import { deploymentApproval } from './deployment-approval.js';
import { designReview } from './design-review.js';
import { destructiveAction } from './destructive-action.js';
import { falsePositiveOverride } from './false-positive-override.js';
import { intentApproval } from './intent-approval.js';
import { operation } from './operation.js';
import { phaseReview } from './phase-review.js';
import { prdReview } from './prd-review.js';
import { question } from './question.js';
import { recoveryEscalation } from './recovery-escalation.js';
import { testReview } from './test-review.js';
import { toolCall } from './tool-call.js';

export type {
  BriefingBuilder,
  GateOpener,
  GateTypeBehaviour,
  GateTypeSpec,
  OptionEquivalents,
} from './define.js';
export { DEFAULT_GATE_BEHAVIOUR, defineGateType } from './define.js';
export { QUESTION_GATE_TYPE } from './question.js';

/** Every gate type Gatehouse ships, one spec each, in the order the catalog lists them. */
export const BUILTIN_GATE_SPECS: readonly GateTypeSpec[] = Object.freeze([
  toolCall,
  operation,
  intentApproval,
  confidenceThreshold,
  constraintException,
  recoveryEscalation,
  falsePositiveOverride,
  destructiveAction,
  phaseReview,
  question,
  prdReview,
  designReview,
  codeReview,
  testReview,
  deploymentApproval,
]);

/** Every gate type Gatehouse ships, with its option set and defaults. */
export const BUILTIN_GATE_TYPES: readonly GateTypeDefinition[] = Object.freeze(
  BUILTIN_GATE_SPECS.map((spec) => spec.definition),
);

const BY_TYPE: ReadonlyMap<string, GateTypeSpec> = new Map(
  BUILTIN_GATE_SPECS.map((spec) => [spec.definition.type, spec]),
);

/** The spec of a built-in gate type, or undefined for any other type. */
export function builtinGateSpec(type: string): GateTypeSpec | undefined {
  return BY_TYPE.get(type);
}

/** The built-in gate types for which `has` holds. */
export function builtinTypesWhere(has: (spec: GateTypeSpec) => boolean): ReadonlySet<string> {
  return new Set(BUILTIN_GATE_SPECS.filter(has).map((spec) => spec.definition.type));
}

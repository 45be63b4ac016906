import type { GateOption, GateTypeDefinition, OptionOutcome } from './schemas.js';

type Requirement = GateOption['requires'][number];

function ending(
  id: string,
  label: string,
  key: string,
  description: string,
  outcome: OptionOutcome,
  requires: Requirement[] = [],
): GateOption {
  return { id, label, key, description, ends: true, outcome, requires };
}

function showing(id: string, label: string, key: string, description: string): GateOption {
  return { id, label, key, description, ends: false, requires: [] };
}

const approve = (key: string, description = 'Go ahead as proposed'): GateOption =>
  ending('approve', 'Approve', key, description, 'approved');
const reject = (key: string, description = 'Do not go ahead; the agent is told why'): GateOption =>
  ending('reject', 'Reject', key, description, 'rejected');
const steer = (key: string, description = 'Go ahead with corrected instructions'): GateOption =>
  ending('steer', 'Steer', key, description, 'steered', ['instructions']);
const rejectRollback = (key: string, description: string): GateOption =>
  ending('reject_rollback', 'Reject & rollback', key, description, 'rejected');
const abort = (key: string): GateOption =>
  ending('abort', 'Abort', key, 'Stop the task entirely and clean up', 'resolved');

const TOOL_CALL_OPTIONS: GateOption[] = [
  approve('a', 'Run this call once'),
  ending(
    'approve_always',
    'Always',
    'w',
    'Run it, and let later calls like this one (the scope chosen) go ahead without asking',
    'approved',
  ),
  reject('r', 'Do not run this call; the agent is told why'),
  steer('s', 'Do not run it as proposed; give the agent corrected instructions'),
];

const REVIEW_OPTIONS: GateOption[] = [approve('a'), reject('r'), steer('s')];

function review(type: string, title: string, trigger: string): GateTypeDefinition {
  return {
    type,
    title,
    trigger,
    threshold: 'mandatory',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: REVIEW_OPTIONS,
    steerable: true,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  };
}

function freezeAll(definitions: GateTypeDefinition[]): readonly GateTypeDefinition[] {
  for (const definition of definitions) {
    for (const option of definition.options) {
      Object.freeze(option.requires);
      Object.freeze(option);
    }
    Object.freeze(definition.options);
    Object.freeze(definition);
  }
  return Object.freeze(definitions);
}

/** The gate type of a question an agent asks a person (human-as-tool); the answer is free text. */
export const QUESTION_GATE_TYPE = 'question';

// Seed 001 sets retention only for its own gates; every other type keeps decisions a year.
/** Every gate type Gatehouse ships, with its option set and defaults. */
export const BUILTIN_GATE_TYPES: readonly GateTypeDefinition[] = freezeAll([
  {
    type: 'tool_call',
    title: 'Tool call approval',
    trigger: 'the policy says a tool call needs approval',
    threshold: 'conditional',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: TOOL_CALL_OPTIONS,
    steerable: true,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  {
    type: 'operation',
    title: 'Operation approval',
    trigger: 'the policy says an operation needs approval',
    threshold: 'conditional',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: TOOL_CALL_OPTIONS,
    steerable: true,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  {
    type: 'intent_approval',
    title: 'Intent & requirements approval',
    trigger: 'planning artifacts are done, before any implementation starts',
    threshold: 'mandatory',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      approve('a', 'Proceed to implementation'),
      rejectRollback('r', 'Discard the planning artifacts and start planning again'),
      steer('s', 'Correct the requirements or design, optionally naming the artifacts to update'),
    ],
    steerable: true,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  {
    type: 'confidence_threshold',
    title: 'Low confidence review',
    trigger: 'the agent reported a confidence below the threshold',
    threshold: 'conditional',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      approve('a', 'Continue with the task output as it is'),
      rejectRollback('r', 'Roll the task step back'),
      steer('s', 'Clarify what the agent should do and let it retry'),
    ],
    steerable: true,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  {
    type: 'constraint_exception',
    title: 'Constraint exception',
    trigger: 'the task cannot be done within its spec or budget',
    threshold: 'advisory',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      ending(
        'expand_constraint',
        'Expand constraint',
        '1',
        'Allow more time, resources or scope up to a new limit',
        'resolved',
        ['newLimit'],
      ),
      ending('reduce_scope', 'Reduce scope', '2', 'Simplify the task to fit the constraint', 'resolved'),
      abort('3'),
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  {
    type: 'recovery_escalation',
    title: 'Recovery escalation',
    trigger:
      'recovery attempts >= 3, confidence < 0.5, CRITICAL severity, a loop detected or a flaky failure',
    threshold: 'mandatory',
    defaultRisk: 'high',
    defaultTimeoutAction: 'escalate',
    options: [
      approve('a', 'Override and let the agent continue with your guidance'),
      reject('r', 'Require a manual fix from a person'),
      ending(
        'retry',
        'Retry',
        '1',
        'Reset the recovery counter and give the agent another chance',
        'resolved',
      ),
      showing('view', 'View', '2', 'Show the detailed recovery attempt logs'),
      ending('delegate', 'Delegate', '3', 'Assign the task to a different agent', 'resolved', ['delegateTo']),
      abort('4'),
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 90,
  },
  {
    type: 'false_positive_override',
    title: 'False positive override',
    trigger: 'someone reported a false positive, or the detection confidence is below 0.7',
    threshold: 'mandatory',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      ending(
        'legitimate',
        'Legitimate',
        '1',
        'Allow the change and mark the detection a false positive',
        'resolved',
      ),
      ending('violation', 'Violation', '2', 'Confirm the detection and block the change', 'resolved'),
      ending('needs_review', 'Needs review', '3', 'Ask the reporter for more context', 'resolved'),
      showing('diff', 'Diff', '4', 'Show the detailed diff of the changes'),
      showing('history', 'History', '5', 'Show the pattern history for this file'),
      ending(
        'whitelist',
        'Whitelist',
        '6',
        'Allow this pattern in this exact file for this agent for 90 days (tech lead; wider entries on the Whitelists page)',
        'resolved',
        ['reason'],
      ),
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'always',
    retentionDays: 365,
  },
  {
    type: 'destructive_action',
    title: 'Destructive action approval',
    trigger: 'tests removed, coverage drop > 2 %, features removed, assertions weakened > 2, or skips added',
    threshold: 'mandatory',
    defaultRisk: 'high',
    defaultTimeoutAction: 'deny',
    options: [
      approve('a', 'The action is intentional and justified'),
      reject('r', 'The agent must find a non-destructive alternative; alternatives are suggested'),
      showing('view', 'View', '1', 'Show the detailed changes'),
      showing('diff', 'Diff', '2', 'Compare before and after'),
      ending('suggest', 'Suggest', '3', 'Propose an alternative solution to the agent', 'steered', [
        'instructions',
      ]),
      abort('4'),
    ],
    // "suggest" is this type's steer; a plain steer must never turn into approving a destructive action.
    steerable: true,
    minRole: 'tech_lead',
    signature: 'critical',
    retentionDays: 365,
  },
  {
    type: 'phase_review',
    title: 'Phase review',
    trigger: 'the autonomy level freezes the run at a phase boundary or after the job is complete',
    threshold: 'mandatory',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      ending('approve', 'Approve & merge', 'a', "Squash-merge the phase's branch and continue", 'approved'),
      ending(
        'request_changes',
        'Request changes',
        '1',
        'Resume the agent on the same branch with your comments',
        'resolved',
        ['feedback'],
      ),
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  {
    type: QUESTION_GATE_TYPE,
    title: 'Question for a person',
    trigger: 'the agent asks a person a question and waits for the answer',
    threshold: 'mandatory',
    defaultRisk: 'low',
    defaultTimeoutAction: 'deny',
    options: [
      ending('answer', 'Answer', '1', 'Answer the question; the agent receives your text', 'resolved', [
        'answer',
      ]),
      reject('r', 'Decline to answer; the agent is told why'),
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  review('prd_review', 'PRD review', 'a product requirements document is ready for review'),
  review('design_review', 'Design review', 'a design document is ready for review'),
  review('code_review', 'Code review', 'code changes are ready for review'),
  review('test_review', 'Test review', 'tests are ready for review'),
  {
    ...review('deployment_approval', 'Deployment approval', 'a deployment is about to start'),
    defaultRisk: 'high',
    minRole: 'tech_lead',
    signature: 'critical',
  },
]);

/** Kinds of destructive action the destructive-action gate knows alternatives for. */
export type DestructiveActionKind =
  | 'test_deletion'
  | 'test_skip'
  | 'feature_removal'
  | 'assertion_weakening'
  | 'coverage_regression';

/** What to suggest instead when a destructive action is rejected. */
export const DESTRUCTIVE_ALTERNATIVES: readonly {
  kind: DestructiveActionKind;
  action: string;
  alternative: string;
}[] = [
  { kind: 'test_deletion', action: 'Test deletion', alternative: 'Fix failing tests instead of deleting' },
  { kind: 'test_skip', action: 'Test skip', alternative: 'Mock dependencies, fix timing issues' },
  {
    kind: 'feature_removal',
    action: 'Feature removal',
    alternative: 'Use feature flag, mark deprecated first',
  },
  {
    kind: 'assertion_weakening',
    action: 'Assertion weakening',
    alternative: 'Fix implementation to meet assertion',
  },
  {
    kind: 'coverage_regression',
    action: 'Coverage regression',
    alternative: 'Add tests to maintain coverage',
  },
];

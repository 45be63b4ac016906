import { BAND_ACTIONS, subtaskAbortedLine } from '../confidence/confidence.js';
import type { BriefingInput, BriefingParts } from './briefing.js';
import { actionArgs, KEY_ARGS, summarizeArgs } from './briefing-action.js';
import { fields, listFields, requestFields, section } from './briefing-builders-shared.js';
import {
  type Context,
  describe,
  formatNumber,
  humanize,
  isRecord,
  pick,
  plural,
  readBlock,
  readCount,
  readList,
  readNumber,
  readText,
} from './briefing-fields.js';

const MAX_LISTED = 10;
const MAX_GENERIC_FIELDS = 20;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function listLines(items: readonly string[]): string[] {
  const more = items.length - MAX_LISTED;
  return more > 0 ? [...items.slice(0, MAX_LISTED), `… and ${more} more`] : [...items];
}

function whyGatedFields({ gate, context }: BriefingInput) {
  return fields(
    ['Reason', readText(context, 'reason', 'policyReason', 'why')],
    ['Policy Rule', describe(gate.policyRuleId) ?? readText(context, 'rule', 'ruleId', 'policyRule')],
    ['Risk', describe(gate.risk)],
  );
}

/** Tool call or operation: which tool with which key arguments, and why the policy gated it. */
export function buildToolCallParts(input: BriefingInput): BriefingParts {
  const { gate, context, agent, proposedAction } = input;
  const args = actionArgs(gate, context);
  const command = readText(args, 'command', 'cmd');
  const path = readText(args, 'path', 'filePath', 'file');
  const url = readText(args, 'url');
  const query = readText(args, 'query', 'sql');
  const tool = proposedAction?.tool ?? null;
  const operation = proposedAction?.operation ?? null;
  const verb = tool !== null ? `run ${tool}` : operation !== null ? `perform ${operation}` : null;
  const target = command ?? path ?? url ?? query;
  return {
    summary: verb && `${agent ?? 'The agent'} wants to ${verb}${target === null ? '' : `: ${target}`}`,
    sections: [
      section(
        'Proposed Action',
        fields(
          ['Tool', tool],
          ['Operation', tool === null ? null : operation],
          ['Command', command],
          ['Path', path],
          ['URL', url],
          ['Query', query],
          ['Other Arguments', summarizeArgs(args, KEY_ARGS) || null],
        ),
      ),
      section('Why Gated', whyGatedFields(input)),
      section('Request', requestFields(input)),
    ],
  };
}

function sumHours(tasks: unknown): number | null {
  if (!Array.isArray(tasks)) return null;
  const hours = tasks
    .map((task) => (isRecord(task) ? readNumber(task, 'hours', 'estimatedHours', 'estimate') : null))
    .filter((h): h is number => h !== null);
  return hours.length === 0 ? null : hours.reduce((a, b) => a + b, 0);
}

function taskText(tasks: number | null, hours: number | null): string | null {
  const estimate = hours === null ? null : `estimated total ${formatNumber(hours)} hours`;
  if (tasks === null) return estimate;
  const counted = plural(tasks, 'atomic task', 'atomic tasks');
  return estimate === null ? counted : `${counted}, ${estimate}`;
}

function workItemArtifacts(context: Context): string[] {
  const dir = readText(context, 'workItem', 'workItemPath');
  if (dir === null) return [];
  const base = dir.replace(/\/+$/, '');
  return ['design.md', 'user_stories.md', 'tasks.md'].map((file) => `${base}/${file}`);
}

/** Intent approval (Gate 0): the epic, the design, N stories and N tasks with hours, and the planning artifacts. */
export function buildIntentParts(input: BriefingInput): BriefingParts {
  const { context } = input;
  const epic = readText(context, 'epic', 'epicDescription');
  const stories = readCount(context, 'stories', 'userStories', 'storyCount');
  const tasks = readCount(context, 'tasks', 'taskCount');
  const hours =
    readNumber(context, 'estimatedHours', 'totalHours', 'hours') ?? sumHours(pick(context, 'tasks'));
  const counts = [
    stories === null ? null : plural(stories, 'story', 'stories'),
    tasks === null ? null : plural(tasks, 'task', 'tasks'),
    hours === null ? null : `${formatNumber(hours)} h`,
  ].filter(Boolean);
  const storyList = Array.isArray(pick(context, 'stories', 'userStories'))
    ? readList(context, 'stories', 'userStories')
    : [];
  // The tasks themselves, not only how many: a reviewer approves what will be done.
  const taskList = Array.isArray(pick(context, 'tasks')) ? readList(context, 'tasks') : [];
  return {
    summary: `Approve the plan${epic === null ? '' : ` for ${epic}`} before implementation${counts.length > 0 ? `: ${counts.join(', ')}` : ''}`,
    sections: [
      section(
        'Summary of Action',
        fields(
          ['Epic', epic],
          ['Design', readText(context, 'design', 'designSummary')],
          [
            'Stories',
            stories === null
              ? null
              : `${plural(stories, 'user story', 'user stories')} with acceptance criteria`,
          ],
          ['Tasks', taskText(tasks, hours)],
        ),
      ),
      section('User Stories', listFields(listLines(storyList))),
      section('Tasks', listFields(listLines(taskList))),
      section('Request', requestFields(input)),
    ],
    artifacts: workItemArtifacts(context),
  };
}

function scoreText(threshold: number | null): string | null {
  if (threshold === null) return null;
  return `${formatNumber(threshold <= 1 ? threshold * 100 : threshold)} / 100`;
}

/** The zero band's diagnostics: the band action, then what the report left or why the subtask was aborted. */
export function zeroBandDiagnostics(input: BriefingInput, task: string | null) {
  const { confidence, context } = input;
  if (confidence === null || !BAND_ACTIONS[confidence.band].presentsDiagnostics) return null;
  const left = readList(context, 'diagnostics');
  const lines = left.length > 0 ? left : [subtaskAbortedLine(confidence.value, task)];
  return section('Diagnostics', fields(['Action', BAND_ACTIONS[confidence.band].description]), lines);
}

/** Confidence threshold: the score and its band, the agent's reasons and the task output; in the zero band, diagnostics. */
export function buildConfidenceParts(input: BriefingInput): BriefingParts {
  const { context, agent, confidence } = input;
  const task = readText(context, 'task', 'taskDescription', 'taskId');
  const threshold = scoreText(readNumber(context, 'threshold', 'confidenceThreshold'));
  const score = confidence === null ? null : `${confidence.score} / 100 (${confidence.band})`;
  const what = score === null ? 'low confidence' : `confidence ${score}`;
  const diagnostics = zeroBandDiagnostics(input, task);
  return {
    summary: `${agent ?? 'The agent'} reports ${what}${threshold === null ? '' : `, below the threshold of ${threshold}`}${task === null ? '' : ` on ${task}`}${diagnostics === null ? '' : '; the subtask is aborted'}`,
    sections: [
      section(
        'Confidence Report',
        fields(['Task', task], ['Score', score], ['Threshold', threshold], ['Agent', agent]),
      ),
      ...(diagnostics === null ? [] : [diagnostics]),
      section('Reasons', listFields(readList(context, 'reasons'))),
      section('Task Output', [], [readBlock(context, 'output', 'taskOutput', 'result')]),
    ],
  };
}

/** Constraint exception (Gate 8): the task, the constraint it violates and the change it would need. */
export function buildConstraintParts(input: BriefingInput): BriefingParts {
  const { context } = input;
  const task = readText(context, 'task', 'taskDescription', 'taskId');
  const constraint = readText(context, 'constraint', 'constraintViolated', 'violation');
  const required = readText(context, 'requiredChange', 'proposedChange', 'change');
  const info = [constraint && `Constraint: ${constraint}`, required && `Required change: ${required}`];
  return {
    summary: `${task ?? 'The task'} cannot be done within its constraints${constraint === null ? '' : `: ${constraint}`}`,
    sections: [
      section(
        'Constraint Violation',
        fields(['Task', task], ['Constraint', constraint], ['Required Change', required]),
      ),
      section('Details', [], [readBlock(context, 'details', 'explanation', 'reason')]),
      section('Request', requestFields(input)),
    ],
    constraintInfo: info.filter(Boolean).join('; ') || null,
  };
}

/** Phase review: phase N and its type, the branch, the files changed and the retrospective. */
export function buildPhaseReviewParts(input: BriefingInput): BriefingParts {
  const { context } = input;
  const n = readNumber(context, 'phaseNumber', 'phase');
  const type = readText(context, 'phaseType');
  const revision = readNumber(context, 'revision');
  const derived =
    n === null || type === null ? null : `phase-${n}-${type}${revision ? `-rev-${revision}` : ''}`;
  const branch = readText(context, 'branch', 'branchName') ?? derived;
  const filesValue = pick(context, 'filesChanged', 'changedFiles', 'files');
  const files = readCount(context, 'filesChanged', 'changedFiles', 'files');
  const phase = n === null ? type : `${formatNumber(n)}${type === null ? '' : ` (${type})`}`;
  return {
    summary: `Review phase ${phase ?? 'work'}${branch === null ? '' : ` on ${branch}`}${files === null ? '' : `: ${plural(files, 'file', 'files')} changed`}`,
    sections: [
      section(
        'Phase',
        fields(
          ['Phase', phase],
          ['Branch', branch],
          ['Files Changed', files === null ? null : formatNumber(files)],
        ),
      ),
      section(
        'Changed Files',
        [],
        Array.isArray(filesValue)
          ? listLines(readList(context, 'filesChanged', 'changedFiles', 'files'))
          : [],
      ),
      section('Retrospective', [], [readBlock(context, 'retrospective')]),
      section('Request', requestFields(input)),
    ],
  };
}

function deploymentSummary(context: Context): string | null {
  const service = readText(context, 'service', 'app', 'application');
  const version = readText(context, 'version', 'ref', 'commit');
  const environment = readText(context, 'environment', 'env', 'target');
  if (service === null && version === null && environment === null) return null;
  return `Deploy ${[service, version].filter(Boolean).join(' ') || 'a release'}${environment === null ? '' : ` to ${environment}`}`;
}

/** The review gates (PRD, design, code, test, deployment): what is up for review and where. */
export function buildReviewParts(
  input: BriefingInput,
  label: string = humanize(input.gate.type),
  deployment = false,
): BriefingParts {
  const { gate, context } = input;
  const document = readText(context, 'document', 'path', 'artifact', 'file');
  const description = readText(context, 'summary', 'description');
  const title = describe(gate.title);
  const what = description ?? document ?? (title?.toLowerCase() === label.toLowerCase() ? null : title);
  const deployed = deployment ? deploymentSummary(context) : null;
  return {
    summary: deployed ?? `${label}${what === null ? ' requested' : `: ${what}`}`,
    sections: [
      section(
        'Review',
        fields(
          ['Document', document],
          ['Summary', description],
          ['Changes', readText(context, 'changes', 'filesChanged')],
          ['Service', readText(context, 'service', 'app', 'application')],
          ['Version', readText(context, 'version', 'ref', 'commit')],
          ['Environment', readText(context, 'environment', 'env', 'target')],
          ['Reason', readText(context, 'reason')],
        ),
      ),
      section('Request', requestFields(input)),
    ],
  };
}

/** Any other gate type: every context field with a readable label, the proposed action if any, and who asked. */
export function buildGenericParts(input: BriefingInput): BriefingParts {
  const { gate, context, proposedAction } = input;
  const keys = Object.keys(context).filter((key) => !UNSAFE_KEYS.has(key));
  const facts = keys
    .slice(0, MAX_GENERIC_FIELDS)
    .map((key): [string, string | null] => [humanize(key) || 'Field', describe(context[key])]);
  return {
    summary: describe(gate.title),
    sections: [
      section(
        'Context',
        fields(...facts),
        keys.length > MAX_GENERIC_FIELDS ? [`… and ${keys.length - MAX_GENERIC_FIELDS} more fields`] : [],
      ),
      section(
        'Proposed Action',
        fields(
          ['Tool', proposedAction?.tool],
          ['Operation', proposedAction?.operation],
          ['Arguments', proposedAction?.argsSummary || null],
        ),
      ),
      section('Request', [...requestFields(input), ...fields(['Risk', describe(gate.risk)])]),
    ],
  };
}

/** The briefing of a review gate whose summary names it `label`. */
export function reviewBriefing(label: string): (input: BriefingInput) => BriefingParts {
  return (input) => buildReviewParts(input, label);
}

/** A deployment approval: the service, version and environment when the context names them. */
export function buildDeploymentParts(input: BriefingInput): BriefingParts {
  return buildReviewParts(input, 'Deployment approval', true);
}

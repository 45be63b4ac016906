import { DESTRUCTIVE_ALTERNATIVES } from '../destructive/destructive-alternatives.js';
import type { BriefingField, BriefingInput, BriefingParts } from './briefing.js';
import { fields, listFields, requestFields, section } from './briefing-builders-shared.js';
import {
  type Context,
  describe,
  formatConfidence,
  formatNumber,
  humanize,
  pick,
  plural,
  readBlock,
  readCount,
  readList,
  readNumber,
  readRecord,
  readText,
  readTime,
} from './briefing-fields.js';
import { findingsSection } from './briefing-findings.js';

const MAX_RECOVERY_ATTEMPTS = 3;

function coverageText(state: Context): string | null {
  const coverage = pick(state, 'coverage');
  const text =
    typeof coverage === 'number' && Number.isFinite(coverage)
      ? `${formatNumber(coverage)}%`
      : describe(coverage);
  if (text === null) return null;
  const maintained = pick(state, 'coverageMaintained');
  if (maintained === true) return `${text} (maintained)`;
  return maintained === false ? `${text} (not maintained)` : text;
}

function readFiles(context: Context): string | null {
  const files = readList(context, 'files', 'file', 'filePaths', 'filePath', 'path');
  return files.length === 0 ? null : files.join(', ');
}

interface RecoveryFacts {
  task: string | null;
  pattern: string | null;
  severity: string | null;
  attempts: string | null;
}

function readRecoveryFacts(context: Context): RecoveryFacts {
  const pattern = readText(context, 'pattern', 'patternType');
  const severity = readText(context, 'severity');
  const attempts = readCount(context, 'recoveryAttempts', 'attempts');
  const max = readNumber(context, 'maxAttempts', 'maxRecoveryAttempts') ?? MAX_RECOVERY_ATTEMPTS;
  return {
    task: readText(context, 'task', 'taskDescription', 'taskId'),
    pattern: pattern !== null && severity !== null ? `${pattern} (${severity})` : pattern,
    severity,
    attempts: attempts === null ? null : `${formatNumber(attempts)} / ${formatNumber(max)}`,
  };
}

function recoverySummary(facts: RecoveryFacts): string {
  const what = [
    facts.pattern ?? facts.severity,
    facts.attempts && `after ${facts.attempts} recovery attempts`,
  ];
  return `Recovery escalation for ${facts.task ?? 'a task'}: ${what.filter(Boolean).join(' ') || 'the agent could not recover'}`;
}

function currentStateFields({ context, confidence }: BriefingInput): BriefingField[] {
  const state = readRecord(context, 'currentState', 'state') ?? context;
  return fields(
    ['Tests', readText(state, 'tests', 'testStatus', 'testsStatus')],
    ['Coverage', coverageText(state)],
    ['Confidence', confidence && formatConfidence(confidence)],
  );
}

/** Recovery escalation: the task, the detected pattern, attempts n/3, detection details, history and current state. */
export function buildRecoveryParts(input: BriefingInput): BriefingParts {
  const { context, agent, recoveryHistory } = input;
  const facts = readRecoveryFacts(context);
  const severityOnly = facts.pattern === null ? facts.severity : null;
  return {
    summary: recoverySummary(facts),
    sections: [
      section(
        'Context',
        fields(
          ['Task', facts.task],
          ['Pattern', facts.pattern],
          ['Severity', severityOnly],
          ['Recovery Attempts', facts.attempts],
          ['Agent', agent],
        ),
      ),
      section('Why Escalated', listFields(readList(context, 'reasons', 'triggers'))),
      findingsSection(context),
      section(
        'Detection Details',
        fields(
          ['File(s)', readFiles(context)],
          ['Original Error', readText(context, 'originalError', 'error')],
          ['Detection Time', readTime(context, 'detectedAt', 'detectionTime', 'detected')],
        ),
      ),
      section('Recovery History', [], recoveryHistory),
      section('Current State', currentStateFields(input)),
    ],
  };
}

/** False-positive override: the file, the pattern, the detection's confidence, the reporter's words and the finding's recovery. */
export function buildFalsePositiveParts(input: BriefingInput): BriefingParts {
  const { context } = input;
  const file = readFiles(context);
  const pattern = readText(context, 'pattern', 'patternType');
  const detection = readNumber(context, 'detectionConfidence');
  const reportedBy = readText(context, 'reportedBy', 'reporter', 'user');
  const where = [pattern, file && `in ${file}`].filter(Boolean).join(' ');
  return {
    summary: `Possible false positive${where === '' ? '' : `: ${where}`}${reportedBy ? ` (reported by ${reportedBy})` : ''}`,
    sections: [
      section(
        'Detection',
        fields(
          ['File', file],
          ['Pattern', pattern],
          ['Detection Confidence', detection === null ? null : detection.toFixed(2)],
          ['Reported By', reportedBy],
        ),
      ),
      findingsSection(context),
      section('Report', [], [readBlock(context, 'report', 'userReport', 'justification', 'reason')]),
      section('Recovery History', [], input.recoveryHistory),
      section('Request', requestFields(input)),
    ],
  };
}

function actionLabel(actionType: string | null): string | null {
  if (actionType === null) return null;
  const known = DESTRUCTIVE_ALTERNATIVES.find((entry) => entry.kind === actionType);
  return known?.action ?? humanize(actionType);
}

function suggestedAlternatives(context: Context, actionType: string | null): string[] {
  const given = readList(context, 'alternatives', 'suggestedAlternatives');
  if (given.length > 0) return given;
  const kinds = new Set<string>(actionType === null ? [] : [actionType]);
  if ((readCount(context, 'testsRemoved', 'deletedTests') ?? 0) > 0) kinds.add('test_deletion');
  if ((readNumber(context, 'coverageDelta') ?? 0) < -2) kinds.add('coverage_regression');
  if ((readCount(context, 'featuresRemoved') ?? 0) > 0) kinds.add('feature_removal');
  if ((readCount(context, 'assertionsWeakened') ?? 0) > 2) kinds.add('assertion_weakening');
  if ((readCount(context, 'skipPatternsAdded') ?? 0) > 0) kinds.add('test_skip');
  return DESTRUCTIVE_ALTERNATIVES.filter((entry) => kinds.has(entry.kind)).map(
    (entry) => `${entry.action}: ${entry.alternative}`,
  );
}

function count(n: number | null): string | null {
  return n === null ? null : formatNumber(n);
}

function destructiveSummary(label: string | null, impact: readonly (string | null)[]): string {
  const shown = impact.filter((part): part is string => part !== null);
  return `Destructive action: ${label ?? 'the agent wants to remove or weaken work'}${shown.length > 0 ? ` (${shown.join(', ')})` : ''}`;
}

/** Destructive action: what would be destroyed (tests, coverage, features), what to do instead, and recoveries in those files. */
export function buildDestructiveParts(input: BriefingInput): BriefingParts {
  const { context } = input;
  const actionType = readText(context, 'actionType', 'action');
  const label = actionLabel(actionType);
  const testsRemoved = readCount(context, 'testsRemoved', 'deletedTests');
  const delta = readNumber(context, 'coverageDelta');
  // The analysis fills in 0 when no coverage report came with the change: that is not a measurement.
  const deltaText =
    context.coverageReported === false
      ? 'no coverage sent'
      : delta === null
        ? null
        : `${delta > 0 ? '+' : ''}${formatNumber(delta)}%`;
  const featuresRemoved = readCount(context, 'featuresRemoved');
  return {
    summary: destructiveSummary(label, [
      testsRemoved ? plural(testsRemoved, 'test removed', 'tests removed') : null,
      deltaText && (context.coverageReported === false ? deltaText : `coverage ${deltaText}`),
      featuresRemoved ? plural(featuresRemoved, 'feature removed', 'features removed') : null,
    ]),
    sections: [
      section(
        'Destructive Action',
        fields(
          ['Action Type', label],
          ['Tests Removed', count(testsRemoved)],
          ['Coverage Delta', deltaText],
          ['Features Removed', count(featuresRemoved)],
          ['Assertions Weakened', count(readCount(context, 'assertionsWeakened'))],
          ['Skips Added', count(readCount(context, 'skipPatternsAdded'))],
          ['File(s)', readFiles(context)],
        ),
      ),
      findingsSection(context),
      section('Reason', [], [readBlock(context, 'reason', 'justification')]),
      section('Suggested Alternatives', listFields(suggestedAlternatives(context, actionType))),
      section('Recovery History', [], input.recoveryHistory),
      section('Request', requestFields(input)),
    ],
  };
}

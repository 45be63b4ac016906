import { approvalBinding } from '../gates/approval-binding.js';
import { bindingForKey, decisionKeys, type KeyBinding } from '../gates/decision-keys.js';
import { revealText } from '../reveal.js';
import { displayWidth, sanitizeText, truncateToWidth, wrapToWidth } from '../sanitize.js';
import type { Gate, GateOption } from '../schemas.js';
import { type Briefing, type BriefingSection, buildBriefing } from './briefing.js';
import { titleCase } from './briefing-fields.js';
import { agentTitleBeside } from './headline.js';

/** How to lay out a gate for a terminal. */
export interface GateDisplayOptions {
  /** Terminal columns; smaller values are raised to 40. @default 80 */
  width?: number | undefined;
  /** Current time in epoch milliseconds; with it the display counts down to the gate's timeout. */
  now?: number | undefined;
  /** The gate's headline as the server gives it (`headline`, with the agent's registered name); default the briefing's summary. */
  headline?: string | undefined;
}

const DEFAULT_WIDTH = 80;
const MIN_WIDTH = 40;
const MAX_WIDTH = 1000;
const HEADER = 'HUMAN INTERVENTION REQUIRED';
const BULLET = '  • ';
const INDENT = '  ';

function clampWidth(width: number | undefined): number {
  if (width === undefined || !Number.isFinite(width)) return DEFAULT_WIDTH;
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.floor(width)));
}

// Wraps text after a prefix, continuing under the text rather than under the prefix.
function hang(prefix: string, text: string, inner: number): string[] {
  const prefixWidth = displayWidth(prefix);
  const pad = ' '.repeat(prefixWidth);
  return wrapToWidth(text, inner - prefixWidth).map((line, i) => (i === 0 ? prefix : pad) + line);
}

function sectionLines(section: BriefingSection, inner: number): string[] {
  const facts = section.fields.flatMap((field) =>
    hang(BULLET, field.label === '' ? field.value : `${field.label}: ${field.value}`, inner),
  );
  const lines = section.lines.flatMap((line) => hang(INDENT, line, inner));
  return [...hang('', `${section.title}:`, inner), ...facts, ...lines];
}

function artifactLines(briefing: Briefing, inner: number): string[] {
  if (briefing.artifacts.length === 0) return [];
  const title = briefing.gateType === 'intent_approval' ? 'Artifacts for review:' : 'Artifacts:';
  return [title, ...briefing.artifacts.flatMap((artifact) => hang(BULLET, artifact, inner))];
}

/** `2d 3h`, `1h 5m`, `14m 59s`, `45s`: the two largest units. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return '<1s';
  const total = Math.floor(ms / 1000);
  const units: [number, string][] = [
    [Math.floor(total / 86_400), 'd'],
    [Math.floor(total / 3600) % 24, 'h'],
    [Math.floor(total / 60) % 60, 'm'],
    [total % 60, 's'],
  ];
  const first = units.findIndex(([n]) => n > 0);
  return units
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n}${unit}`)
    .join(' ');
}

const ROLE_NAMES: Readonly<Record<string, string>> = {
  viewer: 'a viewer',
  developer: 'a developer',
  tech_lead: 'a tech lead',
  admin: 'an admin',
};

function timeoutOutcome(gate: Gate): string {
  switch (gate.timeoutAction) {
    case 'deny':
      return 'the request is denied';
    case 'proceed':
      return 'the agent proceeds on its own';
    case 'escalate': {
      const next = Array.isArray(gate.escalationChain) ? gate.escalationChain[0] : undefined;
      const role = next === undefined ? undefined : ROLE_NAMES[next];
      return `it escalates to ${role ?? 'a higher role'}`;
    }
    default:
      return 'it ends without a decision';
  }
}

function timeoutLines(gate: Gate, now: number | undefined, inner: number): string[] {
  const deadline = gate.timeoutAt;
  if (gate.status !== 'pending' || typeof deadline !== 'number' || !Number.isFinite(deadline)) return [];
  let when = `Deadline: ${new Date(deadline).toISOString()}`;
  if (now !== undefined && Number.isFinite(now)) {
    when =
      deadline > now
        ? `Time left: ${formatDuration(deadline - now)}`
        : `Time left: none, the deadline passed ${formatDuration(now - deadline)} ago`;
  }
  return ['Timeout:', ...hang(BULLET, when, inner), ...hang(BULLET, `Then: ${timeoutOutcome(gate)}`, inner)];
}

// The headline lists show, the agent's own title beside it when it says more.
function headlineLines(briefing: Briefing, gate: Gate, options: GateDisplayOptions, inner: number): string[] {
  const headline = revealText(options.headline ?? briefing.summary);
  const title = agentTitleBeside(gate, headline);
  return [
    ...hang('', headline, inner),
    ...(title ? hang('', `Agent's title: ${revealText(title)}`, inner) : []),
  ];
}

/** The first 16 hex digits of the value an approval binds to, enough to tell two gates apart at a glance. */
function bindingLines(gate: Gate, inner: number): string[] {
  const binding = approvalBinding(gate);
  if (binding === null) return [];
  return [
    'Approval binds to this gate and this exact action:',
    ...hang(BULLET, `SHA-256 ${binding.slice(0, 16)}… (of the gate id and the action's hash)`, inner),
  ];
}

function bodyLines(briefing: Briefing, gate: Gate, options: GateDisplayOptions, inner: number): string[] {
  const blocks = [
    headlineLines(briefing, gate, options, inner),
    ...briefing.sections.map((section) => sectionLines(section, inner)),
    bindingLines(gate, inner),
    artifactLines(briefing, inner),
    timeoutLines(gate, options.now, inner),
  ].filter((block) => block.length > 0);
  return blocks.flatMap((block, i) => (i === 0 ? block : ['', ...block]));
}

function optionLines(briefing: Briefing, inner: number): string[] {
  const lines = briefing.options.flatMap((option) => {
    const text = option.description === '' ? option.label : `${option.label} - ${option.description}`;
    return hang(`${INDENT}[${option.key || '?'}] `, text, inner);
  });
  return ['Options:', ...(lines.length > 0 ? lines : [`${INDENT}(this gate offers no options)`])];
}

function headerLines(gate: Gate, inner: number): string[] {
  const title = `${titleCase(String(gate.type)) || 'Unknown'} Gate: ${sanitizeText(String(gate.id))}`;
  const status =
    gate.status === 'pending' ? [] : hang('', `Status: ${sanitizeText(String(gate.status))}`, inner);
  return [...hang('', HEADER, inner), ...hang('', title, inner), ...status];
}

/**
 * Renders a gate as the box-drawn terminal display: header, Summary of Action sections, timeout and options;
 * every line is exactly `width` columns, whatever the text (wide characters, emoji, very long values).
 * @example formatGateDisplay(gate, { width: 100, now: clock.now() })
 */
export function formatGateDisplay(gate: Gate, options: GateDisplayOptions = {}): string {
  const width = clampWidth(options.width);
  const inner = width - 4;
  const briefing = buildBriefing(gate);
  const rule = '─'.repeat(width - 2);
  const row = (content: string) => {
    const fitted = truncateToWidth(content, inner);
    const pad = ' '.repeat(inner - displayWidth(fitted));
    const line = `│ ${fitted}${pad} │`;
    // A prepended sign (U+0600, U+1193F and the like) ending the text joins the space after it.
    return displayWidth(line) < width ? `│ ${fitted} ${pad} │` : line;
  };
  return [
    `╭${rule}╮`,
    ...headerLines(gate, inner).map(row),
    `├${rule}┤`,
    ...bodyLines(briefing, gate, options, inner).map(row),
    `├${rule}┤`,
    ...optionLines(briefing, inner).map(row),
    `╰${rule}╯`,
  ].join('\n');
}

function promptLabel({ key, option }: KeyBinding): string {
  const label = sanitizeText(String(option.label)).toLowerCase();
  if (key === '') return label;
  const at = label.indexOf(key.toLowerCase());
  if (at === -1) return `[${key}] ${label}`;
  return `${label.slice(0, at)}[${key}]${label.slice(at + key.length)}`;
}

/** The options as a one-line prompt in the one key map: `[a]pprove [r]eject [1] retry`. */
export function formatOptionsPrompt(gate: Gate): string {
  return decisionKeys(gate).map(promptLabel).join(' ');
}

/** The option a typed key picks in the one key map (exact match, so `A` picks nothing), or null. */
export function optionForKey(gate: Gate, key: string): GateOption | null {
  return bindingForKey(gate, key.trim())?.option ?? null;
}

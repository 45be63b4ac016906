import type { Gate, GateOption } from '../schemas.js';
import { canOfferAlways } from './decision-safety.js';

/** The fixed keys every gate type shares; gate-specific options take `1`…`9` in option order. */
export const DECISION_KEYS = { approve: 'a', reject: 'r', steer: 's', always: 'w' } as const;
/** Lists the keys; never an option. */
export const HELP_KEY = '?';

/** What a key does on a gate. */
export type KeyRole = keyof typeof DECISION_KEYS | 'numbered';

/** One key of a gate and the option it picks. */
export interface KeyBinding {
  /** Empty when the gate has more than nine gate-specific options. */
  key: string;
  role: KeyRole;
  option: GateOption;
  /** False for options that only show more (view, diff, history): they never end a gate. */
  ends: boolean;
  /** The option ends the agent's task as well as the gate; ask before sending it. */
  confirm: boolean;
}

const ROLE_OF_ID: Readonly<Record<string, keyof typeof DECISION_KEYS>> = {
  approve: 'approve',
  approve_always: 'always',
  reject: 'reject',
  reject_rollback: 'reject',
  steer: 'steer',
};

/** Options that stop the agent's task, not only the gate. */
export const TASK_ENDING_OPTIONS: ReadonlySet<string> = new Set(['abort', 'delegate', 'stop']);

/** Risks at which a single key never approves or rejects alone: a person confirms the decision first. */
export function keyNeedsConfirmation(risk: Gate['risk']): risk is 'high' | 'critical' {
  return risk === 'high' || risk === 'critical';
}

/** True when choosing `option` ends the agent's task, so a person confirms it first. */
export function isTaskEnding(option: Pick<GateOption, 'id' | 'ends'>): boolean {
  return option.ends === true && TASK_ENDING_OPTIONS.has(option.id);
}

/**
 * The one key map for a list of options: `a` approve, `r` reject (or reject & rollback), `s` steer,
 * `w` approve always, and every other option `1`…`9` in order.
 */
export function assignDecisionKeys(options: readonly GateOption[]): KeyBinding[] {
  const taken = new Set<string>();
  let numbered = 0;
  return options.map((option) => {
    const fixed = ROLE_OF_ID[option.id];
    const ends = option.ends === true;
    const confirm = isTaskEnding(option);
    if (fixed !== undefined && !taken.has(fixed)) {
      taken.add(fixed);
      return { key: DECISION_KEYS[fixed], role: fixed, option, ends, confirm };
    }
    numbered += 1;
    return { key: numbered <= 9 ? String(numbered) : '', role: 'numbered', option, ends, confirm };
  });
}

/**
 * The keys a person may press on `gate`: the one key map, without "approve always" where the
 * server would refuse it.
 * @example decisionKeys(gate).map((binding) => binding.key) // ['a', 'r', '1', '2', '3', '4']
 */
export function decisionKeys(gate: Pick<Gate, 'options' | 'action'>): KeyBinding[] {
  const options = Array.isArray(gate.options) ? gate.options : [];
  const offered = canOfferAlways(gate) ? options : options.filter((option) => option.id !== 'approve_always');
  return assignDecisionKeys(offered);
}

/** The binding a typed key picks (exact match only, so `A` never approves), or null. */
export function bindingForKey(gate: Pick<Gate, 'options' | 'action'>, key: string): KeyBinding | null {
  if (key === '' || key === HELP_KEY) return null;
  return decisionKeys(gate).find((binding) => binding.key === key) ?? null;
}

function helpNote(binding: KeyBinding): string {
  if (!binding.ends) return ' (shows more, decides nothing)';
  return binding.confirm ? ' (ends the task; asks to confirm)' : '';
}

/** One line per key of `gate`, then the help key: `a  Approve: Go ahead as proposed`. */
export function keyHelpLines(gate: Pick<Gate, 'options' | 'action'>): string[] {
  const lines = decisionKeys(gate)
    .filter((binding) => binding.key !== '')
    .map((binding) => {
      const about = binding.option.description === '' ? '' : `: ${binding.option.description}`;
      return `${binding.key}  ${binding.option.label}${about}${helpNote(binding)}`;
    });
  return [...lines, `${HELP_KEY}  These keys`];
}

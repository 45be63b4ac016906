import { classifyAlwaysGated } from '../destructive/destructive.js';
import { GatehouseError } from '../errors.js';
import { invalidField } from '../invalid-field.js';
import { containsHiddenCharacters } from '../reveal.js';
import { type Action, type Gate, RISK_LEVELS, roleRank } from '../schemas.js';
import type { GateCatalog } from './catalog.js';
import { editRefusalReason } from './gate-editable.js';
import { openGate } from './gate-open.js';
import { gateSettingsOf, type Verdict } from './request-verdict.js';

function hiddenPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return containsHiddenCharacters(value) ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = hiddenPath(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (containsHiddenCharacters(key)) return `${path}.${key}`;
      const found = hiddenPath(item, `${path}.${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * Checks a person's edited arguments before any policy sees them: the gate must be editable and
 * the arguments a JSON object without hidden characters (what runs must read as what was approved).
 */
export function checkEditedArgs(gate: Gate, editedArgs: unknown): Record<string, unknown> {
  if (gate.editable !== true) {
    const why = editRefusalReason(gate) ?? editRefusalReason({ ...gate, allowed: false });
    throw invalidField('editedArgs', `gate ${gate.id} cannot be approved with edited arguments: ${why}`);
  }
  if (editedArgs === null || typeof editedArgs !== 'object' || Array.isArray(editedArgs)) {
    throw invalidField('editedArgs', 'editedArgs must be a JSON object of the action’s arguments');
  }
  const hidden = hiddenPath(editedArgs, 'editedArgs');
  if (hidden !== null) {
    throw invalidField(hidden, `${hidden} holds hidden characters (shown as ⟨U+…⟩ markers); type it plainly`);
  }
  return editedArgs as Record<string, unknown>;
}

/** The edited action: the agent's tool or operation with the person's arguments. */
export function editedActionOf(gate: Gate, args: Record<string, unknown>): Action {
  const action = gate.action ?? { args: {} };
  return { ...action, args };
}

interface EditVerdictInput {
  gate: Gate;
  editedArgs: Record<string, unknown>;
  /** The policy's verdict on the edited action, as if the agent had asked for it. */
  verdict: Verdict;
  /** The edited action is always gated (destructive, hidden text and the like). */
  alwaysGated: boolean;
  catalog: GateCatalog;
}

const riskRank = (risk: string): number => (RISK_LEVELS as readonly string[]).indexOf(risk);

function stricterThan(gate: Gate, other: Gate): string | null {
  if (other.type !== gate.type) return `it would open a ${other.type} gate instead of ${gate.type}`;
  if (roleRank(other.minRole) > roleRank(gate.minRole)) return `it would need the role ${other.minRole}`;
  if (other.requiredApprovals > gate.requiredApprovals) {
    return `it would need ${other.requiredApprovals} approvals`;
  }
  if (other.signatureRequired && !gate.signatureRequired) return 'it would need a signed decision';
  if (riskRank(other.risk) > riskRank(gate.risk)) return `its risk would be ${other.risk}`;
  if (!other.editable) return 'the policy forbids edits for the gate it would open';
  return null;
}

function addedCategories(gate: Gate, edited: Action): string[] {
  const before = new Set(gate.action === null ? [] : classifyAlwaysGated(gate.action));
  return classifyAlwaysGated(edited).filter((category) => !before.has(category));
}

/**
 * Why the policy refuses an edited action, or null: an edit must never be a way around a rule, so
 * a deny, a new always-gated category or a stricter gate than the one being decided refuses it.
 */
export function editVerdictRefusal(input: EditVerdictInput): string | null {
  const { gate, verdict } = input;
  if (verdict.outcome === 'denied') return `the policy denies the edited action: ${verdict.reason}`;
  const edited = editedActionOf(gate, input.editedArgs);
  const added = addedCategories(gate, edited);
  if (added.length > 0)
    return `the edited action falls under ${added.join(', ')}, which the original did not`;
  if (verdict.outcome !== 'gated') return null;
  try {
    const definition = input.catalog.get(verdict.gate.type);
    const settings = gateSettingsOf(verdict, {}, { definition, alwaysGated: input.alwaysGated });
    const wouldOpen = openGate(
      { ...settings, action: edited, editable: verdict.gate.editable },
      { now: gate.createdAt, id: gate.id, catalog: input.catalog },
    );
    return stricterThan(gate, wouldOpen);
  } catch (error) {
    if (error instanceof GatehouseError) return error.message;
    throw error;
  }
}

/** EDIT_REFUSED naming why, for the server to throw. */
export function editRefusedError(gate: Gate, reason: string): GatehouseError {
  return new GatehouseError('EDIT_REFUSED', `the edit of gate ${gate.id} is refused: ${reason}`, {
    field: 'editedArgs',
    gateId: gate.id,
    reason,
  });
}

import type { GateOption, KeyBinding } from 'gatehouse-hitl-core';
import type { ReactNode } from 'react';
import { needsInstructions } from './decision-form.js';

/** Options that open a form of their own before anything is sent. */
export function opensForm(option: GateOption): boolean {
  return needsInstructions(option) || option.id === 'approve_always';
}

// Instructions are left out: those options open their own form for them.
const NEEDS: Partial<Record<GateOption['requires'][number], string>> = {
  reason: 'a reason',
  feedback: 'feedback',
  answer: 'an answer',
  delegateTo: 'an agent',
  newLimit: 'a new limit',
};

/** `. Needs a reason.` for options that cannot be sent without their own fields filled in. */
function needs(option: GateOption): string {
  const fields = option.requires.flatMap((field) => NEEDS[field] ?? []);
  return fields.length === 0 ? '' : `. Needs ${fields.join(' and ')}.`;
}

function buttonClass(option: GateOption): string {
  if (!option.ends) return 'option-more';
  if (option.outcome === 'approved') return 'primary';
  if (option.outcome === 'rejected') return 'danger';
  return '';
}

function note(binding: KeyBinding): string {
  if (!binding.ends) return ' (decides nothing)';
  return binding.confirm ? " (ends the agent's task; asks first)" : '';
}

/**
 * One button per option the gate offers here, named by its label; the key of the one key map shows
 * as <kbd> and is announced through aria-keyshortcuts, the description sits under the button.
 */
export function DecisionOptions({
  bindings,
  disabled,
  blocked,
  blockedBy,
  optionBlock,
  onChoose,
  open,
  reply,
}: {
  /** The options with their keys; "approve always" is already left out where it is refused. */
  bindings: readonly KeyBinding[];
  disabled: boolean;
  /** Nobody here may decide: options that end the gate are disabled, the ones that show more are not. */
  blocked: boolean;
  /** Id of the text saying why nobody here may decide, for aria-describedby. */
  blockedBy: string | null;
  /** Why this one option is unavailable to this person, or null. */
  optionBlock(option: GateOption): string | null;
  onChoose(binding: KeyBinding): void;
  /** The option whose form is open. */
  open: string | null;
  /** The inputs the option takes (its reply box, an agent, a limit), shown with it. */
  reply(option: GateOption): ReactNode;
}) {
  return (
    <div className="decision-options">
      <h3>Options</h3>
      <p className="muted small">
        Each option has a one-key shortcut (not while typing in a field); <kbd>?</kbd> lists them.
      </p>
      <ul className="option-list">
        {bindings.map((binding) => {
          const { option } = binding;
          const own = optionBlock(option);
          const describedBy = [`option-${option.id}-about`, option.ends ? blockedBy : null]
            .filter(Boolean)
            .join(' ');
          return (
            <li key={option.id}>
              <button
                type="button"
                className={buttonClass(option)}
                onClick={() => onChoose(binding)}
                disabled={disabled || (option.ends && (blocked || own !== null))}
                aria-keyshortcuts={binding.key || undefined}
                aria-describedby={describedBy}
                aria-expanded={opensForm(option) ? open === option.id : undefined}
              >
                {option.label}
                {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: kbd is not focusable; aria-keyshortcuts announces the key, so the button's name stays the option's label */}
                {binding.key && <kbd aria-hidden="true">{binding.key}</kbd>}
              </button>
              <span id={`option-${option.id}-about`} className="muted small option-about">
                {own ?? option.description}
                {note(binding)}
                {own === null && needs(option)}
              </span>
              {option.ends && own === null && reply(option)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

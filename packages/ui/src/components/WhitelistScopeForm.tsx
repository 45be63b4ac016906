import type { GateOption } from 'gatehouse-hitl-core';
import type { DecideBody, GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { type FormEvent, useId, useRef } from 'react';
import { Field } from './Field.js';
import { useRevealOnOpen } from './use-reveal-on-open.js';

/** The most days an entry suppresses before it needs review again. */
export const MAX_WHITELIST_DAYS = 90;

/** What the person chose for the entry a Whitelist decision creates. */
export interface WhitelistScopeValues {
  files: 'file' | 'glob';
  glob: string;
  agents: 'this' | 'every';
  days: string;
}

export const INITIAL_WHITELIST_SCOPE: WhitelistScopeValues = {
  files: 'file',
  glob: '',
  agents: 'this',
  days: String(MAX_WHITELIST_DAYS),
};

type WhitelistChoice = NonNullable<DecideBody['whitelist']>;

/** Whether Whitelist on this gate creates an entry for a finding (a re-review renews its entry instead). */
export function whitelistsFinding(gate: Pick<Gate, 'type' | 'context'>, option: GateOption): boolean {
  return (
    option.id === 'whitelist' &&
    gate.type === 'false_positive_override' &&
    typeof gate.context.whitelistReview !== 'string'
  );
}

function findingOf(gate: Pick<Gate, 'context'>): { file: string; pattern: string } {
  const files = gate.context.files;
  const file = Array.isArray(files) && typeof files[0] === 'string' ? files[0] : 'the finding’s file';
  const pattern = typeof gate.context.pattern === 'string' ? gate.context.pattern : 'this pattern';
  return { file, pattern };
}

/** The days typed, or null when they are no whole number from 1 to 90. */
function daysOf(values: WhitelistScopeValues): number | null {
  const days = Number(values.days);
  return Number.isInteger(days) && days >= 1 && days <= MAX_WHITELIST_DAYS ? days : null;
}

/** What the form would send, or the field it cannot send yet and why. */
export function whitelistChoice(
  values: WhitelistScopeValues,
): { choice: WhitelistChoice } | { field: 'glob' | 'days'; message: string } {
  const glob = values.glob.trim();
  if (values.files === 'glob' && glob === '')
    return { field: 'glob', message: 'Type the glob of the files this pattern is fine in.' };
  const days = daysOf(values);
  if (days === null)
    return { field: 'days', message: `Enter a whole number of days from 1 to ${MAX_WHITELIST_DAYS}.` };
  return {
    choice: {
      ...(values.files === 'glob' ? { path: glob } : {}),
      agents: values.agents,
      expiresInDays: days,
    },
  };
}

/** The entry in one sentence, read before the person sends it. */
export function entrySentence(gate: Pick<Gate, 'context' | 'agentId'>, values: WhitelistScopeValues): string {
  const { file, pattern } = findingOf(gate);
  const where =
    values.files === 'glob' && values.glob.trim() !== '' ? `files matching ${values.glob.trim()}` : file;
  const who = values.agents === 'every' ? 'every agent' : `only agent ${gate.agentId ?? 'of this gate'}`;
  const days = daysOf(values);
  return `Allows ${pattern} in ${where}, for ${who}, for ${days ?? '…'} days; then it needs review again.`;
}

/**
 * The scope of the whitelist entry a Whitelist decision creates, chosen and seen by the person before
 * it is sent: this file or a glob they type, this agent or every agent, and the days until review.
 */
export function WhitelistScopeForm(props: {
  gate: Pick<Gate, 'context' | 'agentId'>;
  option: GateOption;
  /** The decision is signed: the signature covers this scope. */
  signed: boolean;
  values: WhitelistScopeValues;
  onChange(values: WhitelistScopeValues): void;
  /** The server's refusal of the scope (a glob matching every file, say). */
  error: string | undefined;
  busy: boolean;
  onSubmit(choice: WhitelistChoice): void;
  onCancel(): void;
}) {
  const { gate, option, values, onChange } = props;
  const id = useId();
  const reveal = useRevealOnOpen<HTMLFormElement>(true);
  const globRef = useRef<HTMLInputElement>(null);
  const daysRef = useRef<HTMLInputElement>(null);
  const { file } = findingOf(gate);
  const checked = whitelistChoice(values);
  const local = 'field' in checked ? checked : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if ('choice' in checked) return props.onSubmit(checked.choice);
    (checked.field === 'glob' ? globRef : daysRef).current?.focus();
  };
  const globError = local?.field === 'glob' && values.files === 'glob' ? local.message : undefined;
  return (
    <form className="always-form" ref={reveal} onSubmit={submit} noValidate>
      <h3>{option.label}: choose what the entry allows</h3>
      <fieldset className="field">
        <legend>Files</legend>
        <label className="checkbox">
          <input
            type="radio"
            name={`${id}-files`}
            checked={values.files === 'file'}
            onChange={() => onChange({ ...values, files: 'file' })}
          />{' '}
          Only this file: <code>{file}</code>
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name={`${id}-files`}
            checked={values.files === 'glob'}
            onChange={() => onChange({ ...values, files: 'glob' })}
          />{' '}
          Files matching a glob I type
        </label>
      </fieldset>
      {values.files === 'glob' && (
        <Field
          id={`${id}-glob`}
          label="Glob"
          hint={`* and ? stay within one folder, ** crosses folders; it must match ${file} and not every file.`}
          error={globError ?? props.error}
        >
          {(wiring) => (
            <input
              {...wiring}
              ref={globRef}
              type="text"
              value={values.glob}
              onChange={(event) => onChange({ ...values, glob: event.target.value })}
              aria-required="true"
            />
          )}
        </Field>
      )}
      <fieldset className="field">
        <legend>Agents</legend>
        <label className="checkbox">
          <input
            type="radio"
            name={`${id}-agents`}
            checked={values.agents === 'this'}
            onChange={() => onChange({ ...values, agents: 'this' })}
          />{' '}
          Only this gate’s agent
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name={`${id}-agents`}
            checked={values.agents === 'every'}
            onChange={() => onChange({ ...values, agents: 'every' })}
          />{' '}
          Every agent
        </label>
      </fieldset>
      <Field
        id={`${id}-days`}
        label="Days until it needs review again"
        hint={`1 to ${MAX_WHITELIST_DAYS}.`}
        error={local?.field === 'days' ? local.message : undefined}
      >
        {(wiring) => (
          <input
            {...wiring}
            ref={daysRef}
            type="number"
            min={1}
            max={MAX_WHITELIST_DAYS}
            step={1}
            value={values.days}
            onChange={(event) => onChange({ ...values, days: event.target.value })}
          />
        )}
      </Field>
      <p id={`${id}-entry`} className="always-allowed">
        {entrySentence(gate, values)}
        {props.signed && ' Your signature covers this scope; no other can be sent under it.'}
      </p>
      {props.error && values.files !== 'glob' && (
        <p className="field-error" role="alert">
          {props.error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={props.busy} aria-describedby={`${id}-entry`}>
          Whitelist with this scope
        </button>
        <button type="button" onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

import { currentLimitOf, type GateOption, MAX_NEW_LIMIT } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { useId, useState } from 'react';
import type { Agent } from '../api/admin.js';
import { type FieldErrors, type ReplyValues, replyBoxOf, replyOpenByDefault } from './decision-form.js';
import { Field } from './Field.js';
import { isSubmitKey } from './submit-keys.js';
import { TextField } from './TextField.js';

/** Registers an option's input under `<option id>:<field>`, so the panel can focus the one in error. */
export type RegisterInput = (key: string, element: HTMLElement | null) => void;

function DelegatePicker(props: {
  gate: Gate;
  option: GateOption;
  agents: readonly Agent[] | null;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  disabled: boolean;
  register: RegisterInput;
}) {
  const { gate, option, agents } = props;
  const id = useId();
  const others = (agents ?? []).filter((agent) => agent.id !== gate.agentId);
  const hint =
    agents === null
      ? 'Loading the agents…'
      : others.length === 0
        ? 'No other agent is registered; register one under Agents first.'
        : 'Required. The task goes to this agent.';
  return (
    <Field id={id} label={`Agent that takes the task over (${option.label})`} hint={hint} error={props.error}>
      {(wiring) => (
        <select
          {...wiring}
          ref={(element) => props.register(`${option.id}:delegateTo`, element)}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          disabled={props.disabled}
          aria-required="true"
        >
          <option value="">Choose an agent…</option>
          {others.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function NewLimitField(props: {
  gate: Gate;
  option: GateOption;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  disabled: boolean;
  register: RegisterInput;
}) {
  const { gate, option } = props;
  const id = useId();
  const current = currentLimitOf(gate);
  const constraint = typeof gate.context.constraint === 'string' ? gate.context.constraint : null;
  const hint = [
    'Required.',
    constraint && `Constraint: ${constraint}.`,
    current === null ? null : `Current limit: ${current}; the new one must be higher.`,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Field id={id} label={`New limit the agent may use (${option.label})`} hint={hint} error={props.error}>
      {(wiring) => (
        <input
          {...wiring}
          ref={(element) => props.register(`${option.id}:newLimit`, element)}
          type="number"
          inputMode="decimal"
          step="any"
          min={current ?? 0}
          max={MAX_NEW_LIMIT}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          disabled={props.disabled}
          aria-required="true"
        />
      )}
    </Field>
  );
}

/**
 * The inputs one option takes, shown with that option: its reply box (labelled with what the
 * agent receives), the agent a delegation goes to, the new limit of an expanded constraint.
 * Optional boxes start folded behind a button, except a refusal's reason.
 */
export function OptionReply(props: {
  gate: Gate;
  option: GateOption;
  values: ReplyValues;
  onChange(values: ReplyValues): void;
  /** Errors of the last attempt to send this option. */
  errors: FieldErrors;
  agents: readonly Agent[] | null;
  disabled: boolean;
  register: RegisterInput;
  /** Sends the option with what was typed (its Send button, or Ctrl+Enter in its inputs). */
  onSend(): void;
}) {
  const { gate, option, values, errors } = props;
  const box = replyBoxOf(option);
  const [unfolded, setUnfolded] = useState(false);
  const open =
    box !== null &&
    (replyOpenByDefault(option) || unfolded || values.text !== '' || errors[box.field] !== undefined);
  const wantsDelegate = option.requires.includes('delegateTo');
  const wantsLimit = option.requires.includes('newLimit');
  if (box === null && !wantsDelegate && !wantsLimit) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl+Enter from the inputs inside; the Send button does the same
    <div
      className="option-reply"
      onKeyDown={(event) => {
        if (!isSubmitKey(event)) return;
        event.preventDefault();
        props.onSend();
      }}
    >
      {wantsDelegate && (
        <DelegatePicker
          gate={gate}
          option={option}
          agents={props.agents}
          value={values.delegateTo}
          onChange={(delegateTo) => props.onChange({ ...values, delegateTo })}
          error={errors.delegateTo}
          disabled={props.disabled}
          register={props.register}
        />
      )}
      {wantsLimit && (
        <NewLimitField
          gate={gate}
          option={option}
          value={values.newLimit}
          onChange={(newLimit) => props.onChange({ ...values, newLimit })}
          error={errors.newLimit}
          disabled={props.disabled}
          register={props.register}
        />
      )}
      {box !== null && !open && (
        <button
          type="button"
          className="button-link reply-toggle"
          onClick={() => {
            setUnfolded(true);
            requestAnimationFrame(() =>
              document.getElementById(`reply-${option.id}`)?.querySelector('textarea')?.focus(),
            );
          }}
          disabled={props.disabled}
        >
          Add: {box.label.charAt(0).toLowerCase()}
          {box.label.slice(1)}
        </button>
      )}
      {box !== null && open && (
        <div id={`reply-${option.id}`}>
          <TextField
            label={box.label}
            hint={box.hint}
            value={values.text}
            onChange={(text) => props.onChange({ ...values, text })}
            error={errors[box.field]}
            disabled={props.disabled}
            maxLength={box.maxLength}
            inputRef={(element) => props.register(`${option.id}:${box.field}`, element)}
          />
          {/* Right after the box, so Tab from a typed answer reaches its own Send before another option. */}
          {box.required && (
            <button
              type="button"
              className="primary reply-send"
              onClick={props.onSend}
              disabled={props.disabled}
            >
              {box.field === 'answer' ? 'Send answer' : `${option.label} with this ${box.field}`}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

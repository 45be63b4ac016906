import { type Ref, useId } from 'react';

/** A labelled multi-line text field with a hint and the field's error, wired for screen readers. */
export function TextField({
  label,
  hint,
  value,
  onChange,
  error,
  disabled,
  maxLength,
  inputRef,
  rows = 2,
}: {
  label: string;
  hint?: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  disabled?: boolean;
  maxLength?: number;
  inputRef?: Ref<HTMLTextAreaElement>;
  rows?: number;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="muted small">
          {hint}
        </p>
      )}
      <textarea
        id={id}
        ref={inputRef}
        value={value}
        rows={rows}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

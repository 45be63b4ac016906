import type { ReactNode } from 'react';
import { Field } from './Field.js';

/** A labelled password input: the browser may fill the current password or suggest a new one. */
export function PasswordField({
  id,
  label,
  hint,
  error,
  autoComplete,
  value,
  onChange,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  autoComplete: 'current-password' | 'new-password';
  value: string;
  onChange(value: string): void;
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      {(wiring) => (
        <input
          {...wiring}
          type="password"
          autoComplete={autoComplete}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

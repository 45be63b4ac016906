import { useState } from 'react';
import { ApiError, errorText } from '../api/client.js';

/** A form's error: the field the server named (null: the form as a whole) and what to say. */
export interface FieldError {
  field: string | null;
  text: string;
}

/** A form's error state: `fail` takes what the server answered, `errorFor` gives one field's text. */
export function useFieldError() {
  const [error, setError] = useState<FieldError | null>(null);
  return {
    error,
    setError,
    fail: (caught: unknown) =>
      setError({ field: caught instanceof ApiError ? caught.field : null, text: errorText(caught) }),
    errorFor: (field: string) => (error?.field === field ? error.text : null),
  };
}

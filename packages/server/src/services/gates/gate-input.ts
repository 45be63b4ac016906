import { GatehouseError } from 'gatehouse-hitl-core';

/** A VALIDATION_FAILED error naming one field, in the wire shape of schema errors (`details.fields`). */
export function invalidInput(field: string, message: string): GatehouseError {
  return new GatehouseError('VALIDATION_FAILED', `${field}: ${message}`, {
    field,
    fields: [{ field, message }],
  });
}

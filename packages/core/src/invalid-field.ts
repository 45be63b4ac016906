import { GatehouseError } from './errors.js';

/** A VALIDATION_FAILED error for one field, in the wire shape the server uses (`details.fields`). */
export function invalidField(field: string, message: string): GatehouseError {
  return new GatehouseError('VALIDATION_FAILED', `${field}: ${message}`, {
    field,
    fields: [{ field, message }],
  });
}

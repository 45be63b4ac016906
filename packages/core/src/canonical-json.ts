import {
  CANONICAL_JSON_MAX_DEPTH,
  canonicalJson as canonicalText,
  isGatehouseApiError,
  type PayloadAction,
  payloadText as payloadTextOf,
  plainCanonicalJson as plainCanonicalText,
} from 'gatehouse-hitl-protocol';
import { type ErrorCode, GatehouseError } from './errors.js';

export { CANONICAL_JSON_MAX_DEPTH };

// The protocol's rule throws its wire error; inside core every refusal is a GatehouseError.
function refusing<A, R>(write: (input: A) => R): (input: A) => R {
  return (input) => {
    try {
      return write(input);
    } catch (error) {
      if (!isGatehouseApiError(error)) throw error;
      throw new GatehouseError(error.code as ErrorCode, error.message, { ...error.details });
    }
  };
}

/**
 * JSON with object keys sorted at every depth, so equal values always give equal text
 * (the input to payload and audit hashes). Throws VALIDATION_FAILED past CANONICAL_JSON_MAX_DEPTH.
 */
export const canonicalJson: (value: unknown) => string = refusing(canonicalText);

/**
 * The canonical text of a value built only of JSON's own kinds, or undefined for anything else: the
 * text of such a value equals that of its JSON round trip, so it needs no copy first.
 */
export const plainCanonicalJson: (value: unknown) => string | undefined = refusing(plainCanonicalText);

/** The text an approval binds to: the tool or operation and its exact arguments. */
export const payloadText: (action: PayloadAction) => string = refusing(payloadTextOf);

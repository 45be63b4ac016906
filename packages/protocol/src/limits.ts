// Limits the web app and the other clients check before they send, kept apart from the zod schemas
// that enforce them so a client importing one does not bundle zod.

/** The largest limit an expand-constraint decision may set. */
export const MAX_NEW_LIMIT = 1_000_000_000_000;

/** Days a whitelist entry suppresses its pattern before a person must review it again. */
export const WHITELIST_DAYS = 90;
/** Shortest justification a whitelist entry takes, in characters. */
export const WHITELIST_JUSTIFICATION_MIN = 10;

/** The longest text a decision carries, per field, whichever channel it comes from. */
export const DECISION_TEXT_MAX = {
  reason: 2000,
  feedback: 10_000,
  instructions: 10_000,
  answer: 10_000,
} as const;

import { ApiError, errorText } from '../api/client.js';

/**
 * What a failed decision tells the person. When the server could not be reached or failed itself,
 * the decision was not recorded, and saying so matters more than the error's own words.
 */
export function decisionFailureText(error: unknown): string {
  const unreachable = !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
  if (!unreachable) return errorText(error);
  return `Your decision was not recorded: the server could not be reached (${errorText(error)}). What you typed is kept; try again.`;
}

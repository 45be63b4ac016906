import { isGatehouseApiError } from 'gatehouse-hitl-sdk';

/** The MCP specification's "Resource not found" code (2024-11-05 to 2025-11-25). */
export const RESOURCE_NOT_FOUND = -32002;
const NOT_FOUND_MESSAGE = 'Resource not found';

/**
 * The one answer for a resource that cannot be read: an unknown URI, a malformed id, a run that
 * does not exist and one the token may not see all look the same, so nothing confirms a run exists.
 * A plain Error with `code` and `data`: the SDK sends them as they are (an McpError would prefix its
 * message with the code).
 */
export class ResourceNotFoundError extends Error {
  readonly code = RESOURCE_NOT_FOUND;
  readonly data: { uri: string };

  constructor(uri: string) {
    super(NOT_FOUND_MESSAGE);
    this.name = 'ResourceNotFoundError';
    this.data = { uri };
  }
}

/** True for the API's refusals that a resource read answers as not found. */
function isRefusal(error: unknown): boolean {
  return isGatehouseApiError(error) && [400, 403, 404].includes(error.status);
}

/** Runs a resource read; the API's refusals (bad id, forbidden, unknown) become ResourceNotFoundError. */
export async function readOrNotFound<T>(uri: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isRefusal(error)) throw new ResourceNotFoundError(uri);
    throw error;
  }
}

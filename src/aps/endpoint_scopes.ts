/**
 * Which scope a platform operation needs, read from the one table (operation_scopes.ts), so that a
 * refusal can name the scope the endpoint needs rather than the scopes that were tried.
 */

import { scopesOfRequest } from "./operation_scopes.ts";
import { SCOPE_NAMES } from "./scopes.ts";

/** The scope a platform operation needs, or undefined when the table does not know the operation. */
export function endpointScope(method: string, pathWithQuery: string): string | undefined {
  const scopes = scopesOfRequest(method, pathWithQuery);
  // An operation that takes any token needs no particular scope.
  return scopes && scopes.length < SCOPE_NAMES.length ? scopes[0] : undefined;
}

/**
 * The scopes the construction-cloud record services ask for (issues, RFIs, assets, submittals,
 * checklists): one place, so that a record kind added later asks for the same ones.
 */

/** Scope of reading construction-cloud records. */
export const DATA_READ = "data:read";
/** Scopes of creating construction-cloud records. */
export const DATA_CREATE = "data:write data:create";
/** Scope of changing construction-cloud records. */
export const DATA_WRITE = "data:write";

/** The account-admin vocabulary (accountadmin.yaml): project statuses, classifications and platforms, shared by client and sandbox. */

/** A project's status. */
export const PROJECT_STATUSES: readonly string[] = ["active", "pending", "archived", "suspended"];
/** A project's classification. */
export const PROJECT_CLASSIFICATIONS: readonly string[] = ["production", "template", "component", "sample"];
/** The platform a project lives on. */
export const PROJECT_PLATFORMS: readonly string[] = ["acc", "bim360"];

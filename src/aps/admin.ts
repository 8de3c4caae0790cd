/** The account-admin vocabulary (accountadmin.yaml): project statuses, classifications and platforms, shared by client and sandbox. */

/** A project's status. */
export const PROJECT_STATUSES: readonly string[] = ["active", "pending", "archived", "suspended"];
/** A project's classification. */
export const PROJECT_CLASSIFICATIONS: readonly string[] = ["production", "template", "component", "sample"];
/** The platform a project lives on. */
export const PROJECT_PLATFORMS: readonly string[] = ["acc", "bim360"];
/** The products a project user can be given access to (accountadmin.yaml `productKeys`). */
export const PRODUCT_KEYS: readonly string[] = [
  "build",
  "docs",
  "takeoff",
  "cost",
  "autoSpecs",
  "financials",
  "buildingConnected",
  "capitalPlanning",
  "accountAdministration",
  "workshopxr",
  "insight",
  "projectAdministration",
  "modelCoordination",
  "designCollaboration",
  "cloudWorksharing",
];
/** A project user's access to one product (accountadmin.yaml `productAccess`). */
export const PRODUCT_ACCESS: readonly string[] = ["administrator", "member", "none"];
/** A BIM 360 (HQ v1) project's status as a project update sets it. */
export const HQ_PROJECT_STATUSES: readonly string[] = ["active", "inactive", "archived"];
/** The shape of an e-mail address both APIs accept (checked before any request). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The columns a users file may have (accountadmin.yaml `UserPayload` names); `email` is required. */
export const IMPORT_COLUMNS: readonly string[] = [
  "email",
  "first_name",
  "last_name",
  "company_id",
  "job_title",
  "phone",
];

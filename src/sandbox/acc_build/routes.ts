/** Routes of the construction-cloud build services: RFIs, assets, submittals and checklists. */
import type { Route } from "../router.ts";
import { assetRoutes } from "./assets.ts";
import { checklistRoutes } from "./checklists.ts";
import { rfiRoutes } from "./rfis.ts";
import { submittalRoutes } from "./submittals.ts";

/** Every route of the build services. */
export const accBuildRoutes: readonly Route[] = [
  ...rfiRoutes,
  ...assetRoutes,
  ...submittalRoutes,
  ...checklistRoutes,
];

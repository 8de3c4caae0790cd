/** Sandbox routes (being written). */
import type { Route } from "../router.ts";

/** Routes of this service. */
export const storageRoutes: readonly Route[] = [];

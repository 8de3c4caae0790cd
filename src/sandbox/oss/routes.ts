/**
 * The routes of OSS: buckets, objects, and the storage reached by signed URLs alone.
 */

import type { Route } from "../router.ts";
import { bucketRoutes } from "./buckets.ts";
import { objectRoutes } from "./objects.ts";
import { storageRoutes } from "./storage.ts";

/** Routes of OSS, in matching order. */
export const ossRoutes: readonly Route[] = [...bucketRoutes, ...objectRoutes, ...storageRoutes];

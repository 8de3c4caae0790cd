/**
 * The routes of OSS: buckets, objects, batch operations, and the storage reached by signed URLs alone.
 */

import type { Route } from "../router.ts";
import { batchRoutes } from "./batch.ts";
import { bucketRoutes } from "./buckets.ts";
import { objectRoutes } from "./objects.ts";
import { storageRoutes } from "./storage.ts";

/** Routes of OSS, in matching order. */
export const ossRoutes: readonly Route[] = [
  ...bucketRoutes,
  ...batchRoutes,
  ...objectRoutes,
  ...storageRoutes,
];

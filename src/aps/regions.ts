/**
 * The platform's regions: the data centres its regional services (Model Derivative, ACC Account
 * Admin) name in their `region` / `Region` header, and the storage regions of OSS buckets. The
 * first of each list is the default.
 */
import { fieldError } from "../core/field_error.ts";

/** Data centres of the regional services, the default (US) first. */
export const DATA_CENTRES = ["US", "EMEA", "AUS", "CAN", "DEU", "IND", "JPN", "GBR"] as const;

/** Storage regions of buckets: the data centres and the legacy APAC. */
export const BUCKET_REGIONS = ["US", "EMEA", "AUS", "APAC", "CAN", "DEU", "IND", "JPN", "GBR"] as const;

/** Upper-cases and checks a region against `allowed`; a usage error listing them otherwise. */
function parseRegionIn<T extends string>(region: string, allowed: readonly T[]): T {
  const r = region.trim().toUpperCase();
  if ((allowed as readonly string[]).includes(r)) return r as T;
  throw fieldError({ field: "region", problem: `unknown region '${region}'`, allowed });
}

/** A data centre from user input (any case). */
export function parseDataCentre(region: string): (typeof DATA_CENTRES)[number] {
  return parseRegionIn(region, DATA_CENTRES);
}

/** A bucket storage region from user input (any case). */
export function parseBucketRegion(region: string): (typeof BUCKET_REGIONS)[number] {
  return parseRegionIn(region, BUCKET_REGIONS);
}

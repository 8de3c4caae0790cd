/**
 * The platform's data centres, as the `region` / `Region` header of its regional services (Model
 * Derivative, ACC Account Admin) names them; the first is the default.
 */
import { usageError } from "./errors.ts";

/** Data centres of the regional services, the default (US) first. */
export const DATA_CENTRES = ["US", "EMEA", "AUS", "CAN", "DEU", "IND", "JPN", "GBR"] as const;

/** A data centre. */
export type DataCentre = (typeof DATA_CENTRES)[number];

/** Upper-cases and checks a region; a usage error listing the data centres otherwise. */
export function parseDataCentre(region: string): DataCentre {
  const r = region.trim().toUpperCase();
  if ((DATA_CENTRES as readonly string[]).includes(r)) return r as DataCentre;
  throw usageError(`unknown region '${region}'`, `Use one of: ${DATA_CENTRES.join(", ")}.`);
}

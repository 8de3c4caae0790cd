/**
 * What the data management commands share: the `--as` and `--limit` options, the example ids of
 * their help, and the flat helpers (name, size, version number) added beside the platform's fields.
 */
import { Option } from "@commander-js/extra-typings";
import type { DmResource } from "../ops/dm.ts";
import { positiveNumber } from "./command.ts";

const WHO = ["user", "app"] as const;

/** Example ids of the help texts. */
export const HUB = "b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69";
/** An example project id. */
export const PROJECT = "b.1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081";
/** An example folder id. */
export const FOLDER = "urn:adsk.wipprod:fs.folder:co.mgS-lb-BThaTdHnhiN_mbA";
/** An example item id. */
export const ITEM = "urn:adsk.wipprod:dm.lineage:AeYgDtcTSuqYoyMweWFhhQ";

/** `--as user|app`: whose login a command uses. */
export function asOption() {
  return new Option(
    "--as <who>",
    "act as the logged-in user (3-legged) or the app (2-legged); default: the user when the profile has a 3-legged login, else the app",
  ).choices(WHO);
}

/** `--limit <n>`. */
export function limitOption() {
  return new Option("--limit <n>", "stop after n results").argParser(positiveNumber("--limit", true));
}

function attr(r: DmResource | undefined, path: string): unknown {
  let v: unknown = r?.attributes;
  for (const k of path.split(".")) {
    v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[k] : undefined;
  }
  return v;
}

/**
 * A resource with flat helpers beside the platform's fields (for tables and queries): its name,
 * last change and, for items (from their tip version) and versions, the version number and size.
 */
export function withHelpers(r: DmResource, tip?: DmResource): DmResource & Record<string, unknown> {
  const version = r.type === "versions" ? r : tip;
  const helpers: Record<string, unknown> = {
    name: attr(r, "displayName") ?? attr(r, "name"),
    // A folder's own time changes only when it is renamed; the rollup shows its newest content.
    lastModified: (r.type === "folders" ? attr(r, "lastModifiedTimeRollup") : undefined) ??
      attr(r, "lastModifiedTime"),
  };
  if (version) {
    helpers.versionNumber = attr(version, "versionNumber");
    helpers.size = attr(version, "storageSize");
  }
  if (r.type === "hubs") {
    helpers.region = attr(r, "region");
    helpers.hubType = String(attr(r, "extension.type") ?? "").split(":").pop();
  }
  if (r.type === "projects") helpers.projectType = attr(r, "extension.data.projectType") ?? "personal";
  return { ...r, ...helpers };
}

/**
 * The tool server's toolsets: families of tools an operator switches on (`serve --toolsets dm,acc`),
 * and the sentence of each in the server's instructions (README "Serve").
 */
import { fieldError } from "../../core/field_error.ts";

/** The toolsets, in listing order; `context` holds the login tools. */
export const TOOLSETS = [
  "context",
  "storage",
  "derivative",
  "dm",
  "acc",
  "admin",
  "automation",
  "events",
  "reality",
] as const;

/** One toolset. */
export type Toolset = (typeof TOOLSETS)[number];

/**
 * The tools a server offers when no `--toolsets` (or `--tools`) is given: the context tools and the
 * everyday reads of storage, derivatives, data management and issues; `toolset_enable` (or
 * `--toolsets`) brings the rest.
 */
export const DEFAULT_TOOLS: readonly string[] = [
  "auth_test",
  "auth_status",
  "auth_login",
  "toolset_enable",
  "bucket_list",
  "bucket_get",
  "object_list",
  "object_urn",
  "translate_status",
  "translate_manifest",
  "translate_properties",
  "translate_tree",
  "hub_list",
  "project_list",
  "folder_list",
  "folder_search",
  "item_versions",
  "issue_list",
  "issue_get",
  "issue_types",
];

/** What each toolset reaches, as the instructions say it. */
export const TOOLSET_TEXT: Record<Toolset, string> = {
  context: "the login, which tools work with it, and more toolsets on demand (auth_*, toolset_enable)",
  storage: "storage buckets and objects (bucket_*, object_*)",
  derivative: "model translation and its results (translate_*)",
  dm: "data management: hubs, projects, folders, items and versions (hub_*, project_*, folder_*, item_*)",
  acc: "construction-cloud records: issues and their types, RFIs, assets, submittals, checklists",
  admin: "account administration: accounts, projects, project users (admin_*)",
  automation: "Design Automation: engines, app bundles, activities, work items (da_*)",
  events: "webhooks: events, hooks on folders and other scopes, test deliveries (webhook_*)",
  reality: "reality capture: photoscenes from photos to meshes (reality_*)",
};

/** The toolsets `--toolsets` names, `all` standing for every one; unknown names are a field error. */
export function parseToolsets(names: readonly string[]): Toolset[] {
  const out = new Set<Toolset>();
  for (const name of names) {
    if (name === "all") TOOLSETS.forEach((t) => out.add(t));
    else if ((TOOLSETS as readonly string[]).includes(name)) out.add(name as Toolset);
    else {
      throw fieldError({
        field: "toolsets",
        problem: `unknown toolset '${name}'`,
        allowed: [...TOOLSETS, "all"],
      });
    }
  }
  return TOOLSETS.filter((t) => out.has(t));
}

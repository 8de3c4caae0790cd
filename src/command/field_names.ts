/**
 * How the CLI names the fields of field errors (core/field_error.ts): a flag, or the positional
 * argument it is; fields not listed are the flag of the same name in kebab case.
 */
import type { Surface } from "../core/field_error.ts";

/** Fields whose CLI name is not `--<field in kebab case>`. */
const CLI_NAMES: Readonly<Record<string, string>> = {
  bucket_key: "<bucket>",
  object_key: "<key>",
  project_id: "<project>",
  hub_id: "--hub",
  folder_id: "<folder>",
  parent_folder_id: "<parent>",
  item_id: "<item>",
  version_id: "<version>",
  issue_id: "<issue>",
  urn: "<urn>",
  issue_subtype_id: "--type",
  assigned_to: "--assignee",
  engine: "--engine",
};

/** The CLI's phrasing: its flags and positional arguments, commands as next steps. */
export const CLI_SURFACE: Surface = {
  name: (f) => CLI_NAMES[f] ?? `--${f.replaceAll("_", "-")}`,
  step: (n) => `\`${n.command}\``,
  lead: false,
};

/**
 * The flags `issue create` and `issue update` take, and the fields they set in the platform's names:
 * flags for the common ones, `--from-file` (JSON or YAML, or `-` for stdin) for any field of the
 * platform's issue payload (families/issue/verbs.ts assembles and checks the body; a flag wins over the file).
 */
import { ASSIGNEE_TYPES, ISSUE_SORT_FIELDS, ISSUE_STATUSES, unknownSortFields } from "../../aps/issues.ts";
import { usageError } from "../../core/errors.ts";
import { checkIssueStatus, type IssueInput } from "./verbs.ts";
import { bodySource } from "../../command/command.ts";
import type { OptionDecl } from "../../command/decl.ts";
import type { Ctx } from "../../command/context.ts";

/** The flags of the field options. */
export interface IssueFieldFlags {
  title?: string;
  description?: string;
  type?: string;
  status?: string;
  assignedTo?: string;
  assigneeType?: string;
  due?: string;
  start?: string;
  location?: string;
  fromFile?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An option parser for a date YYYY-MM-DD. */
export function dateOption(flag: string): (value: string) => string {
  return (value) => {
    if (!DATE.test(value) || Number.isNaN(Date.parse(value))) {
      throw usageError(`${flag} must be a date YYYY-MM-DD, got '${value}'`, `Example: ${flag} 2026-12-01`);
    }
    return value;
  };
}

/** An option parser for `--sort`: fields issues sort by, comma-separated, `-` before one for descending. */
export function sortOption(value: string): string {
  const unknown = unknownSortFields(value);
  if (unknown.length > 0) {
    throw usageError(
      `--sort '${unknown[0]}' is not a field issues sort by`,
      `Use fields among ${ISSUE_SORT_FIELDS.join(", ")}; e.g. --sort -dueDate,displayId.`,
    );
  }
  return value.split(",").map((k) => k.trim()).join(",");
}

/** An option parser for one issue status. */
export function statusOption(flag: string): (value: string) => string {
  return (value) => checkIssueStatus(value, flag);
}

/** The field flags (create and update share them). */
export const FIELD_OPTIONS: readonly OptionDecl[] = [
  { flags: "--title <text>", description: "title" },
  { flags: "--description <text>", description: "description" },
  {
    flags: "--type <subtype>",
    description: "issue type (a subtype id, or its title or code: see `issue types`)",
  },
  {
    flags: "--status <status>",
    description: `status (${ISSUE_STATUSES.join(", ")})`,
    parse: statusOption("--status"),
  },
  { flags: "--assigned-to <id>", description: "assignee's Autodesk id ('none' clears the assignee)" },
  {
    flags: "--assignee-type <type>",
    description: "what --assigned-to names (default user)",
    choices: ASSIGNEE_TYPES,
  },
  {
    flags: "--due-date, --due <date>", // --due-date as rfi and acc records spell it
    description: "due date YYYY-MM-DD ('none' clears it)",
    parse: (v: string) => v === "none" ? v : dateOption("--due")(v),
  },
  {
    flags: "--start-date, --start <date>",
    description: "start date YYYY-MM-DD",
    parse: dateOption("--start"),
  },
  { flags: "--location <text>", description: "location, as text" },
  {
    flags: "--from-file <file>",
    description: "more fields from a JSON or YAML file (- reads stdin); flags win",
  },
];

/** The flag that sets each field, to name what a person types in messages. */
const FLAG_OF = { title: "--title", issueSubtypeId: "--type", dueDate: "--due", startDate: "--start" };

/** What the flags describe, in the platform's field names ('none' clears the assignee or due date). */
export function issueInput(flags: IssueFieldFlags, ctx: Ctx): IssueInput {
  return {
    fields: {
      title: flags.title,
      description: flags.description,
      issueSubtypeId: flags.type,
      status: flags.status,
      assignedTo: flags.assignedTo === "none" ? null : flags.assignedTo,
      assignedToType: flags.assigneeType,
      dueDate: flags.due === "none" ? null : flags.due,
      startDate: flags.start,
      locationDetails: flags.location,
    },
    fromFile: bodySource(ctx, flags.fromFile),
    flagOf: FLAG_OF,
  };
}

/**
 * The fields `issue create` and `issue update` take: flags for the common ones, `--from-file`
 * (JSON or YAML, or `-` for stdin) for any field of the platform's issue payload. Everything is
 * checked before a request is sent; a flag wins over the same field in the file.
 */
import { Option } from "@commander-js/extra-typings";
import {
  ASSIGNEE_TYPES,
  isIssueStatus,
  ISSUE_SORT_FIELDS,
  ISSUE_STATUSES,
  unknownSortFields,
} from "../aps/issues.ts";
import { usageError } from "../core/errors.ts";
import type { BodyShape } from "../ops/body_file.ts";
import type { IssuePayload } from "../ops/issue.ts";
import type { AnyCommand } from "./command.ts";
import type { Ctx } from "./context.ts";

/** The fields of an issue payload a file may carry (Issues.yaml `IssuePayload`). */
export const ISSUE_BODY: BodyShape = {
  title: "string",
  description: "string",
  issueSubtypeId: "string",
  status: "string",
  assignedTo: "string",
  assignedToType: "string",
  dueDate: "date",
  startDate: "date",
  locationId: "string",
  locationDetails: "string",
  rootCauseId: "string",
  published: "boolean",
  watchers: "string[]",
  customAttributes: "array",
  gpsCoordinates: "object",
  snapshotUrn: "string",
  issueTemplateId: "string",
};

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
  return (value) => {
    const v = value.trim().toLowerCase();
    if (!isIssueStatus(v)) {
      throw usageError(
        `${flag} '${value}' is not an issue status`,
        `Use one of ${ISSUE_STATUSES.join(", ")}.`,
      );
    }
    return v;
  };
}

/** Adds the field flags to `cmd` (create and update share them). */
export function fieldOptions<C extends AnyCommand>(cmd: C): C {
  cmd
    .option("--title <text>", "title")
    .option("--description <text>", "description")
    .option("--type <subtype>", "issue type (a subtype id, or its title or code: see `issue types`)")
    .option("--status <status>", `status (${ISSUE_STATUSES.join(", ")})`, statusOption("--status"))
    .option("--assigned-to <id>", "assignee's Autodesk id ('none' clears the assignee)")
    .addOption(
      new Option("--assignee-type <type>", "what --assigned-to names (default user)").choices(ASSIGNEE_TYPES),
    )
    .option(
      "--due-date, --due <date>", // --due-date as rfi and acc records spell it
      "due date YYYY-MM-DD ('none' clears it)",
      (v) => v === "none" ? v : dateOption("--due")(v),
    )
    .option("--start-date, --start <date>", "start date YYYY-MM-DD", dateOption("--start"))
    .option("--location <text>", "location, as text")
    .option("--from-file <file>", "more fields from a JSON or YAML file (- reads stdin); flags win");
  return cmd;
}

/** The payload the flags and the file describe, read and checked before any request. */
export async function issuePayload(flags: IssueFieldFlags, ctx: Ctx): Promise<IssuePayload> {
  let file: Record<string, unknown> = {};
  if (flags.fromFile !== undefined) {
    // The file reader (and its YAML parser) loads only when a file is given.
    const { readBodyFile } = await import("../ops/body_file.ts");
    const source = { path: flags.fromFile, cwd: ctx.cwd, readStdin: () => ctx.io.stdin.readText() };
    file = await readBodyFile(source, ISSUE_BODY);
  }
  if (typeof file.status === "string") statusOption("status")(file.status);
  const clear = flags.assignedTo === "none";
  const fromFlags: IssuePayload = {
    title: flags.title,
    description: flags.description,
    issueSubtypeId: flags.type,
    status: flags.status,
    assignedTo: clear ? null : flags.assignedTo,
    assignedToType: clear
      ? null
      : flags.assignedTo !== undefined
      ? (flags.assigneeType ?? "user")
      : undefined,
    dueDate: flags.due === "none" ? null : flags.due,
    startDate: flags.start,
    locationDetails: flags.location,
  };
  if (flags.title !== undefined && flags.title.trim() === "") {
    throw usageError("--title must not be empty", "Example: --title 'Cracked slab edge'");
  }
  const payload: IssuePayload = { ...file };
  for (const [k, v] of Object.entries(fromFlags)) if (v !== undefined) payload[k] = v;
  return payload;
}

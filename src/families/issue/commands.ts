/**
 * `diazo issue ...`: construction-cloud issues — list, get, create, update, types, transition,
 * comments and attachments — always as the logged-in user (`diazo auth login`). `--project` takes
 * the project's GUID, its data management form `b.<guid>`, its address in the ACC web app or its name
 * (front/names.ts), and defaults to the configured project. Declared
 * as data (command/decl.ts).
 */
import { accId } from "../../aps/dm_ids.ts";
import type { AccProjectId } from "../../aps/ids.ts";
import { ISSUE_REF, ISSUE_STATUSES } from "../../aps/issues.ts";
import { usageError } from "../../core/errors.ts";
import { isTabular } from "../../core/output.ts";
import {
  runIssueComment,
  runIssueCommentList,
  runIssueCreate,
  runIssueGet,
  runIssueList,
  runIssueTransition,
  runIssueTypes,
  runIssueUpdate,
} from "./verbs.ts";
import { positiveNumber } from "../../command/command.ts";
import type { ArgumentDecl, CommandDecl, OptionDecl } from "../../command/decl.ts";
import {
  dateOption,
  FIELD_OPTIONS,
  type IssueFieldFlags,
  issueInput,
  sortOption,
  statusOption,
} from "./fields.ts";

const P = "91f8bd44-058f-480c-adbb-861df5101b22";
const I = "f1b2c3d4-0000-4abc-8def-123456789abc";
const ISSUE_COLUMNS = ["displayId", "id", "title", "status", "assignedTo", "dueDate"];
const PROJECT_HELP =
  "project: its GUID, b.<guid>, its address in ACC (https://acc.autodesk.com/...) or its name; default DIAZO_PROJECT or `diazo config set project`";

/** The checked project id of `--project` (the bare GUID the issues API wants). */
function projectOption(value: string): AccProjectId {
  return accId(value);
}

/** An issue argument: its id (a GUID, as `issue list` shows in `id`) or its number (`42` or `#42`). */
function issueArgument(value: string): string {
  const v = value.trim();
  if (!ISSUE_REF.test(v)) {
    throw usageError(
      `invalid issue id '${value.slice(0, 80)}'`,
      `Name an issue by its id, e.g. ${I}, or its number, e.g. 42; \`diazo issue list --project <id>\` shows both.`,
    );
  }
  return v;
}

/** A comma list of statuses. */
function statusList(value: string): string[] {
  return value.split(",").map((v) => v.trim()).filter(Boolean).map(statusOption("--status"));
}

/** A flag's value, or the usage error commander gives for a missing required option. */
function required<T>(value: T | undefined, flag: string): T {
  if (value === undefined) {
    throw usageError(
      `required option '${flag}' not specified`,
      "Add --project <id or name>, or set a default: `diazo config set project <id or name>` (or DIAZO_PROJECT).",
    );
  }
  return value;
}

const commas = (value: string) => value.split(",").map((v) => v.trim()).filter(Boolean);

/** `--project <id>`, required. */
const PROJECT: OptionDecl = {
  flags: "--project <id>",
  description: PROJECT_HELP,
  parse: projectOption,
  complete: "project",
  names: "project",
  required: true,
  toolName: "project_id",
  toolDescription:
    "Project id: its GUID (e.g. 91f8bd44-058f-480c-adbb-861df5101b22), the data management form b.<guid>, or its " +
    "address in ACC (https://acc.autodesk.com/.../projects/<guid>).",
};
/**
 * `--project <id>` checked in `run`, not by the parser: `comment` and `attachment` have a `list` under
 * them, and the parser gives the group an option typed after the subcommand's words; `run` is given
 * its ancestors' options too.
 */
const PROJECT_CHECKED_LATER: OptionDecl = {
  flags: "--project <id>",
  description: `${PROJECT_HELP} (required)`,
  parse: projectOption,
  complete: "project",
  names: "project",
};
/** The `<issue-id>` argument. */
const ISSUE_ARG: ArgumentDecl = {
  spec: "<issue-id>",
  description: "issue id (a GUID) or number (42)",
  parse: issueArgument,
};

/** The options of `issue list`. */
type ListOpts = {
  project: AccProjectId;
  status?: string[];
  assignedTo?: string[];
  dueBefore?: string;
  search?: string;
  type?: string[];
  sort?: string;
  limit?: number;
};

/** `issue list`. */
const LIST: CommandDecl = {
  name: "list",
  aliases: ["ls"],
  description: "list a project's issues, every page",
  options: [
    PROJECT,
    {
      flags: "--status <list>",
      description: `only these statuses (${ISSUE_STATUSES.join(", ")})`,
      parse: statusList,
    },
    {
      flags: "--assigned-to <ids>",
      description: "only issues assigned to these Autodesk ids (comma list; me: you)",
      parse: commas,
    },
    {
      flags: "--due-before <date>",
      description: "only issues due before this date (YYYY-MM-DD)",
      parse: dateOption("--due-before"),
    },
    { flags: "--search <text>", description: "only issues whose title (or number) matches" },
    {
      flags: "--type <ids>",
      description: "only these issue subtype ids (comma list; see `issue types`)",
      parse: commas,
    },
    {
      flags: "--sort <fields>",
      description: "order by fields, - for descending, e.g. -dueDate,displayId (default displayId)",
      parse: sortOption,
    },
    { flags: "--limit <n>", description: "stop after n issues", parse: positiveNumber("--limit", true) },
  ],
  examples: [
    `diazo issue list --project ${P} --status open --assigned-to ABCD1234EFGH --due-before 2026-12-01`,
    `diazo issue list --project b.${P} --search slab -o json`,
    `diazo issue list --project ${P} --assigned-to me --status open,in_progress --sort dueDate`,
  ],
  run: async (ctx, _args, opts: ListOpts) => {
    const issues = await runIssueList({ ...opts, issueSubtypeId: opts.type, sortBy: opts.sort }, ctx);
    // At 80 columns a person reads number, title, status: the GUID gives way first (--wide, -o json keep it).
    await ctx.emit(issues, { columns: ISSUE_COLUMNS, lowPriority: ["id"] });
  },
};

/** `issue get` and `issue types`. */
const READ: readonly CommandDecl[] = [
  {
    name: "get",
    description: "show an issue",
    tool: "issue_get",
    args: [ISSUE_ARG],
    options: [PROJECT],
    examples: [`diazo issue get ${I} --project ${P}`, `diazo issue get 42 --project ${P} -o json`],
    run: async (ctx, [id]: string[], opts: { project: AccProjectId }) => {
      await ctx.emit(await runIssueGet({ project: opts.project, issue: id }, ctx));
    },
  },
  {
    name: "types",
    description: "list the issue types and their subtypes",
    tool: "issue_types",
    options: [PROJECT],
    examples: [`diazo issue types --project ${P}`, `diazo issue types --project ${P} -o json`],
    run: async (ctx, _args, opts: { project: AccProjectId }) => {
      const all = await runIssueTypes({ project: opts.project }, ctx);
      const format = await ctx.format();
      if (!isTabular(format)) return await ctx.emit(all);
      const rows = all.flatMap((t) =>
        (t.subtypes ?? []).map((s) => ({
          subtypeId: s.id,
          type: s.title,
          code: s.code,
          category: t.title,
          active: t.isActive && s.isActive,
        }))
      );
      await ctx.emit(rows, { columns: ["subtypeId", "type", "code", "category", "active"] });
    },
  },
];

/** `issue create`, `issue update` and `issue transition`. */
const WRITE: readonly CommandDecl[] = [
  {
    name: "create",
    description: "create an issue",
    options: [PROJECT, ...FIELD_OPTIONS],
    examples: [
      `diazo issue create --project ${P} --title 'Cracked slab edge' --type Defect --due 2026-12-01`,
      `diazo issue create --project ${P} --from-file issue.yaml --assigned-to ABCD1234EFGH`,
    ],
    run: async (ctx, _args, opts: IssueFieldFlags & { project: AccProjectId }) => {
      const input = issueInput(opts, ctx);
      const created = await runIssueCreate({ project: opts.project, ...input }, ctx);
      await ctx.emit(created, {
        action: `Created issue #${created.displayId} ${created.id} (${created.status})`,
      });
    },
  },
  {
    name: "update",
    description: "change an issue (only what differs is sent)",
    args: [ISSUE_ARG],
    options: [PROJECT, ...FIELD_OPTIONS],
    examples: [
      `diazo issue update ${I} --project ${P} --assigned-to ABCD1234EFGH --due 2026-12-15`,
      `diazo issue update ${I} --project ${P} --from-file changes.json`,
    ],
    run: async (ctx, [id]: string[], opts: IssueFieldFlags & { project: AccProjectId }) => {
      const input = issueInput(opts, ctx);
      const { issue: updated, changed } = await runIssueUpdate(
        { project: opts.project, issue: id, ...input },
        ctx,
      );
      await ctx.emit(updated, {
        action: changed.length
          ? `Updated issue #${updated.displayId}: ${changed.join(", ")}`
          : `Issue #${updated.displayId} already has those values; nothing sent`,
      });
    },
  },
  {
    name: "transition",
    description: "move an issue to another status",
    args: [ISSUE_ARG],
    options: [
      PROJECT,
      {
        flags: "--to <status>",
        description: "the new status (only those the platform permits from the current one)",
        required: true,
      },
    ],
    examples: [`diazo issue transition ${I} --project ${P} --to in_review`],
    run: async (ctx, [id]: string[], opts: { project: AccProjectId; to: string }) => {
      const done = await runIssueTransition({ project: opts.project, issue: id, to: opts.to.trim() }, ctx);
      const { displayId, status } = done.issue;
      await ctx.emit(done.issue, {
        action: done.moved
          ? `Issue #${displayId} is now ${status}`
          : `Issue #${displayId} is already ${status}: nothing sent`,
      });
    },
  },
];

/** `issue comment` and `issue comment list`. */
const COMMENT: CommandDecl = {
  name: "comment",
  description: "comment on an issue (`comment list` lists them)",
  args: [ISSUE_ARG],
  // `--project` and `--body` are checked in `run`, not by the parser: it would ask for them of `comment list` too.
  options: [
    PROJECT_CHECKED_LATER,
    { flags: "--body <text>", description: "the comment, at most 10000 characters (required)" },
  ],
  examples: [
    `diazo issue comment ${I} --project ${P} --body 'Fixed on site, please check'`,
    `diazo issue comment list ${I} --project ${P}`,
  ],
  run: async (ctx, [id]: string[], opts: { project?: AccProjectId; body?: string }) => {
    const project = required(opts.project, "--project <id>");
    const body = required(opts.body, "--body <text>");
    const added = await runIssueComment({ project, issue: id, body }, ctx);
    await ctx.emit(added, { action: `Commented on issue ${id}` });
  },
  commands: [
    {
      name: "list",
      aliases: ["ls"],
      description: "list an issue's comments",
      args: [ISSUE_ARG],
      options: [
        PROJECT_CHECKED_LATER,
        {
          flags: "--limit <n>",
          description: "stop after n comments",
          parse: positiveNumber("--limit", true),
        },
      ],
      examples: [`diazo issue comment list ${I} --project ${P} -o json`],
      run: async (ctx, [id]: string[], opts: { project?: AccProjectId; limit?: number }) => {
        const project = required(opts.project, "--project <id>");
        const list = await runIssueCommentList({ project, issue: id, limit: opts.limit }, ctx);
        await ctx.emit(list, { columns: ["id", "createdAt", "createdBy", "body"] });
      },
    },
  ],
};

/** `issue attachment` and `issue attachment list`. */
const ATTACHMENT: CommandDecl = {
  name: "attachment",
  description: "attach a file to an issue (`attachment list` lists them)",
  args: [ISSUE_ARG, { spec: "<file>", description: "the file to upload and attach" }],
  options: [PROJECT_CHECKED_LATER],
  examples: [
    `diazo issue attachment ${I} site-photo.jpg --project ${P}`,
    `diazo issue attachment list ${I} --project ${P}`,
  ],
  run: async (ctx, [id, file]: string[], opts: { project?: AccProjectId }) => {
    // The attachment verbs reach node:path and node:crypto, which a declaration must not load.
    const { runIssueAttach } = await import("./attachment.ts");
    const attached = await runIssueAttach({
      project: required(opts.project, "--project <id>"),
      issue: id,
      file,
      onUploading: (bytes) => ctx.info(`Uploading ${file} (${bytes} bytes) to the project's storage`),
    }, ctx);
    await ctx.emit(attached, { action: `Attached ${attached.displayName} to issue ${id}` });
  },
  commands: [
    {
      name: "list",
      aliases: ["ls"],
      description: "list an issue's attachments",
      args: [ISSUE_ARG],
      options: [PROJECT_CHECKED_LATER],
      examples: [`diazo issue attachment list ${I} --project ${P} -o json`],
      run: async (ctx, [id]: string[], opts: { project?: AccProjectId }) => {
        const project = required(opts.project, "--project <id>");
        const { runIssueAttachmentList } = await import("./attachment.ts");
        const list = await runIssueAttachmentList({ project, issue: id }, ctx);
        await ctx.emit(list, { columns: ["attachmentId", "displayName", "fileSize", "createdOn"] });
      },
    },
  ],
};

/** The issue family. */
export const ISSUE: CommandDecl = {
  name: "issue",
  description: "construction-cloud issues: list, create, update, transition, comment, attach",
  examples: [
    "diazo auth login --scopes data:read,data:write,data:create",
    `diazo issue list --project ${P} --status open`,
    `diazo issue transition ${I} --project ${P} --to in_review`,
  ],
  commands: [LIST, ...READ, ...WRITE, COMMENT, ATTACHMENT],
};

/**
 * `diazo issue ...`: construction-cloud issues — list, get, create, update, types, transition,
 * comments and attachments — always as the logged-in user (`diazo auth login`). `--project` takes
 * the project's GUID, its data management form `b.<guid>`, or its address in the ACC web app.
 */
import { accId } from "../../aps/dm_ids.ts";
import type { AccProjectId } from "../../aps/ids.ts";
import { ISSUE_REF, ISSUE_STATUSES } from "../../aps/issues.ts";
import { usageError } from "../../core/errors.ts";
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
import { runIssueAttach, runIssueAttachmentList } from "./attachment.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "../../command/command.ts";
import {
  dateOption,
  fieldOptions,
  type IssueFieldFlags,
  issueInput,
  sortOption,
  statusOption,
} from "./fields.ts";

const P = "91f8bd44-058f-480c-adbb-861df5101b22";
const I = "f1b2c3d4-0000-4abc-8def-123456789abc";
const ISSUE_COLUMNS = ["displayId", "id", "title", "status", "assignedTo", "dueDate"];
const PROJECT_HELP = "project: its GUID, b.<guid>, or its address in ACC (https://acc.autodesk.com/...)";

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
    throw usageError(`required option '${flag}' not specified`, `Run \`diazo issue --help\` for usage.`);
  }
  return value;
}

/** `--project` of a subcommand (`comment list`), which commander may have given its parent. */
function projectOf(opts: { project?: AccProjectId }, cmd: AnyCommand): AccProjectId {
  return required(opts.project ?? (cmd.parent?.opts().project as AccProjectId | undefined), "--project <id>");
}

const commas = (value: string) => value.split(",").map((v) => v.trim()).filter(Boolean);

function registerList(issue: AnyCommand, makeCtx: ContextFactory): void {
  const list = issue.command("list").alias("ls").description("list a project's issues, every page")
    .requiredOption("--project <id>", PROJECT_HELP, projectOption)
    .option("--status <list>", `only these statuses (${ISSUE_STATUSES.join(", ")})`, statusList)
    .option("--assigned-to <ids>", "only issues assigned to these Autodesk ids (comma list; me: you)", commas)
    .option(
      "--due-before <date>",
      "only issues due before this date (YYYY-MM-DD)",
      dateOption("--due-before"),
    )
    .option("--search <text>", "only issues whose title (or number) matches")
    .option("--type <ids>", "only these issue subtype ids (comma list; see `issue types`)", commas)
    .option(
      "--sort <fields>",
      "order by fields, - for descending, e.g. -dueDate,displayId (default displayId)",
      sortOption,
    )
    .option("--limit <n>", "stop after n issues", positiveNumber("--limit", true))
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const issues = await runIssueList({ ...opts, issueSubtypeId: opts.type, sortBy: opts.sort }, ctx);
      await ctx.emit(issues, { columns: ISSUE_COLUMNS });
    });
  examples(list, [
    `diazo issue list --project ${P} --status open --assigned-to ABCD1234EFGH --due-before 2026-12-01`,
    `diazo issue list --project b.${P} --search slab -o json`,
    `diazo issue list --project ${P} --assigned-to me --status open,in_progress --sort dueDate`,
  ]);

  const get = issue.command("get").description("show an issue")
    .requiredOption("--project <id>", PROJECT_HELP, projectOption)
    .argument("<issue-id>", "issue id (a GUID) or number (42)", issueArgument)
    .action(async (id, opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runIssueGet({ ...opts, issue: id }, ctx));
    });
  examples(get, [`diazo issue get ${I} --project ${P}`, `diazo issue get 42 --project ${P} -o json`]);

  const types = issue.command("types").description("list the issue types and their subtypes")
    .requiredOption("--project <id>", PROJECT_HELP, projectOption)
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const all = await runIssueTypes(opts, ctx);
      const format = await ctx.format();
      if (format !== "table" && format !== "csv") return await ctx.emit(all);
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
    });
  examples(types, [`diazo issue types --project ${P}`, `diazo issue types --project ${P} -o json`]);
}

function registerWrite(issue: AnyCommand, makeCtx: ContextFactory): void {
  const create = fieldOptions(
    issue.command("create").description("create an issue")
      .requiredOption("--project <id>", PROJECT_HELP, projectOption),
  )
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const input = issueInput(opts as IssueFieldFlags, ctx);
      const created = await runIssueCreate({ project: opts.project, ...input }, ctx);
      await ctx.emit(created, {
        action: `Created issue #${created.displayId} ${created.id} (${created.status})`,
      });
    });
  examples(create, [
    `diazo issue create --project ${P} --title 'Cracked slab edge' --type Defect --due 2026-12-01`,
    `diazo issue create --project ${P} --from-file issue.yaml --assigned-to ABCD1234EFGH`,
  ]);

  const update = fieldOptions(
    issue.command("update").description("change an issue (only what differs is sent)")
      .requiredOption("--project <id>", PROJECT_HELP, projectOption),
  )
    .argument("<issue-id>", "issue id (a GUID) or number (42)", issueArgument)
    .action(async (id, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const input = issueInput(opts as IssueFieldFlags, ctx);
      const { issue: updated, changed } = await runIssueUpdate(
        { project: opts.project, issue: id, ...input },
        ctx,
      );
      await ctx.emit(updated, {
        action: changed.length
          ? `Updated issue #${updated.displayId}: ${changed.join(", ")}`
          : `Issue #${updated.displayId} already has those values; nothing sent`,
      });
    });
  examples(update, [
    `diazo issue update ${I} --project ${P} --assigned-to ABCD1234EFGH --due 2026-12-15`,
    `diazo issue update ${I} --project ${P} --from-file changes.json`,
  ]);

  const transition = issue.command("transition").description("move an issue to another status")
    .requiredOption("--project <id>", PROJECT_HELP, projectOption)
    .argument("<issue-id>", "issue id (a GUID) or number (42)", issueArgument)
    .requiredOption("--to <status>", "the new status (only those the platform permits from the current one)")
    .action(async (id, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const done = await runIssueTransition({ project: opts.project, issue: id, to: opts.to.trim() }, ctx);
      const { displayId, status } = done.issue;
      await ctx.emit(done.issue, {
        action: done.moved
          ? `Issue #${displayId} is now ${status}`
          : `Issue #${displayId} is already ${status}: nothing sent`,
      });
    });
  examples(transition, [`diazo issue transition ${I} --project ${P} --to in_review`]);
}

function registerThreads(issue: AnyCommand, makeCtx: ContextFactory): void {
  // `--project` and `--body` are checked here, not by commander: it would ask for them of `comment list` too.
  const comment = issue.command("comment").description("comment on an issue (`comment list` lists them)")
    .option("--project <id>", `${PROJECT_HELP} (required)`, projectOption)
    .argument("<issue-id>", "issue id (a GUID) or number (42)", issueArgument)
    .option("--body <text>", "the comment, at most 10000 characters (required)")
    .action(async (id, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const project = required(opts.project, "--project <id>");
      const body = required(opts.body, "--body <text>");
      const added = await runIssueComment({ project, issue: id, body }, ctx);
      await ctx.emit(added, { action: `Commented on issue ${id}` });
    });
  examples(comment, [
    `diazo issue comment ${I} --project ${P} --body 'Fixed on site, please check'`,
    `diazo issue comment list ${I} --project ${P}`,
  ]);
  const comments = comment.command("list").alias("ls").description("list an issue's comments")
    .option("--project <id>", `${PROJECT_HELP} (required)`, projectOption)
    .argument("<issue-id>", "issue id (a GUID) or number (42)", issueArgument)
    .option("--limit <n>", "stop after n comments", positiveNumber("--limit", true))
    .action(async (id, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const list = await runIssueCommentList({ ...opts, project: projectOf(opts, cmd), issue: id }, ctx);
      await ctx.emit(list, { columns: ["id", "createdAt", "createdBy", "body"] });
    });
  examples(comments, [`diazo issue comment list ${I} --project ${P} -o json`]);

  const attachment = issue.command("attachment").description(
    "attach a file to an issue (`attachment list` lists them)",
  )
    .option("--project <id>", `${PROJECT_HELP} (required)`, projectOption)
    .argument("<issue-id>", "issue id (a GUID) or number (42)", issueArgument)
    .argument("<file>", "the file to upload and attach")
    .action(async (id, file, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const attached = await runIssueAttach({
        project: required(opts.project, "--project <id>"),
        issue: id,
        file,
        onUploading: (bytes) => ctx.info(`Uploading ${file} (${bytes} bytes) to the project's storage`),
      }, ctx);
      await ctx.emit(attached, { action: `Attached ${attached.displayName} to issue ${id}` });
    });
  examples(attachment, [
    `diazo issue attachment ${I} site-photo.jpg --project ${P}`,
    `diazo issue attachment list ${I} --project ${P}`,
  ]);
  const attachments = attachment.command("list").alias("ls").description("list an issue's attachments")
    .option("--project <id>", `${PROJECT_HELP} (required)`, projectOption)
    .argument("<issue-id>", "issue id (a GUID) or number (42)", issueArgument)
    .action(async (id, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const list = await runIssueAttachmentList({ ...opts, project: projectOf(opts, cmd), issue: id }, ctx);
      await ctx.emit(list, { columns: ["attachmentId", "displayName", "fileSize", "createdOn"] });
    });
  examples(attachments, [`diazo issue attachment list ${I} --project ${P} -o json`]);
}

/** Registers the family's commands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const issue = program.command("issue")
    .description("construction-cloud issues: list, create, update, transition, comment, attach");
  examples(issue, [
    "diazo auth login --scopes data:read,data:write,data:create",
    `diazo issue list --project ${P} --status open`,
    `diazo issue transition ${I} --project ${P} --to in_review`,
  ]);
  registerList(issue, makeCtx);
  registerWrite(issue, makeCtx);
  registerThreads(issue, makeCtx);
}

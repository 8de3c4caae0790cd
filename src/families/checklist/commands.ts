/**
 * `diazo acc checklist list|get|create|update|templates`: the checklists of a construction-cloud
 * project and their templates, as the logged-in user.
 */
import { CHECKLIST_STATUSES, CHECKLIST_TEMPLATE_TYPES } from "../../aps/acc_build.ts";
import {
  CHECKLIST_KIND,
  type ChecklistFilters,
  type ChecklistResource,
  runChecklistTemplates,
  TEMPLATE_COLUMNS,
  templateRow,
} from "./kind.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "../../command/command.ts";
import {
  dateValue,
  oneOf,
  PROJECT_HELP,
  projectOf,
  type RecordCli,
  registerRecordCommands,
} from "../acc/record_commands.ts";

const P = "91f8bd44-058f-480c-adbb-861df5101b22";

const CHECKLIST_CLI: RecordCli<ChecklistResource, ChecklistFilters> = {
  kind: CHECKLIST_KIND,
  plural: "checklists",
  article: "a",
  filters: [
    {
      flags: "--template-type <ids>",
      key: "templateTypeId",
      help: `only these template types (${
        Object.entries(CHECKLIST_TEMPLATE_TYPES).map(([k, v]) => `${k} ${v}`).join(", ")
      })`,
      parse: oneOf("--template-type", Object.keys(CHECKLIST_TEMPLATE_TYPES)),
    },
    {
      flags: "--status <list>",
      key: "statusId",
      help: `only these statuses (${CHECKLIST_STATUSES.join(", ")})`,
      // The platform filters by status number: the statuses' order, from 1.
      parse: (v) =>
        [oneOf("--status", CHECKLIST_STATUSES)(v)].flat().map((s) =>
          String(CHECKLIST_STATUSES.indexOf(s) + 1)
        ),
    },
  ],
  fields: [
    {
      flags: "--template <id>",
      field: "templateId",
      help: "the template to create it from (`acc checklist templates`)",
      createOnly: true,
    },
    { flags: "--title <text>", field: "title", help: "title" },
    {
      flags: "--status <status>",
      field: "status",
      help: CHECKLIST_STATUSES.join(", "),
      parse: oneOf("--status", CHECKLIST_STATUSES, true),
    },
    { flags: "--assigned-to, --assignee <id>", field: "assigneeId", help: "assignee (Autodesk user id)" },
    {
      flags: "--due-date <date>",
      field: "dueDate",
      help: "due date (YYYY-MM-DD)",
      parse: dateValue("--due-date"),
    },
    { flags: "--location <text>", field: "location", help: "where on site" },
  ],
  examples: {
    list: [
      `diazo acc checklist list --project ${P}`,
      `diazo acc checklist list --project ${P} --template-type 11 -o json`,
    ],
    get: [`diazo acc checklist get <checklist-id> --project ${P}`],
    create: [`diazo acc checklist create --project ${P} --template <template-id> --title 'Level 3 pre-pour'`],
    update: [`diazo acc checklist update <checklist-id> --project ${P} --status in_progress`],
  },
};

function registerTemplates(checklist: AnyCommand, makeCtx: ContextFactory): void {
  const templates = checklist.command("templates")
    .description("list the project's checklist templates, following every page")
    .requiredOption("--project <id>", PROJECT_HELP, projectOf)
    .option("--limit <n>", "stop after n templates", positiveNumber("--limit", true))
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const list = await runChecklistTemplates(opts, ctx);
      const format = await ctx.format();
      const scan = (format === "table" || format === "csv") && !ctx.flags.query;
      await ctx.emit(scan ? list.map(templateRow) : list, { columns: TEMPLATE_COLUMNS });
    });
  examples(templates, [
    `diazo acc checklist templates --project ${P}`,
    `diazo acc checklist templates --project b.${P} -o json`,
  ]);
}

/** Registers `acc checklist`. */
export function registerChecklist(acc: AnyCommand, makeCtx: ContextFactory): void {
  const checklist = acc.command("checklist").description("checklists of a project and their templates");
  examples(checklist, [
    `diazo acc checklist templates --project ${P}`,
    `diazo acc checklist list --project ${P}`,
  ]);
  registerRecordCommands(checklist, CHECKLIST_CLI, makeCtx);
  registerTemplates(checklist, makeCtx);
}

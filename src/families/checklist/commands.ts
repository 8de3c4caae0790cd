/**
 * `diazo acc checklist list|get|create|update|templates`: the checklists of a construction-cloud
 * project and their templates, as the logged-in user.
 */
import { CHECKLIST_STATUSES, CHECKLIST_TEMPLATE_TYPES } from "../../aps/acc_build.ts";
import { isTabular } from "../../core/output.ts";
import {
  CHECKLIST_KIND,
  type ChecklistFilters,
  type ChecklistResource,
  runChecklistTemplates,
  TEMPLATE_COLUMNS,
  templateRow,
} from "./kind.ts";
import { positiveNumber } from "../../command/command.ts";
import type { AccProjectId } from "../../aps/ids.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { dateValue, oneOf, PROJECT_OPTION, type RecordCli, recordCommands } from "../acc/record_commands.ts";

const P = "91f8bd44-058f-480c-adbb-861df5101b22";

const CHECKLIST_CLI: RecordCli<ChecklistResource, ChecklistFilters> = {
  kind: CHECKLIST_KIND,
  tools: { get: "checklist_get", list: "checklist_list" },
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

/** `acc checklist templates`. */
const TEMPLATES: CommandDecl = {
  name: "templates",
  description: "list the project's checklist templates, following every page",
  options: [
    PROJECT_OPTION,
    { flags: "--limit <n>", description: "stop after n templates", parse: positiveNumber("--limit", true) },
  ],
  examples: [
    `diazo acc checklist templates --project ${P}`,
    `diazo acc checklist templates --project b.${P} -o json`,
  ],
  run: async (ctx, _args, opts: { project: AccProjectId; limit?: number }) => {
    const list = await runChecklistTemplates(opts, ctx);
    const format = await ctx.format();
    const scan = isTabular(format) && !ctx.flags.query;
    await ctx.emit(scan ? list.map(templateRow) : list, { columns: TEMPLATE_COLUMNS });
  },
};

/** `acc checklist`. */
export const CHECKLIST: CommandDecl = {
  name: "checklist",
  description: "checklists of a project and their templates",
  examples: [
    `diazo acc checklist templates --project ${P}`,
    `diazo acc checklist list --project ${P}`,
  ],
  commands: [...recordCommands(CHECKLIST_CLI), TEMPLATES],
};

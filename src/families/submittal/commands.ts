/** `diazo acc submittal list|get|create|update`: the submittal items of an ACC project, as the logged-in user. */
import { SUBMITTAL_STATES } from "../../aps/acc_build.ts";
import { SUBMITTAL_KIND, type SubmittalFilters, type SubmittalItem } from "./kind.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { commaList, dateValue, oneOf, type RecordCli, recordCommands } from "../acc/record_commands.ts";

const P = "91f8bd44-058f-480c-adbb-861df5101b22";
const PRIORITIES = ["Low", "Normal", "High"];

const SUBMITTAL_CLI: RecordCli<SubmittalItem, SubmittalFilters> = {
  kind: SUBMITTAL_KIND,
  tools: { get: "submittal_get", list: "submittal_list" },
  plural: "submittals",
  article: "a",
  filters: [
    {
      flags: "--status <ids>",
      key: "statusId",
      help: "only these status ids (1 required, 2 open, 3 closed, 4 void, 6 draft)",
      parse: commaList,
    },
    { flags: "--package <ids>", key: "packageId", help: "only items of these packages", parse: commaList },
    {
      flags: "--search <text>",
      key: "search",
      help: "only items whose identifier, title or spec holds this text",
    },
  ],
  fields: [
    { flags: "--title <text>", field: "title", help: "title" },
    { flags: "--type <id>", field: "typeId", help: "item type id" },
    { flags: "--spec <id>", field: "specId", help: "spec section id" },
    {
      flags: "--state <state>",
      field: "stateId",
      help: `workflow state (${SUBMITTAL_STATES.join(", ")}); create default: mgr-1`,
      parse: oneOf("--state", SUBMITTAL_STATES, true),
    },
    { flags: "--package <id>", field: "packageId", help: "package id" },
    { flags: "--description <text>", field: "description", help: "description" },
    {
      flags: "--priority <p>",
      field: "priority",
      help: PRIORITIES.join(", "),
      parse: oneOf("--priority", PRIORITIES, true),
    },
    {
      flags: "--due-date <date>",
      field: "dueDate",
      help: "due date (YYYY-MM-DD)",
      parse: dateValue("--due-date"),
    },
  ],
  createDefaults: { stateId: "mgr-1" },
  examples: {
    list: [
      `diazo acc submittal list --project ${P}`,
      `diazo acc submittal list --project ${P} --status 2 -o json`,
    ],
    get: [`diazo acc submittal get <item-id> --project ${P}`],
    create: [
      `diazo acc submittal create --project ${P} --title 'Curtain wall shop drawings' --type <type-id> --spec <spec-id>`,
    ],
    update: [`diazo acc submittal update <item-id> --project ${P} --state rev`],
  },
};

/** `acc submittal`. */
export const SUBMITTAL: CommandDecl = {
  name: "submittal",
  description: "submittal items of an ACC project",
  examples: [`diazo acc submittal list --project ${P}`],
  commands: recordCommands(SUBMITTAL_CLI),
};

/**
 * `diazo rfi list|get|create|update`: the RFIs of a construction-cloud project, as the logged-in
 * user. `update --status` moves the RFI along its workflow; the platform refuses a move it does
 * not permit and names the ones it does.
 */
import { RFI_STATUSES } from "../../aps/acc_build.ts";
import { type Rfi, RFI_KIND, type RfiFilters } from "./kind.ts";
import { commaList, dateValue, oneOf, type RecordCli, recordCommands } from "../acc/record_commands.ts";
import type { CommandDecl } from "../../command/decl.ts";

const P = "91f8bd44-058f-480c-adbb-861df5101b22";
const PRIORITIES = ["High", "Normal", "Low"];

const users = (value: string) => commaList(value).map((id) => ({ id, type: "user" }));

/** The flags and examples of the RFI commands. */
export const RFI_CLI: RecordCli<Rfi, RfiFilters> = {
  kind: RFI_KIND,
  tools: { get: "rfi_get", list: "rfi_list" },
  plural: "RFIs",
  article: "an",
  filters: [
    {
      flags: "--status <list>",
      key: "status",
      help: `only these statuses (${RFI_STATUSES.join(", ")})`,
      parse: oneOf("--status", RFI_STATUSES),
    },
    {
      flags: "--assigned-to <ids>",
      key: "assignedTo",
      help: "only RFIs assigned to these users (Autodesk ids; me: you)",
      parse: commaList,
    },
    {
      flags: "--search <text>",
      key: "search",
      help: "only RFIs whose title, question or answer holds this text",
    },
    {
      flags: "--due-before <date>",
      key: "dueBefore",
      help: "only RFIs due before this date (YYYY-MM-DD)",
      parse: dateValue("--due-before"),
    },
  ],
  fields: [
    { flags: "--title <text>", field: "title", help: "title" },
    { flags: "--question <text>", field: "question", help: "the question asked" },
    {
      flags: "--status <status>",
      field: "status",
      help: `status (${RFI_STATUSES.join(", ")}); create default: draft`,
      parse: oneOf("--status", RFI_STATUSES, true),
    },
    {
      flags: "--assigned-to <ids>",
      field: "assignedTo",
      help: "assignees (Autodesk user ids, comma-separated)",
      parse: users,
    },
    {
      flags: "--due-date <date>",
      field: "dueDate",
      help: "due date (YYYY-MM-DD)",
      parse: dateValue("--due-date"),
    },
    {
      flags: "--priority <p>",
      field: "priority",
      help: PRIORITIES.join(", "),
      parse: oneOf("--priority", PRIORITIES, true),
    },
    { flags: "--location <text>", field: "locationDescription", help: "where on site" },
    {
      flags: "--official-response <text>",
      field: "officialResponse",
      help: "the official answer (when answering or closing)",
    },
  ],
  createDefaults: { status: "draft" },
  examples: {
    list: [
      `diazo rfi list --project ${P}`,
      `diazo rfi list --project b.${P} --status open,answered --assigned-to SANDBOXADAMORENO -o json`,
    ],
    get: [`diazo rfi get <rfi-id> --project ${P}`],
    create: [
      `diazo rfi create --project ${P} --title 'Duct clash at grid C4' --question 'Lower the duct or the beam?' --due-date 2026-12-01`,
      `diazo rfi create --project ${P} --from-file rfi.yaml`,
    ],
    update: [
      `diazo rfi update <rfi-id> --project ${P} --status submitted --assigned-to SANDBOXADAMORENO`,
      `cat changes.json | diazo rfi update <rfi-id> --project ${P} --from-file -`,
    ],
  },
};

/** The rfi family. */
export const RFI: CommandDecl = {
  name: "rfi",
  description: "requests for information of a construction-cloud project (needs `diazo auth login`)",
  examples: [
    "diazo auth login --scopes data:read,data:write,data:create",
    `diazo rfi list --project ${P}`,
  ],
  commands: recordCommands(RFI_CLI),
};

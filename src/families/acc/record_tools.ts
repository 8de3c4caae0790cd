/**
 * Tools over the construction cloud's build records (as `diazo rfi list`, `diazo acc asset|
 * submittal|checklist list`): one page of a project's RFIs, assets, submittal items or checklists,
 * read-only, always as the logged-in user.
 */
import { z } from "zod";
import { CHECKLIST_TEMPLATE_TYPES, RFI_STATUSES } from "../../aps/acc_build.ts";
import { accId } from "../../aps/dm_ids.ts";
import { ASSET_KIND } from "../asset/kind.ts";
import { CHECKLIST_KIND } from "../checklist/kind.ts";
import { type RecordKind, runRecordPage } from "./records.ts";
import { RFI_KIND } from "../rfi/kind.ts";
import { SUBMITTAL_KIND } from "../submittal/kind.ts";
import { USER_LOGIN_REF } from "../../mcp/login.ts";
import { listAnswer } from "../../mcp/result.ts";
import {
  type AnyTool,
  cursorInput,
  defineTool,
  limitInput,
  listOutput,
  READ,
  type ToolContext,
} from "../../mcp/tool.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const NEEDS = `Needs your user login with data:read; the app's own token is refused (${USER_LOGIN_REF}).`;
const projectIdInput = z.string().min(1).describe(
  "Construction-cloud project id: the GUID, e.g. 1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081 (the data management " +
    "b.<guid> form from project_list is accepted and the b. removed).",
);

const record = z.object({
  id: z.string(),
  title: z.unknown().optional().describe("Title (an asset's clientAssetId)."),
  status: z.unknown().optional().describe("Status (a submittal's stateId, an asset's statusId)."),
  assignee: z.unknown().optional().describe("Assignee ids, comma-separated, where the record has one."),
  dueDate: z.unknown().optional(),
  record: z.record(z.string(), z.unknown()).optional().describe(
    'The platform\'s record, with its own field names: only the fields asked for (fields), or all of it with ["*"].',
  ),
});

/** One page of a kind's records as a list answer: what a person scans, and the record itself. */
async function page<R, F>(
  kind: RecordKind<R, F>,
  args: { project_id: string; limit: number; cursor?: string },
  filters: F,
  ctx: ToolContext,
) {
  const found = await runRecordPage(kind, {
    project: accId(args.project_id),
    filters,
    limit: args.limit,
    cursor: args.cursor,
  }, ctx);
  const items = found.items.map((r) => {
    const { id, title, status, assignee, dueDate } = kind.row(r);
    return { id, title, status, assignee, dueDate };
  });
  // `fields` names the platform's fields: the kernel adds them under `record` (mcp/fields.ts).
  return listAnswer(found, items, undefined, { under: "record" });
}

const common = {
  project_id: projectIdInput,
  limit: limitInput("records"),
  cursor: cursorInput,
};
const LIST = {
  output: listOutput(record),
  annotations: READ,
  login: "user",
} as const;

const rfiList = defineTool({
  name: "rfi_list",
  scopes: toolScopes("rfi_list"),
  title: "List RFIs",
  description:
    `Lists the RFIs (requests for information) of a construction-cloud project, oldest first. ${NEEDS}`,
  input: {
    ...common,
    status: z.array(z.enum(RFI_STATUSES as [string, ...string[]])).optional().describe(
      "Only these statuses.",
    ),
    assigned_to: z.array(z.string()).optional().describe("Only RFIs assigned to these Autodesk user ids."),
    search: z.string().optional().describe("Only RFIs whose title, question or answer holds this text."),
  },
  ...LIST,
  run: (args, ctx) =>
    page(RFI_KIND, args, { status: args.status, assignedTo: args.assigned_to, search: args.search }, ctx),
});

const assetList = defineTool({
  name: "asset_list",
  scopes: toolScopes("asset_list"),
  title: "List assets",
  description:
    `Lists the assets (equipment) of a construction-cloud project with category and status ids. ${NEEDS}`,
  input: {
    ...common,
    category_id: z.array(z.string()).optional().describe("Only these category ids."),
    search: z.string().optional().describe("Only assets whose name, description or barcode holds this text."),
  },
  ...LIST,
  run: (args, ctx) => page(ASSET_KIND, args, { categoryId: args.category_id, search: args.search }, ctx),
});

const submittalList = defineTool({
  name: "submittal_list",
  scopes: toolScopes("submittal_list"),
  title: "List submittal items",
  description:
    "Lists the submittal items of an ACC project; status is the workflow state (draft, sbc-1 waiting for " +
    `submission, mgr-1 open, rev in review, mgr-2 reviewed, sbc-2 closed). Void items are left out. ${NEEDS}`,
  input: {
    ...common,
    search: z.string().optional().describe("Only items whose identifier, title or spec holds this text."),
  },
  ...LIST,
  run: (args, ctx) => page(SUBMITTAL_KIND, args, { search: args.search }, ctx),
});

const checklistList = defineTool({
  name: "checklist_list",
  scopes: toolScopes("checklist_list"),
  title: "List checklists",
  description:
    "Lists the checklists of a project (status not_started, in_progress or completed) with their template. " +
    NEEDS,
  input: {
    ...common,
    template_type: z.array(z.enum(Object.keys(CHECKLIST_TEMPLATE_TYPES) as [string, ...string[]])).optional()
      .describe(
        `Only these template types: ${
          Object.entries(CHECKLIST_TEMPLATE_TYPES).map(([k, v]) => `${k} ${v}`).join(", ")
        }.`,
      ),
  },
  ...LIST,
  run: (args, ctx) => page(CHECKLIST_KIND, args, { templateTypeId: args.template_type }, ctx),
});

/** The construction-cloud record tools (RFIs, assets, submittals, checklists). */
export const RECORD_TOOLS: readonly AnyTool[] = [rfiList, assetList, submittalList, checklistList];

/** Tools over construction-cloud issues (families/issue/verbs.ts, as `diazo issue ...`): list, get, create, update, comment. */
import { z } from "zod";
import { accId } from "../../aps/dm_ids.ts";
import { ASSIGNEE_TYPES, ISSUE_REF, ISSUE_STATUSES } from "../../aps/issues.ts";
import { runIssueComment, runIssueCreate, runIssueGet, runIssueListPage, runIssueUpdate } from "./verbs.ts";
import { USER_LOGIN_REF } from "../../mcp/login.ts";
import { deriveTool } from "../../mcp/derive.ts";
import { listAnswer } from "../../mcp/result.ts";
import { ISSUE } from "./commands.ts";
import {
  type AnyTool,
  camelKeys,
  cursorInput,
  defineTool,
  limitInput,
  listOutput,
  pickFields,
  READ,
} from "../../mcp/tool.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const LOGIN =
  `Acts as your user login (data:read to read, data:write to change); the app's own cannot (${USER_LOGIN_REF}).`;

const projectInput = z.string().min(1).describe(
  "Project id: its GUID (e.g. 91f8bd44-058f-480c-adbb-861df5101b22), the data management form b.<guid>, or its " +
    "address in ACC (https://acc.autodesk.com/.../projects/<guid>).",
);
const issueInput = z.string().regex(ISSUE_REF)
  .describe(
    "The issue: its id (a GUID, the `id` field of issue_list) or its number in the project (displayId, e.g. 42).",
  );
const statusInput = z.enum(ISSUE_STATUSES);

const issue = z.looseObject({
  id: z.string(),
  displayId: z.number().describe("The issue's number in the project (#N)."),
  title: z.string(),
  status: z.string(),
  issueSubtypeId: z.string().optional().describe("Its type (UI) — see `issue types`."),
  assignedTo: z.string().nullable().optional().describe("Autodesk id of the assignee."),
  dueDate: z.string().nullable().optional(),
  permittedStatuses: z.array(z.string()).optional().describe("Statuses the issue may move to now."),
});

/** An issue as issue_list answers it: its number names it to every issue tool; `fields` adds the rest. */
const issueRow = issue.partial({ id: true, title: true, status: true });

/** The fields create and update take: the platform's names in snake case (camelKeys turns them back). */
const fields = {
  title: z.string().min(1).max(10000).optional().describe("The issue's title (1-10,000 characters)."),
  description: z.string().max(10000).optional().describe(
    "What is wrong, in plain text (at most 10,000 characters).",
  ),
  issue_subtype_id: z.string().optional().describe(
    "Issue type: a subtype id, or its title (e.g. Defect) or code; issue_types lists them.",
  ),
  status: statusInput.optional().describe(
    "Status; an update may only move to one of the issue's permittedStatuses.",
  ),
  assigned_to: z.string().nullable().optional().describe("Assignee's Autodesk id; null clears it."),
  assigned_to_type: z.enum(ASSIGNEE_TYPES).optional().describe("What assigned_to names (default user)."),
  due_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable().optional().describe(
    "YYYY-MM-DD; null clears it.",
  ),
  location_details: z.string().max(8300).optional().describe(
    "Where the issue is, in words, e.g. Level 2, grid C4 (at most 8,300 characters).",
  ),
};

/** The given fields under the platform's names (`issue_subtype_id` → `issueSubtypeId`), for families/issue/verbs.ts. */
function fieldsOf(args: Record<string, unknown>): Record<string, unknown> {
  return camelKeys(args, Object.keys(fields));
}

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** What issue_list answers of each issue by default (issue_get answers the rest). */
const ISSUE_KEYS = ["displayId", "title", "status", "issueSubtypeId", "assignedTo", "dueDate", "updatedAt"];

const issueList = defineTool({
  name: "issue_list",
  title: "List issues of a project",
  description:
    "Lists the issues of a construction-cloud project, oldest first, with filters: of each its number (displayId, " +
    "which every issue tool takes as issue_id), title, status, type, assignee, due date and last change; fields " +
    `(e.g. ["id","description"]) or issue_get give the rest. ${LOGIN}`,
  input: {
    project_id: projectInput,
    status: z.array(statusInput).optional().describe("Only these statuses."),
    assigned_to: z.array(z.string()).optional().describe("Only issues assigned to these Autodesk ids."),
    search: z.string().optional().describe("Only issues whose title (or number) matches."),
    limit: limitInput("issues"),
    cursor: cursorInput,
  },
  output: listOutput(issueRow),
  annotations: READ,
  scopes: toolScopes("issue_list"),
  login: "user",
  async run(args, ctx) {
    const page = await runIssueListPage({
      project: accId(args.project_id),
      status: args.status,
      assignedTo: args.assigned_to,
      search: args.search,
      limit: args.limit,
      cursor: args.cursor,
    }, ctx);
    const items = page.items.map((i) => pickFields(i as Record<string, unknown>, ISSUE_KEYS));
    return listAnswer(page, items as z.input<typeof issueRow>[]);
  },
});

const issueGet = deriveTool(ISSUE, {
  name: "issue_get",
  title: "Get an issue",
  description: `Shows one issue with every field the platform answers, including permittedStatuses. ${LOGIN}`,
  // The pattern of an issue reference, which the declaration's parser checks by hand.
  derive: { types: { issue_id: issueInput } },
  // The record under `issue`: a top-level output object admits no field beyond those declared.
  output: { issue },
  annotations: READ,
  scopes: toolScopes("issue_get"),
  login: "user",
  run: async (args, ctx) => ({
    issue: { ...await runIssueGet({ project: accId(args.project_id), issue: args.issue_id }, ctx) },
  }),
});

const issueCreate = defineTool({
  name: "issue_create",
  title: "Create an issue",
  description: `Creates an issue; title and issue_subtype_id are required, status defaults to open. ${LOGIN}`,
  input: {
    project_id: projectInput,
    ...fields,
    // Required here, as the platform requires them to create an issue.
    title: fields.title.unwrap().describe(fields.title.description ?? ""),
    issue_subtype_id: fields.issue_subtype_id.unwrap().describe(fields.issue_subtype_id.description ?? ""),
  },
  output: { issue },
  annotations: WRITE,
  scopes: toolScopes("issue_create"),
  login: "user",
  async run(args, ctx) {
    return {
      issue: { ...await runIssueCreate({ project: accId(args.project_id), fields: fieldsOf(args) }, ctx) },
    };
  },
});

const issueUpdate = defineTool({
  name: "issue_update",
  title: "Update an issue",
  description:
    `Changes an issue: only the fields given, and of those only the ones whose value differs, are sent. A status ` +
    `change must be one of the issue's permittedStatuses (issue_get shows them). ${LOGIN}`,
  input: { project_id: projectInput, issue_id: issueInput, ...fields },
  output: { issue, changed: z.array(z.string()).describe("The fields sent (empty: nothing differed).") },
  // It overwrites the fields it is given (a title, a status): an update, not an addition.
  annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
  scopes: toolScopes("issue_update"),
  login: "user",
  async run(args, ctx) {
    const done = await runIssueUpdate(
      { project: accId(args.project_id), issue: args.issue_id, fields: fieldsOf(args) },
      ctx,
    );
    return { issue: { ...done.issue }, changed: done.changed };
  },
});

const issueCommentAdd = defineTool({
  name: "issue_comment_add",
  title: "Comment on an issue",
  description: `Adds a comment to an issue. ${LOGIN}`,
  input: {
    project_id: projectInput,
    issue_id: issueInput,
    body: z.string().min(1).max(10000).describe("The comment's text (1-10,000 characters)."),
  },
  output: {
    id: z.string(),
    body: z.string(),
    createdAt: z.string().optional(),
    createdBy: z.string().optional(),
  },
  annotations: WRITE,
  scopes: toolScopes("issue_comment_add"),
  login: "user",
  async run(args, ctx) {
    const c = await runIssueComment({
      project: accId(args.project_id),
      issue: args.issue_id,
      body: args.body,
    }, ctx);
    return { id: c.id, body: c.body, createdAt: c.createdAt, createdBy: c.createdBy };
  },
});

/** The issues area's tools. */
export const ISSUE_TOOLS: readonly AnyTool[] = [
  issueList,
  issueGet,
  issueCreate,
  issueUpdate,
  issueCommentAdd,
];

/**
 * Account administration tools (ops/admin*.ts, as `diazo admin ...`): the accounts a login sees,
 * an account's projects, a project's users, and adding a user to a project.
 */
import { z } from "zod";
import { PRODUCT_ACCESS, PRODUCT_KEYS, PROJECT_STATUSES } from "../../aps/admin.ts";
import { accId } from "../../aps/dm_ids.ts";
import { runAdminProjectList, runAdminProjectUsersPage } from "./verbs.ts";
import { runAccountList } from "./account.ts";
import { runAdminProjectUserAdd } from "./users.ts";
import { USER_LOGIN_REF } from "../../mcp/login.ts";
import { confirmed, confirmInput, DESTROYS } from "../../mcp/confirm.ts";
import { listAnswer } from "../../mcp/result.ts";
import { type AnyTool, cursorInput, defineTool, limitInput, listOutput, READ } from "../../mcp/tool.ts";
import { pageByCursor, pageFromStart } from "../../http/list.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const NEEDS = `Acts as your user login (account:read to read, account:write to change; ${USER_LOGIN_REF}).`;
const accountInput = z.string().min(1).describe(
  "Account id: a GUID (admin_account_list), or its hub id b.<guid>.",
);
const projectInput = z.string().min(1).describe("Project id: a GUID (admin_project_list), or b.<guid>.");
const regionInput = z.enum(["US", "EMEA", "AUS"]).optional().describe(
  "The account's data centre (default US).",
);

const accountList = defineTool({
  name: "admin_account_list",
  title: "List accounts",
  description:
    `Lists the construction-cloud accounts (ACC or BIM 360) the login can see, with region and hub id. ${NEEDS}`,
  input: { limit: limitInput("accounts"), cursor: cursorInput },
  output: listOutput(
    z.looseObject({ id: z.string(), name: z.string(), platform: z.string(), hubId: z.string() }),
  ),
  annotations: READ,
  scopes: toolScopes("admin_account_list"),
  login: "user",
  async run(args, ctx) {
    const page = await pageFromStart(
      (upTo) => runAccountList({ limit: upTo }, ctx),
      args,
      "admin_account_list",
    );
    return listAnswer(page, page.items.map((a) => ({ ...a })));
  },
});

const projectList = defineTool({
  name: "admin_project_list",
  title: "List an account's projects",
  description: `Lists the projects of an account, filtered by status or name. ${NEEDS}`,
  input: {
    account_id: accountInput,
    status: z.array(z.enum(PROJECT_STATUSES as [string, ...string[]])).optional().describe(
      "Only these statuses.",
    ),
    name: z.string().optional().describe("Only projects whose name holds this text."),
    platform: z.enum(["acc", "bim360"]).optional().describe(
      "The account's kind, when it has no project to tell by.",
    ),
    region: regionInput,
    limit: limitInput("projects"),
    cursor: cursorInput,
  },
  output: listOutput(z.looseObject({ id: z.string(), name: z.string() })),
  annotations: READ,
  scopes: toolScopes("admin_project_list"),
  login: "user",
  async run(args, ctx) {
    const { limit, cursor, ...filters } = args;
    const account = accId(args.account_id, "account_id");
    const read = (upTo: number) => runAdminProjectList({ ...filters, account, limit: upTo }, ctx);
    const page = await pageFromStart(
      read,
      { limit, cursor },
      `admin_project_list ${JSON.stringify(filters)}`,
    );
    return listAnswer(page, page.items.map((p) => ({ ...p })));
  },
});

const projectUsers = defineTool({
  name: "admin_project_users",
  title: "List a project's users",
  description: `Lists the members of a project with their products and roles. ${NEEDS}`,
  input: { project_id: projectInput, region: regionInput, limit: limitInput("users"), cursor: cursorInput },
  output: listOutput(z.looseObject({ id: z.string(), email: z.string().optional() })),
  annotations: READ,
  scopes: toolScopes("admin_project_users"),
  login: "user",
  async run(args, ctx) {
    const project = accId(args.project_id);
    const read = (cursor?: string) =>
      runAdminProjectUsersPage({ project, region: args.region, limit: args.limit, cursor }, ctx);
    const page = await pageByCursor(read, args, `admin_project_users ${project} ${args.region ?? ""}`);
    return listAnswer(page, page.items.map((u) => ({ ...u })));
  },
});

const projectUserAdd = defineTool({
  name: "admin_project_user_add",
  title: "Add a user to a project",
  description:
    "Gives a user (by e-mail) access to a project's products (default docs as member); an e-mail the account " +
    `does not know joins its directory. ${DESTROYS} ${NEEDS}`,
  input: {
    project_id: projectInput,
    email: z.email().describe("The user's e-mail address."),
    products: z.array(z.object({
      key: z.enum(PRODUCT_KEYS as [string, ...string[]]),
      access: z.enum(PRODUCT_ACCESS as [string, ...string[]]),
    })).optional().describe('Products and access, e.g. [{"key":"docs","access":"member"}].'),
    company_id: z.string().optional().describe("The company the user represents in the project."),
    role_ids: z.array(z.string()).optional().describe("Role ids."),
    region: regionInput,
    confirm: confirmInput,
  },
  output: { member: z.looseObject({ id: z.string(), email: z.string().optional() }) },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  scopes: toolScopes("admin_project_user_add"),
  login: "user",
  async run(args, ctx) {
    const products = (args.products ?? [{ key: "docs", access: "member" }]).map((p) =>
      `${p.key} ${p.access}`
    );
    await confirmed(
      ctx,
      args.confirm,
      `Give ${args.email} access to project ${args.project_id} (${products.join(", ")})?`,
      "grant",
    );
    const member = await runAdminProjectUserAdd({
      project: accId(args.project_id),
      region: args.region,
      member: {
        email: args.email,
        products: args.products ?? [{ key: "docs", access: "member" }],
        companyId: args.company_id,
        roleIds: args.role_ids,
      },
    }, ctx);
    return { member: { ...member } };
  },
});

/** The account administration tools. */
export const ADMIN_TOOLS: readonly AnyTool[] = [accountList, projectList, projectUsers, projectUserAdd];

/**
 * Tools over webhooks (families/webhook/verbs.ts, write_verbs.ts, catalog.ts and check.ts, as `diazo webhook ...`): the event
 * catalog, the app's hooks, creating and deleting one, and a test delivery to a receiver.
 */
import { z } from "zod";
import { checkHookRef, runWebhookCreate, runWebhookDelete } from "./write_verbs.ts";
import { runWebhookListPage } from "./verbs.ts";
import { runWebhookEvents } from "./catalog.ts";
import { runWebhookTest } from "./check.ts";
import { deriveTool } from "../../mcp/derive.ts";
import { listAnswer } from "../../mcp/result.ts";
import { WEBHOOK } from "./commands.ts";
import { type AnyTool, defineTool, listOutput, READ } from "../../mcp/tool.ts";
import { pageByCursor } from "../../http/list.ts";
import { confirmed, confirmInput, DESTROYS } from "../../mcp/confirm.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const APP = "Acts as the app (its own 2-legged login, scope data:read to read and data:write to change).";

const eventInput = z.string().min(1).describe(
  "Event kind, e.g. dm.version.added (webhook_events lists them); its system follows from it.",
);
const systemInput = z.string().min(1).optional().describe(
  "System, e.g. data or derivative; default the system of the event.",
);
/** The regions hooks live in: fewer than the data centres the command's parser takes (families/webhook/commands.ts). */
const regionInput = z.enum(["US", "EMEA", "AUS"]).optional().describe("Region of the hooks (default US).");

const hook = z.looseObject({
  hookId: z.string(),
  system: z.string(),
  event: z.string(),
  callbackUrl: z.string(),
  status: z.string().describe("active, or inactive when deliveries stopped (delete and recreate it)."),
  scope: z.record(z.string(), z.string()).optional(),
});

const webhookEvents = deriveTool(WEBHOOK, {
  name: "webhook_events",
  title: "List webhook events",
  description:
    "Lists the systems and event kinds hooks can be created for, with the scope key each needs (e.g. folder). " +
    "Local: no request, no login.",
  output: {
    events: z.array(
      z.object({ system: z.string(), event: z.string(), scope: z.string(), service: z.string() }),
    ),
  },
  annotations: { ...READ, openWorldHint: false },
  scopes: toolScopes("webhook_events"),
  login: "none",
  run: (args) => Promise.resolve({ events: runWebhookEvents({ system: args.system }) }),
});

const webhookList = deriveTool(WEBHOOK, {
  name: "webhook_list",
  title: "List webhooks",
  description: `Lists the app's hooks, of one system or one event when given, with their status. ${APP}`,
  derive: { list: "hooks", types: { region: regionInput } },
  output: listOutput(hook),
  annotations: READ,
  scopes: toolScopes("webhook_list"),
  login: "app",
  async run(args, ctx) {
    const { limit, cursor, ...filters } = args;
    const page = await pageByCursor(
      (at) => runWebhookListPage({ ...filters, limit, cursor: at }, ctx),
      { cursor },
      `webhook_list ${JSON.stringify(filters)}`,
    );
    return listAnswer(page, page.items.map((h) => ({ ...h })));
  },
});

const webhookCreate = defineTool({
  name: "webhook_create",
  title: "Create a webhook",
  description:
    "Creates a hook: the platform then POSTs each event of that kind within the scope (e.g. a folder and its " +
    "sub-folders) to url, which must answer HTTP 200 within 5 seconds (webhook_test checks it). " +
    `Answers the hook. ${DESTROYS} ${APP}`,
  input: {
    url: z.string().min(1).describe("The receiver's absolute https URL."),
    event: eventInput,
    system: systemInput,
    scope: z.record(z.string(), z.string()).describe(
      'The hook\'s scope, e.g. {"folder": "urn:adsk.wipprod:fs.folder:co.xyz"} for data events.',
    ),
    region: regionInput,
    auto_reactivate: z.boolean().optional().describe(
      "Reactivate the hook by itself after failed deliveries.",
    ),
    confirm: confirmInput,
  },
  output: { hook },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  scopes: toolScopes("webhook_create"),
  login: "app",
  async run(args, ctx) {
    const scope = Object.entries(args.scope).map(([k, v]) => `${k} ${v}`).join(", ");
    await confirmed(ctx, args.confirm, `Send every ${args.event} event of ${scope} to ${args.url}?`, "grant");
    const created = await runWebhookCreate({
      url: args.url,
      event: args.event,
      system: args.system,
      scope: Object.entries(args.scope).map(([k, v]) => `${k}=${v}`),
      region: args.region,
      autoReactivate: args.auto_reactivate,
    }, ctx);
    return { hook: { ...created } };
  },
});

const webhookDelete = deriveTool(WEBHOOK, {
  name: "webhook_delete",
  title: "Delete a webhook",
  description: `Deletes one hook, named by its id, event (and system) and region. ${DESTROYS} ${APP}`,
  derive: { confirm: true, types: { region: regionInput } },
  output: { hookId: z.string(), system: z.string(), event: z.string(), deleted: z.boolean() },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  scopes: toolScopes("webhook_delete"),
  login: "app",
  async run(args, ctx) {
    checkHookRef({ hookId: args.hook_id, ...args });
    await confirmed(ctx, args.confirm, `Delete webhook ${args.hook_id} (${args.event})?`);
    return await runWebhookDelete({ hookId: args.hook_id, ...args }, ctx);
  },
});

const webhookTest = defineTool({
  name: "webhook_test",
  title: "Test a webhook receiver",
  description:
    "POSTs one sample event to a receiver URL as the platform would and says whether it answered HTTP 200 within " +
    "5 seconds (the platform's rule). No login.",
  input: {
    url: z.string().min(1).describe("The receiver's absolute URL."),
    event: eventInput.optional().describe("The sample's event kind (default dm.version.added)."),
  },
  output: {
    url: z.string(),
    event: z.string(),
    status: z.number(),
    latency_ms: z.number(),
    budget_ms: z.number(),
    ok: z.boolean(),
    signed: z.boolean(),
    delivery_id: z.string(),
    detail: z.string().optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  scopes: toolScopes("webhook_test"),
  login: "none",
  run: async (args, ctx) => ({ ...await runWebhookTest({ url: args.url, event: args.event }, ctx) }),
});

/** The webhook tools. */
export const WEBHOOK_TOOLS: readonly AnyTool[] = [
  webhookEvents,
  webhookList,
  webhookCreate,
  webhookDelete,
  webhookTest,
];

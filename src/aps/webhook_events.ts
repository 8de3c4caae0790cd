/**
 * The webhooks service's vocabulary (openapi/webhooks/webhooks.yaml): its systems, the event kinds
 * of each and the scope key a hook of that system is bound by; plus the checks of user input that
 * name them. Shared by the client (`webhook events`, `webhook create`) and the sandbox.
 */
import { fieldError } from "../core/field_error.ts";
import { suggest } from "../core/suggest.ts";

/** One system of the webhooks service: its event kinds and the key of a hook's `scope`. */
export interface WebhookSystem {
  system: string;
  /** What produces its events. */
  service: string;
  /** The scope key of its hooks, e.g. `folder` (recursive) for data management. */
  scopeKey: string;
  events: readonly string[];
  /** Not a system of the platform: only diazo's sandbox has it (`webhook events` lists it when named). */
  sandboxOnly?: true;
}

const COST_ENTITIES = [
  "budget",
  "budgetPayment",
  "contract",
  "cor",
  "costPayment",
  "expense",
  "expenseItem",
  "mainContract",
  "mainContractItem",
  "oco",
  "pco",
  "rfq",
  "scheduleOfValue",
  "sco",
];

/**
 * How long the platform waits for a callback's 2xx before the delivery fails: 7 s (the Webhooks
 * "Event Delivery Guarantees" page, which calls itself the authoritative source).
 */
export const PLATFORM_DELIVERY_WINDOW_MS = 7000;

/**
 * The budget `webhook test` holds a receiver to: answer within 5 s, the advice to receivers that
 * leaves a margin under the platform's 7 s window.
 */
export const RECEIVER_ADVICE_MS = 5000;

/** Every system with its events, in the order `webhook events` lists them. */
export const WEBHOOK_SYSTEMS: readonly WebhookSystem[] = [
  {
    system: "data",
    service: "Data Management",
    scopeKey: "folder",
    events: [
      ...["added", "modified", "deleted", "moved", "moved.out", "copied", "copied.out"].map((e) =>
        `dm.version.${e}`
      ),
      "dm.lineage.reserved",
      "dm.lineage.unreserved",
      "dm.lineage.updated",
      ...["added", "modified", "deleted", "purged", "moved", "moved.out", "copied", "copied.out"].map((e) =>
        `dm.folder.${e}`
      ),
      "dm.operation.started",
      "dm.operation.completed",
    ],
  },
  {
    system: "derivative",
    service: "Model Derivative",
    scopeKey: "workflow",
    events: ["extraction.finished", "extraction.updated"],
  },
  {
    system: "adsk.c4r",
    service: "Revit Cloud Worksharing",
    scopeKey: "folder",
    events: ["model.sync", "model.publish"],
  },
  {
    system: "adsk.flc.production",
    service: "Fusion Manage",
    scopeKey: "workspace",
    events: [
      "item.clone",
      "item.create",
      "item.lock",
      "item.release",
      "item.unlock",
      "item.update",
      "workflow.transition",
    ],
  },
  {
    system: "autodesk.construction.cost",
    service: "ACC Cost Management",
    scopeKey: "project",
    events: [
      ...COST_ENTITIES.flatMap((e) => ["created", "updated", "deleted"].map((v) => `${e}.${v}-1.0`)),
      "project.initialized-1.0",
    ],
  },
  {
    system: "autodesk.construction.bc",
    service: "BuildingConnected",
    scopeKey: "companyId",
    events: [
      "bid.created",
      "opportunity.created",
      "opportunity.status.updated",
      "opportunity.comment.created",
      "opportunity.comment.updated",
      "opportunity.comment.deleted",
    ],
  },
  {
    system: "autodesk.construction.issues",
    service: "ACC Issues",
    scopeKey: "project",
    events: ["created", "updated", "deleted", "restored", "unlinked"].map((v) => `issue.${v}-1.0`),
  },
  {
    system: "adsk.tandem",
    service: "Tandem",
    scopeKey: "twin",
    events: ["dt.alert", "dt.mutation", "dt.applyTemplate", "dt.removeTemplate"],
  },
  // Not a system of the platform (Design Automation calls `onComplete` URLs instead): the sandbox's
  // own, so that a hook can watch work items end (scope: the qualified activity id).
  {
    system: "autodesk.da",
    service: "Design Automation (sandbox only)",
    scopeKey: "activity",
    events: ["workitem.completed"],
    sandboxOnly: true,
  },
];

/** One row of the catalog: a system, one of its events and the scope key of its hooks. */
export interface WebhookEventRow {
  system: string;
  event: string;
  scope: string;
  service: string;
}

/** The catalog as rows: the platform's systems, or one system only (a sandbox-only one when named). */
export function webhookEventRows(system?: string): WebhookEventRow[] {
  const shown = (s: WebhookSystem) => system === undefined ? !s.sandboxOnly : s.system === system;
  return WEBHOOK_SYSTEMS.filter(shown).flatMap((s) =>
    s.events.map((event) => ({ system: s.system, event, scope: s.scopeKey, service: s.service }))
  );
}

/** The system of `name`, or undefined. */
export function webhookSystem(name: string): WebhookSystem | undefined {
  return WEBHOOK_SYSTEMS.find((s) => s.system === name);
}

/** True when `pattern` names `event`: equal, or a `*` wildcard pattern (e.g. `dm.version.*`). */
export function eventMatches(pattern: string, event: string): boolean {
  if (!pattern.includes("*")) return pattern === event;
  const re = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${re}$`).test(event);
}

/** The system that has `event` (the first that matches a wildcard), or undefined. */
export function systemOfEvent(event: string): WebhookSystem | undefined {
  return WEBHOOK_SYSTEMS.find((s) => s.events.some((e) => eventMatches(event, e)));
}

const EVENTS_HELP = "List the systems and event kinds with {step}.";
const EVENTS_STEP = { command: "diazo webhook events", tool: "webhook_events" };

/** A system name from user input: one of the catalog's, else a usage error with a suggestion. */
export function checkWebhookSystem(name: string): WebhookSystem {
  const found = webhookSystem(name);
  if (found) return found;
  const close = suggest(name, WEBHOOK_SYSTEMS.map((s) => s.system));
  throw fieldError({
    field: "system",
    problem: `unknown webhook system '${name}'${close ? ` (did you mean '${close}'?)` : ""}`,
    help: EVENTS_HELP,
    next: EVENTS_STEP,
  });
}

/**
 * The system and event of user input: the event must be one of the system's (a `*` wildcard must
 * match one); without `system` the system is the one that has the event.
 */
export function checkWebhookEvent(event: string, system?: string): { system: WebhookSystem; event: string } {
  const sys = system !== undefined ? checkWebhookSystem(system) : systemOfEvent(event);
  if (sys && sys.events.some((e) => eventMatches(event, e))) return { system: sys, event };
  const candidates = sys ? sys.events : WEBHOOK_SYSTEMS.flatMap((s) => s.events);
  const close = suggest(event, candidates);
  const where = sys ? ` of system '${sys.system}'` : "";
  throw fieldError({
    field: "event",
    problem: `unknown webhook event '${event}'${where}${close ? ` (did you mean '${close}'?)` : ""}`,
    help: EVENTS_HELP,
    next: EVENTS_STEP,
  });
}

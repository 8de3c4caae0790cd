/**
 * The command families, each loaded only when its name is the command word, and the groups that
 * `diazo --help` shows them in (as gh does: core, data, automation, extend, local).
 */
import type { CommandDecl } from "../command/decl.ts";

/** The help groups, in help order, with their headings. */
export const HELP_GROUPS = {
  core: "Core commands:",
  data: "Data commands:",
  automation: "Automation commands:",
  extend: "Extension commands:",
  local: "Local commands:",
} as const;

/** One of HELP_GROUPS. */
export type HelpGroup = keyof typeof HELP_GROUPS;

/** One family of commands. */
export interface Family {
  name: string;
  summary: string;
  group: HelpGroup;
  aliases?: string[];
  /** Loads the family's declaration (command/decl.ts). */
  load(): Promise<CommandDecl>;
}

/** Every family, in help order (grouped). */
export const FAMILIES: readonly Family[] = [
  {
    name: "auth",
    group: "core",
    summary: "log in, test and inspect credentials and tokens",
    load: () => import("../families/auth/commands.ts").then((m) => m.AUTH),
  },
  {
    name: "bucket",
    group: "core",
    summary: "create, list, inspect and delete storage buckets",
    load: () => import("../families/bucket/commands.ts").then((m) => m.BUCKET),
  },
  {
    name: "oss",
    group: "core",
    summary: "object storage: `oss list` is an alias of `bucket list`",
    load: () => import("../families/bucket/commands.ts").then((m) => m.OSS),
  },
  {
    name: "object",
    aliases: ["objects"],
    group: "core",
    summary: "upload, download, list and share objects in buckets",
    load: () => import("../families/object/commands.ts").then((m) => m.OBJECT),
  },
  {
    name: "translate",
    group: "core",
    summary: "translate models and inspect manifests, metadata and properties",
    load: () => import("../families/translate/commands.ts").then((m) => m.TRANSLATE),
  },
  {
    name: "view",
    group: "core",
    summary: "open a translated model in the platform's viewer",
    load: () => import("../families/view/commands.ts").then((m) => m.VIEW),
  },
  {
    name: "api",
    group: "core",
    summary: "send an authenticated request to any platform path (like `gh api`)",
    load: () => import("../families/api/commands.ts").then((m) => m.API),
  },
  {
    name: "hub",
    group: "data",
    summary: "list the hubs (accounts) your login can see",
    load: () => import("../families/dm/commands.ts").then((m) => m.HUB),
  },
  {
    name: "project",
    group: "data",
    summary: "list and inspect projects of a hub",
    load: () => import("../families/dm/commands.ts").then((m) => m.PROJECT),
  },
  {
    name: "folder",
    group: "data",
    summary: "list, create and rename folders",
    load: () => import("../families/dm/commands.ts").then((m) => m.FOLDER),
  },
  {
    name: "item",
    group: "data",
    summary: "upload, download, bind, rename and inspect items (files)",
    load: () => import("../families/dm/write_commands.ts").then((m) => m.ITEM),
  },
  {
    name: "dm",
    group: "data",
    summary: "data management shortcuts: projects, upload, download, update-item, create-folder",
    load: () => import("../families/dm/write_commands.ts").then((m) => m.DM),
  },
  {
    name: "admin",
    group: "data",
    summary: "account administration: projects and users of an account",
    load: () => import("../families/admin/commands.ts").then((m) => m.ADMIN),
  },
  {
    name: "acc",
    group: "data",
    summary: "construction cloud: assets, submittals, checklists; accounts and projects",
    load: () => import("../families/acc/commands.ts").then((m) => m.ACC),
  },
  {
    name: "issue",
    group: "data",
    summary: "construction-cloud issues: list, create, update, transition, comment, attach",
    load: () => import("../families/issue/commands.ts").then((m) => m.ISSUE),
  },
  {
    name: "rfi",
    group: "data",
    summary: "requests for information (RFIs) of a construction-cloud project",
    load: () => import("../families/rfi/commands.ts").then((m) => m.RFI),
  },
  {
    name: "da",
    group: "automation",
    summary: "Design Automation: engines, app bundles, activities, work items",
    load: () => import("../families/da/commands.ts").then((m) => m.DA),
  },
  {
    name: "webhook",
    group: "automation",
    summary: "webhooks: hooks that POST platform events to your URL; test and verify callbacks",
    load: () => import("../families/webhook/commands.ts").then((m) => m.WEBHOOK),
  },
  {
    name: "reality-capture",
    group: "automation",
    summary: "photo to 3D: photoscenes, photo upload, processing and results",
    load: () => import("../families/reality/commands.ts").then((m) => m.REALITY),
  },
  {
    name: "pipeline",
    aliases: ["pipelines"],
    group: "automation",
    summary: "run and validate pipeline files of diazo steps",
    load: () => import("../families/pipeline/commands.ts").then((m) => m.PIPELINE),
  },
  {
    name: "serve",
    group: "automation",
    summary: "serve diazo's tools to AI assistants (Model Context Protocol)",
    load: () => import("../families/serve/commands.ts").then((m) => m.SERVE),
  },
  {
    name: "plugin",
    group: "extend",
    summary: "list, enable, disable and create plugins; manage aliases",
    load: () => import("../families/plugin/commands.ts").then((m) => m.PLUGIN),
  },
  {
    name: "alias",
    group: "extend",
    summary: "list command aliases",
    load: () => import("../families/alias/commands.ts").then((m) => m.ALIAS),
  },
  {
    name: "config",
    group: "local",
    summary: "profiles and settings",
    load: () => import("../families/config/commands.ts").then((m) => m.CONFIG),
  },
  {
    name: "logs",
    group: "local",
    summary: "local logs (scope usage)",
    load: () => import("../families/logs/commands.ts").then((m) => m.LOGS),
  },
  {
    name: "sandbox",
    group: "local",
    summary: "run the offline platform emulator",
    load: () => import("../families/sandbox/commands.ts").then((m) => m.SANDBOX),
  },
  {
    name: "demo",
    group: "local",
    summary: "run the main flow against the sandbox (no account needed)",
    load: () => import("../families/demo/commands.ts").then((m) => m.DEMO),
  },
  {
    name: "generate",
    group: "local",
    summary: "write synthetic engineering files (obj, stl, dxf, ifc) for demos and tests",
    load: () => import("../families/generate/commands.ts").then((m) => m.GENERATE),
  },
  {
    name: "completions",
    group: "local",
    summary: "print a shell completion script (bash, zsh, fish, powershell)",
    load: () => import("./completions.ts").then((m) => m.COMPLETIONS),
  },
  {
    name: "version",
    group: "local",
    summary: "print diazo's version, build and directories (--json for bug reports)",
    load: () => import("../families/version/commands.ts").then((m) => m.VERSION),
  },
];

/** The command families, each loaded only when its name is the command word. */
import type { FamilyModule } from "./command.ts";

/** One family of commands. */
export interface Family {
  name: string;
  summary: string;
  aliases?: string[];
  load(): Promise<FamilyModule>;
}

/** Every family, in help order. */
export const FAMILIES: readonly Family[] = [
  {
    name: "auth",
    summary: "log in, test and inspect credentials and tokens",
    load: () => import("./auth.ts"),
  },
  {
    name: "bucket",
    summary: "create, list, inspect and delete storage buckets",
    load: () => import("./bucket.ts"),
  },
  {
    name: "oss",
    summary: "object storage: `oss list` is an alias of `bucket list`",
    load: () => import("./oss.ts"),
  },
  {
    name: "object",
    summary: "upload, download, list and share objects in buckets",
    load: () => import("./object.ts"),
  },
  {
    name: "translate",
    summary: "translate models and inspect manifests, metadata and properties",
    load: () => import("./translate.ts"),
  },
  {
    name: "view",
    summary: "open a translated model in the platform's viewer",
    load: () => import("./view.ts"),
  },
  {
    name: "generate",
    summary: "write synthetic engineering files (obj, stl, dxf, ifc) for demos and tests",
    load: () => import("./generate.ts"),
  },
  {
    name: "hub",
    summary: "list the hubs (accounts) your login can see",
    load: () => import("./dm.ts").then((m) => ({ register: m.registerHub })),
  },
  {
    name: "project",
    summary: "list and inspect projects of a hub",
    load: () => import("./dm.ts").then((m) => ({ register: m.registerProject })),
  },
  {
    name: "folder",
    summary: "list folders and their contents",
    load: () => import("./dm.ts").then((m) => ({ register: m.registerFolder })),
  },
  {
    name: "item",
    summary: "inspect items (files) and their versions",
    load: () => import("./dm.ts").then((m) => ({ register: m.registerItem })),
  },
  {
    name: "da",
    summary: "Design Automation: engines, app bundles, activities, work items",
    load: () => import("./da.ts"),
  },
  {
    name: "admin",
    summary: "account administration: projects and users of an account",
    load: () => import("./admin.ts"),
  },
  {
    name: "pipeline",
    summary: "run and validate pipeline files of diazo steps",
    load: () => import("./pipeline.ts"),
  },
  {
    name: "plugin",
    summary: "list, enable, disable and create plugins; manage aliases",
    load: () => import("./plugin.ts"),
  },
  { name: "alias", summary: "list command aliases", load: () => import("./alias.ts") },
  {
    name: "serve",
    summary: "serve diazo's tools to AI assistants (Model Context Protocol)",
    load: () => import("./serve.ts"),
  },
  { name: "config", summary: "profiles and settings", load: () => import("./config.ts") },
  { name: "logs", summary: "local logs (scope usage)", load: () => import("./auth_report.ts") },
  { name: "sandbox", summary: "run the offline platform emulator", load: () => import("./sandbox.ts") },
  {
    name: "demo",
    summary: "run the main flow against the sandbox (no account needed)",
    load: () => import("./demo.ts"),
  },
  {
    name: "completions",
    summary: "print a shell completion script (bash, zsh, fish, powershell)",
    load: () => import("./completions.ts"),
  },
  {
    name: "version",
    summary: "print version details (--json for bug reports)",
    load: () => import("./version.ts"),
  },
];

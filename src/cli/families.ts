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
  { name: "config", summary: "profiles and settings", load: () => import("./config.ts") },
  { name: "logs", summary: "local logs (scope usage)", load: () => import("./auth_report.ts") },
  { name: "sandbox", summary: "run the offline platform emulator", load: () => import("./sandbox.ts") },
  {
    name: "demo",
    summary: "run the main flow against the sandbox (no account needed)",
    load: () => import("./demo.ts"),
  },
];

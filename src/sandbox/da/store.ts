/**
 * What the Design Automation emulator knows: the seeded engines and public
 * activities every app sees; per app its nickname, app bundles and activities (each with immutable
 * numbered versions and named aliases); and the work items of every app. A reset empties the
 * per-app part and the work items.
 */

import type { ServiceStore } from "../store.ts";

/** An engine as `GET /engines/{id}` answers it. */
export interface DaEngine {
  id: string;
  productVersion: string;
  description: string;
  version: number;
  package: string;
}

/** The package uploaded for one app bundle version, kept on disk. */
export interface DaPackage {
  path: string;
  size: number;
  sha1: string;
}

/** One immutable version of an app bundle. */
export interface DaBundleVersion {
  engine: string;
  description: string;
  settings?: Record<string, unknown>;
  /** Set once the package has been uploaded through the form. */
  package?: DaPackage;
}

/** One parameter of an activity. */
export interface DaParameter {
  verb: string;
  localName?: string;
  zip?: boolean;
  ondemand?: boolean;
  required?: boolean;
  description?: string;
}

/** One immutable version of an activity. */
export interface DaActivityVersion {
  engine: string;
  commandLine: string[];
  parameters: Record<string, DaParameter>;
  appbundles: string[];
  settings: Record<string, unknown>;
  description: string;
}

/** An app bundle or activity: numbered versions (the highest is `$LATEST`) and named aliases. */
export interface DaVersioned<V> {
  /** The unqualified name, e.g. `MyApp`. */
  name: string;
  versions: Map<number, V>;
  /** The highest version number ever given (deleted versions are not reused). */
  latest: number;
  aliases: Map<string, number>;
}

/** An app bundle of an app. */
export type DaAppBundle = DaVersioned<DaBundleVersion>;
/** An activity of an app. */
export type DaActivity = DaVersioned<DaActivityVersion>;

/** One app's Design Automation data. */
export interface DaApp {
  nickname?: string;
  appBundles: Map<string, DaAppBundle>;
  activities: Map<string, DaActivity>;
}

/** Terminal statuses of a work item (DA-NET `Status.gen.cs`). */
export type DaFinalStatus =
  | "cancelled"
  | "failedDownload"
  | "failedInstructions"
  | "failedUpload"
  | "success";

/** A work item: its request, its clock, and once the engine has run, how it ended. */
export interface DaWorkItem {
  id: string;
  /** The app that created it. */
  clientId: string;
  owner: string;
  activityId: string;
  arguments: Record<string, Record<string, unknown>>;
  /** Sandbox clock, ms. */
  createdMs: number;
  durationMs: number;
  /** Filled in by the engine as it goes. */
  stats: Record<string, string | number>;
  report: string[];
  /** How it ended (set when the engine is done, or on cancel). */
  outcome?: DaFinalStatus;
  /** The secret part of the report URL. */
  reportToken: string;
  /** `workitem.completed` was published. */
  announced: boolean;
}

/** Per-app data by client id, and every work item by id. */
export interface DaStore extends ServiceStore {
  apps: Map<string, DaApp>;
  workItems: Map<string, DaWorkItem>;
  /** Upload keys (`apps/<owner>/<name>/<version>`) of app bundle versions awaiting their package. */
  uploads: Map<string, { clientId: string; name: string; version: number }>;
}

/** Products and versions of the seeded engines (16: two pages at the sandbox's page size). */
const ENGINE_VERSIONS: readonly [product: string, versions: readonly string[]][] = [
  ["AutoCAD", ["22", "23", "24", "25"]],
  ["Revit", ["2021", "2022", "2023", "2024", "2025"]],
  ["Inventor", ["2022", "2023", "2024", "2025"]],
  ["3dsMax", ["2024", "2025", "2026"]],
];

/** The products whose health `GET /health/{engine}` reports, as the platform spells them. */
export const DA_HEALTH_ENGINES: readonly string[] = ["AutoCAD", "Revit", "Inventor", "3dsMax", "Test"];

/** The engines every app sees, in list order. */
export const DA_ENGINES: readonly DaEngine[] = ENGINE_VERSIONS.flatMap(([product, versions]) =>
  versions.map((v) => ({
    id: `Autodesk.${product}+${v}`,
    productVersion: v,
    description: `${product} ${v} engine (sandbox)`,
    version: 1,
    package: `https://dasprod-store.s3.amazonaws.com/engines/${product}/${v}/package.zip`,
  }))
);

/** Activities that Autodesk shares with every app. */
export const DA_PUBLIC_ACTIVITIES: readonly string[] = [
  "AutoCAD.PlotToPDF+prod",
  "AutoCAD.PlotToPDF+test",
];

/** Names of app bundles, activities, aliases and nicknames: letters, digits and underscores. */
export const DA_NAME = /^[A-Za-z0-9_]{1,64}$/;

/** Design Automation with no app data yet; the per-app data is not part of the state dump. */
export function createDaStore(): DaStore {
  const apps = new Map<string, DaApp>();
  const workItems = new Map<string, DaWorkItem>();
  const uploads = new Map<string, { clientId: string; name: string; version: number }>();
  return {
    apps,
    workItems,
    uploads,
    kept: ["apps", "workItems", "uploads"],
    reset: () => {
      apps.clear();
      workItems.clear();
      uploads.clear();
    },
    snapshot: () => ({}),
  };
}

/** The data of the app `clientId`, created empty on first use. */
export function daApp(store: DaStore, clientId: string): DaApp {
  let app = store.apps.get(clientId);
  if (!app) {
    app = { appBundles: new Map(), activities: new Map() };
    store.apps.set(clientId, app);
  }
  return app;
}

/** The owner part of an app's qualified ids: its nickname, else its client id. */
export function daOwner(app: DaApp, clientId: string): string {
  return app.nickname ?? clientId;
}

/** Qualified ids of versioned things, one per alias (`$LATEST` first), sorted by name. */
export function versionedIds(items: Map<string, DaVersioned<unknown>>, owner: string): string[] {
  return [...items.values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((b) => [
      `${owner}.${b.name}+$LATEST`,
      ...[...b.aliases.keys()].sort().map((alias) => `${owner}.${b.name}+${alias}`),
    ]);
}

/** The app (by client id) whose owner name is `owner`, if any. */
export function appOfOwner(store: DaStore, owner: string): { clientId: string; app: DaApp } | undefined {
  for (const [clientId, app] of store.apps) {
    if (daOwner(app, clientId) === owner) return { clientId, app };
  }
  return undefined;
}

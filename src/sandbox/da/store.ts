/**
 * What the Design Automation emulator knows (aps-api.md §7): the seeded engines and public
 * activities every app sees, and per app its nickname and app bundles. A reset empties the
 * per-app part.
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

/** An app bundle of an app: version 1 on creation, `$LATEST` implied, further aliases by name. */
export interface DaAppBundle {
  /** The unqualified name, e.g. `MyApp`. */
  name: string;
  engine: string;
  description: string;
  version: number;
  aliases: Map<string, number>;
}

/** One app's Design Automation data. */
export interface DaApp {
  nickname?: string;
  appBundles: Map<string, DaAppBundle>;
}

/** Per-app data by client id. */
export interface DaStore extends ServiceStore {
  apps: Map<string, DaApp>;
}

/** Products and versions of the seeded engines (16: two pages at the sandbox's page size). */
const ENGINE_VERSIONS: readonly [product: string, versions: readonly string[]][] = [
  ["AutoCAD", ["22", "23", "24", "25"]],
  ["Revit", ["2021", "2022", "2023", "2024", "2025"]],
  ["Inventor", ["2022", "2023", "2024", "2025"]],
  ["3dsMax", ["2024", "2025", "2026"]],
];

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

/** Where app bundle packages are uploaded (not emulated: the sandbox keeps no package bytes). */
export const DA_UPLOAD_ENDPOINT = "https://dasprod-store.s3.amazonaws.com";

/** Names of app bundles, activities and nicknames: letters, digits and underscores. */
export const DA_NAME = /^[A-Za-z0-9_]{1,64}$/;

/** Design Automation with no app data yet; the per-app data is not part of the state dump. */
export function createDaStore(): DaStore {
  const apps = new Map<string, DaApp>();
  return { apps, reset: () => apps.clear(), snapshot: () => ({}) };
}

/** The data of the app `clientId`, created empty on first use. */
export function daApp(store: DaStore, clientId: string): DaApp {
  let app = store.apps.get(clientId);
  if (!app) {
    app = { appBundles: new Map() };
    store.apps.set(clientId, app);
  }
  return app;
}

/** The owner part of an app's qualified ids: its nickname, else its client id. */
export function daOwner(app: DaApp, clientId: string): string {
  return app.nickname ?? clientId;
}

/** Qualified ids of an app's bundles, one per alias (`$LATEST` first), sorted by name. */
export function appBundleIds(app: DaApp, owner: string): string[] {
  return [...app.appBundles.values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((b) => [
      `${owner}.${b.name}+$LATEST`,
      ...[...b.aliases.keys()].sort().map((alias) => `${owner}.${b.name}+${alias}`),
    ]);
}

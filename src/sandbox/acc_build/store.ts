/**
 * What the construction-cloud build emulator knows, per project: RFIs, assets (with categories
 * and status sets), submittal items (with types, specs and packages) and checklists (instances
 * and templates). Records are kept in the platform's shapes, so that handlers answer them as they
 * are. The ACC hub's two projects are seeded (seed.ts); any other project of the admin store
 * starts empty the first time a request names it. A reset returns to the seed.
 */
import type { ServiceStore } from "../store.ts";
import type { ProjectBuild } from "./model.ts";
import { seedProjects } from "./seed.ts";

export type { AssetCategory, ChecklistTemplate, ProjectBuild, Rec } from "./model.ts";

/** Every project's build data. */
export interface AccBuildStore extends ServiceStore {
  projects: Map<string, ProjectBuild>;
}

/** Empty build data (a project nothing was seeded in). */
export function emptyBuild(): ProjectBuild {
  return {
    rfis: [],
    assets: [],
    categories: [],
    assetStatuses: new Map(),
    submittals: [],
    itemTypes: [],
    specs: [],
    packages: [],
    checklists: [],
    templates: [],
    counters: { rfi: 1, submittal: 1, checklist: 1, assetVersion: 1 },
  };
}

/** The build data of a sandbox: the seed until requests change it or a reset. */
export function createAccBuildStore(): AccBuildStore {
  const projects = new Map<string, ProjectBuild>();
  const seed = () => {
    projects.clear();
    for (const [id, build] of seedProjects()) projects.set(id, build);
  };
  seed();
  return {
    projects,
    kept: ["projects"],
    reset: seed,
    // Like the admin store's: seeded records are many and derived; the dump shows none of them.
    snapshot: () => ({}),
  };
}

/** The build data of a project (created empty on first use). */
export function projectBuild(store: AccBuildStore, projectId: string): ProjectBuild {
  let build = store.projects.get(projectId);
  if (!build) store.projects.set(projectId, build = emptyBuild());
  return build;
}

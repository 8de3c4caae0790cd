/** The shapes the build emulator keeps per project (store.ts holds them, seed.ts fills them). */

/** A record as the platform answers it. */
export type Rec = Record<string, unknown> & { id: string };

/** An asset category, with the status set its assets take their status from. */
export interface AssetCategory {
  id: string;
  name: string;
  parentId: string | null;
  statusIds: string[];
}

/** A checklist template: its sections and their items. */
export interface ChecklistTemplate {
  id: string;
  title: string;
  templateTypeId: string;
  sections: { id: string; title: string; items: { id: string; title: string }[] }[];
  createdAt: string;
}

/** The build data of one project. */
export interface ProjectBuild {
  rfis: Rec[];
  assets: Rec[];
  categories: AssetCategory[];
  /** Asset statuses by id (`label`, `color`, ...). */
  assetStatuses: Map<string, Rec>;
  submittals: Rec[];
  itemTypes: Rec[];
  specs: Rec[];
  packages: Rec[];
  checklists: Rec[];
  templates: ChecklistTemplate[];
  /** Next RFI custom identifier, submittal identifier, checklist id. */
  counters: { rfi: number; submittal: number; checklist: number; assetVersion: number };
}

/**
 * The seed of the build emulator: the ACC hub's two projects (the admin store's seeded account)
 * with RFIs in every status and assigned to project members, assets in categories with status
 * sets, submittal items with types, specs and packages in every state, and (on the BIM 360 project
 * only) checklists made from four templates. The first project holds more than one page of each list; ids are the same in
 * every sandbox.
 */
import { RFI_STATUSES, SUBMITTAL_STATES, SUBMITTAL_STATUS_OF_STATE } from "../../aps/acc_build.ts";
import { seedAccount, seedGuid } from "../admin/store.ts";
import type { AssetCategory, ChecklistTemplate, ProjectBuild, Rec } from "./model.ts";

const BASE_MS = Date.UTC(2026, 0, 5, 8, 0, 0);
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);

const TOPICS = [
  "Duct clash at grid",
  "Slab edge detail at",
  "Door hardware at",
  "Fire damper access near",
  "Rebar congestion at column",
  "Curtain wall anchor at",
  "Sprinkler head spacing at",
  "Stair nosing finish at",
];
const ASSET_KINDS: readonly [string, string][] = [
  ["AHU", "Air Handling Units"],
  ["PNL", "Electrical Panels"],
  ["PMP", "Pumps"],
];
const STATUS_LABELS: readonly [string, string][] = [
  ["Specified", "adsk-gray-500"],
  ["Ordered", "adsk-blue-500"],
  ["Delivered", "adsk-yellow-500"],
  ["Installed", "adsk-orange-500"],
  ["Commissioned", "adsk-green-500"],
];
const TEMPLATES: readonly [string, string][] = [
  ["Pre-pour inspection", "1"],
  ["Punch walk", "6"],
  ["Daily safety walk", "11"],
  ["Pump commissioning", "15"],
];
const CHECKLIST_STATUS = ["not_started", "in_progress", "completed"];

/** The seed: build data of the ACC hub's two projects, by project id. */
export function seedProjects(): Map<string, ProjectBuild> {
  const account = seedAccount();
  const projects = [...account.projects.values()].slice(0, 2);
  const out = new Map<string, ProjectBuild>();
  projects.forEach((p, i) => {
    const uids = (account.members.get(p.id) ?? [])
      .map((m) => account.users.find((u) => u.id === m.userId)!.uid);
    // Checklists are a BIM 360 service (sandbox/acc_build/checklists.ts): only BIM 360 projects have them.
    out.set(p.id, seedProject(p.id, uids, i === 0 ? 60 : 6, p.platform === "bim360" ? 60 : 0));
  });
  return out;
}

function seedProject(projectId: string, uids: string[], n: number, checklists: number): ProjectBuild {
  const g = (label: string) => seedGuid(`build/${projectId}/${label}`);
  const categories = assetCategories(g);
  const assetStatuses = new Map<string, Rec>(
    STATUS_LABELS.map(([label, color], i) => [g(`status/${label}`), {
      id: g(`status/${label}`),
      label,
      color,
      sortOrder: i,
      statusStepSetId: g("status-set"),
      projectId,
    }]),
  );
  const templates = checklistTemplates(g);
  const build: ProjectBuild = {
    rfis: [],
    assets: [],
    categories,
    assetStatuses,
    submittals: [],
    itemTypes: ["Shop Drawings", "Product Data", "Samples"].map((value, i) => ({
      id: g(`type/${value}`),
      value,
      platformId: String(i + 1),
      isActive: true,
    })),
    specs: [["03 30 00", "Cast-in-Place Concrete"], ["08 44 13", "Glazed Curtain Walls"], [
      "23 73 13",
      "Air Handlers",
    ]]
      .map(([identifier, title]) => ({
        id: g(`spec/${identifier}`),
        identifier,
        title,
        createdAt: iso(BASE_MS),
      })),
    packages: [],
    checklists: [],
    templates,
    counters: { rfi: n + 1, submittal: n + 1, checklist: checklists + 1, assetVersion: n + 1 },
  };
  build.packages = build.specs.slice(0, 2).map((s, i) => ({
    id: g(`package/${i}`),
    identifier: i + 1,
    title: `${s.title} package`,
    specId: s.id,
    specIdentifier: s.identifier,
    description: null,
  }));
  for (let i = 0; i < n; i++) {
    const at = BASE_MS + i * DAY;
    const who = uids[i % uids.length];
    const creator = uids[0];
    build.rfis.push(seedRfi(projectId, g(`rfi/${i}`), i, at, who, creator));
    build.assets.push(seedAsset(build, g(`asset/${i}`), i, at, creator));
    build.submittals.push(seedSubmittal(build, g(`item/${i}`), i, at, who, creator));
  }
  for (let i = 0; i < checklists; i++) {
    const who = uids[i % uids.length];
    build.checklists.push(seedChecklist(templates[i % templates.length], i, BASE_MS + i * DAY, who, uids[0]));
  }
  return build;
}

function assetCategories(g: (label: string) => string): AssetCategory[] {
  const statusIds = STATUS_LABELS.map(([label]) => g(`status/${label}`));
  return [
    { id: "1", name: "Project", parentId: null, statusIds },
    ...ASSET_KINDS.map(([, name], i) => ({ id: String(i + 2), name, parentId: "1", statusIds })),
  ];
}

function checklistTemplates(g: (label: string) => string): ChecklistTemplate[] {
  return TEMPLATES.map(([title, templateTypeId]) => ({
    id: g(`template/${title}`),
    title,
    templateTypeId,
    createdAt: iso(BASE_MS - 30 * DAY),
    sections: ["Preparation", "Inspection"].map((s) => ({
      id: g(`template/${title}/${s}`),
      title: s,
      items: [1, 2, 3].map((k) => ({ id: g(`template/${title}/${s}/${k}`), title: `${s} check ${k}` })),
    })),
  }));
}

function seedRfi(projectId: string, id: string, i: number, at: number, who: string, creator: string): Rec {
  const status = RFI_STATUSES[i % RFI_STATUSES.length];
  return {
    id,
    customIdentifier: String(i + 1).padStart(3, "0"),
    title: `${TOPICS[i % TOPICS.length]} ${String.fromCharCode(65 + (i % 8))}${1 + (i % 9)}`,
    question: `Please confirm the intended detail (${i + 1}).`,
    status,
    workflowType: "US",
    assignedTo: status === "draft" ? [] : [{ id: who, type: "user" }],
    managerId: creator,
    dueDate: day(at + 14 * DAY),
    priority: ["High", "Normal", "Low"][i % 3],
    locationDescription: `Level ${1 + (i % 5)}`,
    officialResponse: status === "answered" || status === "closed" ? "Proceed as detailed." : null,
    officialResponseStatus: status === "answered" || status === "closed" ? "answered" : "unanswered",
    commentsCount: i % 3,
    discipline: [["Architectural", "Mechanical", "Structural"][i % 3]],
    category: ["Constructability"],
    costImpact: null,
    scheduleImpact: null,
    reference: null,
    createdBy: creator,
    createdAt: iso(at),
    updatedBy: creator,
    updatedAt: iso(at + DAY),
    projectId,
    containerId: projectId,
  };
}

function seedAsset(build: ProjectBuild, id: string, i: number, at: number, creator: string): Rec {
  const [prefix] = ASSET_KINDS[i % ASSET_KINDS.length];
  const statusId = [...build.assetStatuses.keys()][i % STATUS_LABELS.length];
  return {
    id,
    clientAssetId: `${prefix}-${String(i + 1).padStart(2, "0")}`,
    categoryId: String((i % ASSET_KINDS.length) + 2),
    statusId,
    description: `Level ${1 + (i % 5)} plant room`,
    barcode: `B${100000 + i}`,
    locationId: null,
    customAttributes: {},
    isActive: true,
    version: i + 1,
    companyId: null,
    createdAt: iso(at),
    createdBy: creator,
    updatedAt: iso(at),
    updatedBy: creator,
    deletedAt: null,
    deletedBy: null,
  };
}

function seedSubmittal(
  build: ProjectBuild,
  id: string,
  i: number,
  at: number,
  who: string,
  creator: string,
): Rec {
  const stateId = SUBMITTAL_STATES[i % (SUBMITTAL_STATES.length - 1)];
  const spec = build.specs[i % build.specs.length];
  const pkg = build.packages.find((p) => p.specId === spec.id);
  return {
    id,
    identifier: i + 1,
    customIdentifier: `${spec.identifier}-${i + 1}`,
    title: `${spec.title} submittal ${i + 1}`,
    description: null,
    typeId: build.itemTypes[i % build.itemTypes.length].id,
    specId: spec.id,
    specIdentifier: spec.identifier,
    specTitle: spec.title,
    priority: ["Normal", "High", "Low"][i % 3],
    revision: 0,
    stateId,
    statusId: SUBMITTAL_STATUS_OF_STATE[stateId],
    ballInCourtUsers: stateId === "sbc-2" ? [] : [who],
    ballInCourtType: stateId === "rev" ? "reviewer" : stateId.startsWith("sbc") ? "subcontractor" : "manager",
    manager: creator,
    managerType: "1",
    subcontractor: who,
    subcontractorType: "1",
    watchers: [],
    dueDate: day(at + 21 * DAY),
    requiredOnJobDate: day(at + 60 * DAY),
    packageId: pkg?.id ?? null,
    packageIdentifier: pkg?.identifier ?? null,
    packageTitle: pkg?.title ?? null,
    createdAt: iso(at),
    createdBy: creator,
    updatedAt: iso(at),
    updatedBy: creator,
  };
}

function seedChecklist(t: ChecklistTemplate, i: number, at: number, who: string, creator: string): Rec {
  return {
    id: String(i + 1),
    title: `${t.title} ${i + 1}`,
    description: null,
    status: CHECKLIST_STATUS[i % CHECKLIST_STATUS.length],
    templateId: t.id,
    templateTypeId: t.templateTypeId,
    assigneeId: who,
    assigneeType: "user",
    dueDate: day(at + 7 * DAY),
    scheduledDate: day(at + 2 * DAY),
    location: `Level ${1 + (i % 5)}`,
    createdBy: creator,
    createdAt: iso(at),
    updatedAt: iso(at),
    sections: t.sections.map((s) => ({
      ...s,
      items: s.items.map((it) => ({ ...it, response: i % 3 === 2 ? "pass" : null })),
    })),
  };
}

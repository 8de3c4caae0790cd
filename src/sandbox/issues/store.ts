/**
 * What the ACC Issues emulator knows (openapi/construction/issues/Issues.yaml): per project, its issue types
 * (categories) with their subtypes, its issues, each issue's comments and attachments.
 *
 * Seed, the same in every sandbox: the ACC hub's two projects (the admin store's seeded account) —
 * Riverside Tower with 130 issues (more than one page of 100) and Harbor Bridge with 24 — over
 * several types and subtypes, every status, assignees among the project's members, due dates, and
 * on the first issue of Riverside Tower 105 comments (more than one page) and two attachments.
 * Everything created through the API lives until the sandbox is reset.
 */

import { ISSUE_STATUSES, type IssueStatus } from "../../aps/issues.ts";
import { type AdminAccount, seedAccount, seedGuid } from "../admin/store.ts";
import type { ServiceStore } from "../store.ts";

/** A subtype ("type" in the UI) of an issue type. */
export interface IssueSubtype {
  id: string;
  issueTypeId: string;
  title: string;
  code: string;
  isActive: boolean;
  orderIndex: number;
}

/** An issue type ("category" in the UI). */
export interface IssueType {
  id: string;
  title: string;
  isActive: boolean;
  orderIndex: number;
  subtypes: IssueSubtype[];
}

/** An issue as the sandbox keeps it: the platform's writable fields plus its bookkeeping. */
export interface StoredIssue {
  id: string;
  displayId: number;
  title: string;
  description: string | null;
  issueTypeId: string;
  issueSubtypeId: string;
  status: IssueStatus;
  assignedTo: string | null;
  assignedToType: string | null;
  dueDate: string | null;
  startDate: string | null;
  locationId: string | null;
  locationDetails: string | null;
  rootCauseId: string | null;
  published: boolean;
  watchers: string[];
  createdBy: string;
  createdMs: number;
  updatedBy: string;
  updatedMs: number;
  openedBy: string | null;
  openedMs: number | null;
  closedBy: string | null;
  closedMs: number | null;
}

/** A comment of an issue. */
export interface StoredComment {
  id: string;
  body: string;
  createdBy: string;
  createdMs: number;
}

/** An attachment of an issue: the five fields the client sends plus what the service adds. */
export interface StoredAttachment {
  attachmentId: string;
  displayName: string;
  fileName: string;
  storageUrn: string;
  fileSize: number;
  createdBy: string;
  createdMs: number;
}

/** The issues data of one project. */
export interface ProjectIssues {
  types: IssueType[];
  /** In creation order. */
  issues: Map<string, StoredIssue>;
  comments: Map<string, StoredComment[]>;
  attachments: Map<string, StoredAttachment[]>;
  nextDisplayId: number;
}

/** Every project's issues, by project id (a bare GUID). */
export interface IssuesStore extends ServiceStore {
  projects: Map<string, ProjectIssues>;
}

/** Most attachments an issue can have (the platform answers 422 beyond). */
export const MAX_ATTACHMENTS = 100;

const SEED_MS = Date.UTC(2024, 2, 1, 8, 0, 0);
const DAY = 86_400_000;

/** Title of each seeded type, with its subtypes' titles and codes; the last type is inactive. */
const TYPES: readonly [string, readonly [string, string][]][] = [
  ["Quality", [["Defect", "DEF"], ["Observation", "OBS"], ["Punch list", "PUN"]]],
  ["Safety", [["Hazard", "HAZ"], ["Near miss", "NMS"]]],
  ["Design", [["Clash", "CLA"], ["Design change", "DCH"], ["Coordination", "COO"]]],
  ["Commissioning", [["Functional test", "FUN"]]],
  ["Warranty", [["Warranty claim", "WAR"]]],
];

const TOPICS = [
  "Cracked slab edge",
  "Missing fire stopping",
  "Handrail height below code",
  "Duct clashes with beam",
  "Door swing conflicts with column",
  "Water ponding on roof",
  "Loose scaffold board",
  "Unlabelled electrical panel",
  "Sprinkler head obstructed",
  "Paint finish uneven",
  "Anchor bolts misaligned",
  "Window seal leaking",
  "Conduit not supported",
];
const LEVELS = ["Level 1", "Level 2", "Level 3", "Roof", "Basement"];

function seedTypes(projectId: string): IssueType[] {
  return TYPES.map(([title, subs], i) => {
    const id = seedGuid(`issues/${projectId}/type/${title}`);
    return {
      id,
      title,
      isActive: i < TYPES.length - 1,
      orderIndex: i,
      subtypes: subs.map(([sub, code], j) => ({
        id: seedGuid(`issues/${projectId}/subtype/${title}/${sub}`),
        issueTypeId: id,
        title: sub,
        code,
        isActive: true,
        orderIndex: j,
      })),
    };
  });
}

/** The Autodesk ids (uids) of a project's members, sandbox user first. */
export function memberUids(account: AdminAccount, projectId: string): string[] {
  const members = account.members.get(projectId) ?? [];
  return members.map((m) => account.users.find((u) => u.id === m.userId)?.uid).filter((u): u is string =>
    !!u
  );
}

function seedIssue(projectId: string, types: IssueType[], uids: string[], i: number): StoredIssue {
  const active = types.filter((t) => t.isActive);
  const type = active[i % active.length];
  const sub = type.subtypes[i % type.subtypes.length];
  const status = ISSUE_STATUSES[i % ISSUE_STATUSES.length];
  const created = SEED_MS + i * DAY / 2;
  const by = uids[i % uids.length];
  const assignee = i % 5 === 4 ? null : uids[(i + 1) % uids.length];
  const closed = status === "closed";
  return {
    id: seedGuid(`issues/${projectId}/issue/${i}`),
    displayId: i + 1,
    title: `${TOPICS[i % TOPICS.length]} (${LEVELS[i % LEVELS.length]})`,
    description: i % 3 === 0 ? null : `Found during the walk-through of ${LEVELS[i % LEVELS.length]}.`,
    issueTypeId: type.id,
    issueSubtypeId: sub.id,
    status,
    assignedTo: assignee,
    assignedToType: assignee ? "user" : null,
    dueDate: i % 4 === 3 ? null : new Date(created + (14 + (i % 30)) * DAY).toISOString().slice(0, 10),
    startDate: null,
    locationId: null,
    locationDetails: LEVELS[i % LEVELS.length],
    rootCauseId: null,
    published: status !== "draft",
    watchers: [],
    createdBy: by,
    createdMs: created,
    updatedBy: by,
    updatedMs: created + DAY,
    openedBy: status === "draft" ? null : by,
    openedMs: status === "draft" ? null : created,
    closedBy: closed ? by : null,
    closedMs: closed ? created + 5 * DAY : null,
  };
}

function seedProject(account: AdminAccount, projectId: string, count: number): ProjectIssues {
  const types = seedTypes(projectId);
  const uids = memberUids(account, projectId);
  const issues = Array.from({ length: count }, (_, i) => seedIssue(projectId, types, uids, i));
  const comments = new Map<string, StoredComment[]>();
  const attachments = new Map<string, StoredAttachment[]>();
  const first = issues[0];
  if (count > 100) {
    comments.set(
      first.id,
      Array.from({ length: 105 }, (_, j) => ({
        id: seedGuid(`issues/${projectId}/comment/${j}`),
        body: j % 2 ? `Checked on site, visit ${j}.` : `Follow-up ${j}: waiting for the subcontractor.`,
        createdBy: uids[j % uids.length],
        createdMs: first.createdMs + (j + 1) * 3_600_000,
      })),
    );
    attachments.set(
      first.id,
      ["photo-north.jpg", "markup.pdf"].map((name, j) => {
        const guid = seedGuid(`issues/${projectId}/attachment/${j}`);
        const fileName = `${guid}.${name.split(".").pop()}`;
        return {
          attachmentId: guid,
          displayName: name,
          fileName,
          storageUrn: `urn:adsk.objects:os.object:wip.dm.prod/${fileName}`,
          fileSize: 48_000 + j * 1000,
          createdBy: uids[0],
          createdMs: first.createdMs + DAY,
        };
      }),
    );
  }
  for (const [i, issue] of issues.entries()) {
    if (i > 0 && i % 7 === 0) {
      comments.set(issue.id, [{
        id: seedGuid(`issues/${projectId}/issue/${i}/comment`),
        body: "Noted; scheduled for next week.",
        createdBy: uids[(i + 2) % uids.length],
        createdMs: issue.createdMs + DAY,
      }]);
    }
  }
  return {
    types,
    issues: new Map(issues.map((x) => [x.id, x])),
    comments,
    attachments,
    nextDisplayId: count + 1,
  };
}

/** Issue counts of the hub's projects, in the account's project order. */
const SEED_COUNTS = [130, 24];

/** The issues data of a sandbox: the seed until a request changes it or a reset. */
export function createIssuesStore(): IssuesStore {
  const projects = new Map<string, ProjectIssues>();
  const seed = () => {
    projects.clear();
    const account = seedAccount();
    const hubProjects = [...account.projects.values()].slice(0, SEED_COUNTS.length);
    hubProjects.forEach((p, i) => projects.set(p.id, seedProject(account, p.id, SEED_COUNTS[i])));
  };
  seed();
  return {
    projects,
    kept: ["projects"],
    reset: seed,
    snapshot: () => ({}),
  };
}

/** A project's issues data, created empty (with the seeded types) on first use. */
export function projectIssues(store: IssuesStore, projectId: string): ProjectIssues {
  let p = store.projects.get(projectId);
  if (!p) {
    p = {
      types: seedTypes(projectId),
      issues: new Map(),
      comments: new Map(),
      attachments: new Map(),
      nextDisplayId: 1,
    };
    store.projects.set(projectId, p);
  }
  return p;
}

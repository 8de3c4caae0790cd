/**
 * What the account administration emulator knows: accounts with their projects,
 * member directory (users, companies, roles) and project memberships.
 *
 * Seed, the same in every sandbox: one account whose id is the GUID of the data management sandbox's ACC hub
 * (`b.<guid>` there), holding that hub's two projects plus a template and an archived project, 12 users in 3
 * companies (the sandbox user is the account admin) and project members — all in the US region — plus one
 * project hosted in EMEA, so that the `Region` header matters; and a BIM 360 account administered through HQ
 * v1 . Projects created through the API live until the sandbox is reset.
 */

import { createHash } from "node:crypto";
import { BIM360_HUB_NAME, dmWorld } from "../dm/world.ts";
import { SANDBOX_USER } from "../auth/users.ts";
import type { ServiceStore } from "../store.ts";

/** The region a request without a `Region` header is routed to. */
export const DEFAULT_ADMIN_REGION = "US";

/** A project of an account, as the sandbox keeps it. */
export interface AdminProject {
  id: string;
  accountId: string;
  /** The data centre hosting the project (a `Region` header value). */
  region: string;
  name: string;
  type: string;
  classification: string;
  platform: "acc" | "bim360";
  /** The stored status; a pending project reads as active once `activeAtMs` has passed. */
  status: "active" | "pending" | "archived" | "suspended";
  /** Sandbox clock, ms: when a pending project has been provisioned. */
  activeAtMs?: number;
  jobNumber: string | null;
  city: string | null;
  country: string | null;
  timezone: string | null;
  startDate: string | null;
  endDate: string | null;
  productKeys: string[];
  templateId: string | null;
  /** Monetary value and its currency (HQ `value`/`currency`, ACC `projectValue`); absent: 0 USD. */
  value?: number;
  currency?: string;
  createdMs: number;
  updatedMs: number;
}

/** A user of an account's member directory (HQ). */
export interface AdminUser {
  id: string;
  /** The Autodesk id (`uid`, `autodeskId`). */
  uid: string;
  /** The data centre hosting the user's directory entry (a `Region` header value). */
  region: string;
  email: string;
  firstName: string;
  lastName: string;
  role: "account_admin" | "account_user";
  status: "active" | "pending" | "inactive";
  companyId: string;
  jobTitle: string;
  createdMs: number;
}

/** A company of an account. */
export interface AdminCompany {
  id: string;
  name: string;
}

/** A role users can hold in projects. */
export interface AdminRole {
  id: string;
  name: string;
}

/** A user's membership of a project. */
export interface AdminMember {
  userId: string;
  projectAdmin: boolean;
  roleIds: string[];
  addedMs: number;
}

/** An account (the hub of data management without `b.`). */
export interface AdminAccount {
  id: string;
  name: string;
  /** Which API generation administers it: ACC Admin (absent: acc) or BIM 360 HQ. */
  platform?: "acc" | "bim360";
  /** In creation order. */
  projects: Map<string, AdminProject>;
  users: AdminUser[];
  companies: AdminCompany[];
  roles: AdminRole[];
  /** Members by project id. */
  members: Map<string, AdminMember[]>;
}

/** Every account of a sandbox, by id. */
export interface AdminStore extends ServiceStore {
  accounts: Map<string, AdminAccount>;
}

/** How long a created project stays `pending` on the sandbox clock. */
export const PROJECT_PROVISION_MS = 3_000;

/** A GUID derived from `label`, so that seeded ids are the same in every sandbox. */
export function seedGuid(label: string): string {
  const h = createHash("sha1").update(`admin/${label}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The account id of the data management sandbox's ACC hub (its `b.` id without the prefix). */
export function seededAccountId(): string {
  const hub = [...dmWorld().hubs.values()].find((h) => !h.personal && h.id.startsWith("b."));
  if (!hub) throw new Error("the data management seed has no ACC hub");
  return hub.id.slice(2);
}

const SEED_MS = Date.UTC(2024, 0, 15, 9, 0, 0);
const DAY = 86_400_000;

const COMPANIES = ["Diazo Construction", "Steelworks Ltd", "Harbor Engineering"];
const ROLES = ["Project Manager", "Architect", "Structural Engineer", "Superintendent"];
/** First name, last name, company index, job title (after the sandbox user). */
const PEOPLE: readonly [string, string, number, string][] = [
  ["Ada", "Moreno", 0, "Project Manager"],
  ["Bruno", "Keller", 0, "Architect"],
  ["Chiara", "Rossi", 0, "Architect"],
  ["Dmitri", "Ivanov", 1, "Structural Engineer"],
  ["Elena", "Novak", 1, "Structural Engineer"],
  ["Farid", "Haddad", 1, "Fabrication Lead"],
  ["Grace", "Okafor", 2, "Superintendent"],
  ["Hiro", "Tanaka", 2, "Civil Engineer"],
  ["Ines", "Duarte", 2, "Surveyor"],
  ["Jonas", "Berg", 0, "BIM Coordinator"],
  ["Kara", "Lindqvist", 1, "Estimator"],
];

/** A seeded project: the defaults of the seed, then `fields`; `i` spaces creation dates a week apart. */
export function seedProject(
  accountId: string,
  i: number,
  fields: Partial<AdminProject> & { id: string; name: string },
): AdminProject {
  const created = SEED_MS + i * 7 * DAY;
  const p: AdminProject = {
    accountId,
    region: DEFAULT_ADMIN_REGION,
    type: "Office",
    classification: "production",
    platform: "acc",
    status: "active",
    jobNumber: `JOB-${1001 + i}`,
    city: "Portland",
    country: "US",
    timezone: "America/Los_Angeles",
    startDate: new Date(created).toISOString().slice(0, 10),
    endDate: null,
    productKeys: ["docs", "build", "modelCoordination"],
    templateId: null,
    createdMs: created,
    updatedMs: created + DAY,
    ...fields,
  };
  return p;
}

/**
 * Builds the seeded account. Over 80 lines because it is data: the projects, users, companies,
 * roles and memberships are laid out together so that their ids can be read against each other.
 */
export function seedAccount(): AdminAccount {
  // long: it is data: the seeded projects, users, companies and roles laid out together so their ids read against each other
  const world = dmWorld();
  const id = seededAccountId();
  const hub = world.hubs.get(`b.${id}`)!;
  const companies = COMPANIES.map((name) => ({ id: seedGuid(`company/${name}`), name }));
  const roles = ROLES.map((name) => ({ id: seedGuid(`role/${name}`), name }));
  const users: AdminUser[] = [
    {
      id: seedGuid("user/sandbox"),
      uid: SANDBOX_USER.userid,
      region: DEFAULT_ADMIN_REGION,
      email: SANDBOX_USER.email,
      firstName: SANDBOX_USER.firstName,
      lastName: SANDBOX_USER.lastName,
      role: "account_admin",
      status: "active",
      companyId: companies[0].id,
      jobTitle: "Account Administrator",
      createdMs: SEED_MS,
    },
    ...PEOPLE.map(([first, last, company, jobTitle], i): AdminUser => ({
      id: seedGuid(`user/${first}`),
      uid: `SANDBOX${first.toUpperCase()}${last.toUpperCase()}`,
      region: DEFAULT_ADMIN_REGION,
      email: `${first}.${last}@diazo.invalid`.toLowerCase(),
      firstName: first,
      lastName: last,
      role: "account_user",
      status: i === PEOPLE.length - 1 ? "pending" : "active",
      companyId: companies[company].id,
      jobTitle,
      createdMs: SEED_MS + (i + 1) * DAY,
    })),
  ];
  const projects = hub.projectIds.map((pid, i) => {
    const dm = world.projects.get(pid)!;
    return seedProject(id, i, {
      id: pid.slice(2),
      name: dm.name,
      platform: dm.projectType === "BIM360" ? "bim360" : "acc",
      type: dm.name.includes("Bridge") ? "Bridge" : "Office",
    });
  });
  const n = projects.length;
  projects.push(
    seedProject(id, n, {
      id: seedGuid("project/template"),
      name: "Standard Project Template",
      classification: "template",
      type: "Office",
      jobNumber: null,
    }),
    seedProject(id, n + 1, {
      id: seedGuid("project/warehouse"),
      name: "Warehouse Retrofit",
      type: "Warehouse (non-manufacturing)",
      status: "archived",
      endDate: new Date(SEED_MS + 60 * DAY).toISOString().slice(0, 10),
    }),
    seedProject(id, n + 2, {
      id: seedGuid("project/canal-quarter"),
      region: "EMEA",
      name: "Canal Quarter Offices",
      city: "Amsterdam",
      country: "NL",
      timezone: "Europe/Amsterdam",
    }),
  );
  const member = (u: number, projectAdmin: boolean, role: number, added: number): AdminMember => ({
    userId: users[u].id,
    projectAdmin,
    roleIds: [roles[role].id],
    addedMs: SEED_MS + added * DAY,
  });
  const members = new Map<string, AdminMember[]>([
    [projects[0].id, [0, 1, 2, 3, 4, 7, 10].map((u, i) => member(u, u <= 1, i % ROLES.length, 2 + i))],
    [projects[1].id, [0, 4, 5, 8].map((u, i) => member(u, u === 0, (i + 2) % ROLES.length, 9 + i))],
    [projects[2].id, [member(0, true, 0, 16)]],
    [projects[3].id, [0, 6, 9].map((u, i) => member(u, u === 0, (i + 1) % ROLES.length, 23 + i))],
    [projects[n + 2].id, [0, 2, 5].map((u, i) => member(u, u === 0, i % ROLES.length, 30 + i))],
  ]);
  return {
    id,
    name: hub.name,
    platform: "acc",
    projects: new Map(projects.map((p) => [p.id, p])),
    users,
    companies,
    roles,
    members,
  };
}

/** The id of the seeded BIM 360 account (administered through HQ v1). */
export function seededBim360AccountId(): string {
  const hub = [...dmWorld().hubs.values()].find((h) => h.name === BIM360_HUB_NAME);
  if (!hub) throw new Error("the data management seed has no BIM 360 hub");
  return hub.id.slice(2);
}

/**
 * The seeded BIM 360 account: two BIM 360 projects, the sandbox user (its admin) and three people
 * in two companies. It has no data management hub; its projects are administered through HQ v1.
 */
export function seedBim360Account(): AdminAccount {
  const id = seededBim360AccountId();
  const companies = ["Legacy Builders", "Old Town Surveys"].map((name) => ({
    id: seedGuid(`b360/company/${name}`),
    name,
  }));
  const roles = ROLES.map((name) => ({ id: seedGuid(`b360/role/${name}`), name }));
  const person = (first: string, last: string, company: number, i: number): AdminUser => ({
    id: seedGuid(`b360/user/${first}`),
    uid: i === 0 ? SANDBOX_USER.userid : `SANDBOX${first.toUpperCase()}${last.toUpperCase()}`,
    region: DEFAULT_ADMIN_REGION,
    email: i === 0 ? SANDBOX_USER.email : `${first}.${last}@legacy.invalid`.toLowerCase(),
    firstName: first,
    lastName: last,
    role: i === 0 ? "account_admin" : "account_user",
    status: "active",
    companyId: companies[company].id,
    jobTitle: i === 0 ? "Account Administrator" : "Engineer",
    createdMs: SEED_MS + i * DAY,
  });
  const users = [
    person(SANDBOX_USER.firstName, SANDBOX_USER.lastName, 0, 0),
    person("Liam", "Walsh", 0, 1),
    person("Maya", "Chen", 1, 2),
    person("Noor", "Aziz", 1, 3),
  ];
  const projects = [
    seedProject(id, 0, {
      id: seedGuid("b360/project/harbor-bridge"),
      name: "Harbor Bridge Retrofit",
      type: "Bridge",
    }),
    seedProject(id, 1, {
      id: seedGuid("b360/project/old-mill"),
      name: "Old Mill Apartments",
      type: "Multi-Family Housing",
    }),
  ].map((p) => ({ ...p, platform: "bim360" as const, productKeys: ["docs", "designCollaboration"] }));
  const member = (u: number, projectAdmin: boolean, added: number): AdminMember => ({
    userId: users[u].id,
    projectAdmin,
    roleIds: [roles[u % roles.length].id],
    addedMs: SEED_MS + added * DAY,
  });
  const members = new Map<string, AdminMember[]>([
    [projects[0].id, [member(0, true, 2), member(1, false, 3), member(2, false, 4)]],
    [projects[1].id, [member(0, true, 9), member(3, false, 10)]],
  ]);
  return {
    id,
    name: BIM360_HUB_NAME,
    platform: "bim360",
    projects: new Map(projects.map((p) => [p.id, p])),
    users,
    companies,
    roles,
    members,
  };
}

/** The account administration data of a sandbox: the seed until a request changes it or a reset. */
export function createAdminStore(): AdminStore {
  const accounts = new Map<string, AdminAccount>();
  const seed = () => {
    accounts.clear();
    for (const account of [seedAccount(), seedBim360Account()]) accounts.set(account.id, account);
  };
  seed();
  return { accounts, kept: ["accounts"], reset: seed, snapshot: () => ({}) };
}

/** A project's status as of `nowMs` on the sandbox clock. */
export function projectStatus(p: AdminProject, nowMs: number): AdminProject["status"] {
  return p.status === "pending" && p.activeAtMs !== undefined && nowMs >= p.activeAtMs ? "active" : p.status;
}

/** The project with this id in any account. */
export function findProject(store: AdminStore, projectId: string): AdminProject | undefined {
  for (const account of store.accounts.values()) {
    const p = account.projects.get(projectId);
    if (p) return p;
  }
  return undefined;
}

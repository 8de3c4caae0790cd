/**
 * The ACC Issues emulator's answers and checks (Issues.yaml): an issue as the platform shows it to
 * its caller (with the statuses and actions that caller may use), comments, attachments, types,
 * the ACC offset page, and the checking of an issue payload. Unset fields answer null, as the
 * service does.
 */

import { ASSIGNEE_TYPES, isIssueStatus, ISSUE_STATUSES, ISSUE_TRANSITIONS } from "../../aps/issues.ts";
import { adminError } from "../errors.ts";
import type {
  IssueSubtype,
  IssueType,
  ProjectIssues,
  StoredAttachment,
  StoredComment,
  StoredIssue,
} from "./store.ts";

/** ISO 8601 of a sandbox-clock time, or null. */
export const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();

/** The attributes a member may set on an issue. */
export const PERMITTED_ATTRIBUTES = [
  "title",
  "description",
  "issueSubtypeId",
  "assignedTo",
  "assignedToType",
  "dueDate",
  "startDate",
  "locationId",
  "locationDetails",
  "rootCauseId",
  "published",
  "watchers",
];

/** The actions a member may take on an issue. */
export const PERMITTED_ACTIONS = ["assign_all", "clear_assignee", "delete", "add_comment", "add_attachment"];

/** Statuses a new issue may start in. */
export const CREATE_STATUSES = ["draft", "open"];

/** An issue as the platform answers it. */
export function issueBody(issue: StoredIssue, projectId: string, p: ProjectIssues) {
  return {
    id: issue.id,
    containerId: projectId,
    deleted: false,
    displayId: issue.displayId,
    title: issue.title,
    description: issue.description,
    snapshotUrn: null,
    issueTypeId: issue.issueTypeId,
    issueSubtypeId: issue.issueSubtypeId,
    status: issue.status,
    assignedTo: issue.assignedTo,
    assignedToType: issue.assignedToType,
    dueDate: issue.dueDate,
    startDate: issue.startDate,
    locationId: issue.locationId,
    locationDetails: issue.locationDetails,
    linkedDocuments: [],
    links: [],
    ownerId: issue.createdBy,
    rootCauseId: issue.rootCauseId,
    officialResponse: null,
    issueTemplateId: null,
    permittedStatuses: [...ISSUE_TRANSITIONS[issue.status]],
    permittedAttributes: PERMITTED_ATTRIBUTES,
    published: issue.published,
    permittedActions: PERMITTED_ACTIONS,
    commentCount: p.comments.get(issue.id)?.length ?? 0,
    attachmentCount: p.attachments.get(issue.id)?.length ?? 0,
    openedBy: issue.openedBy,
    openedAt: iso(issue.openedMs),
    closedBy: issue.closedBy,
    closedAt: iso(issue.closedMs),
    createdBy: issue.createdBy,
    createdAt: iso(issue.createdMs),
    updatedBy: issue.updatedBy,
    updatedAt: iso(issue.updatedMs),
    watchers: issue.watchers,
    customAttributes: [],
    gpsCoordinates: null,
    snapshotHasMarkups: false,
  };
}

/** A comment as the platform answers it. */
export function commentBody(c: StoredComment) {
  const at = iso(c.createdMs);
  return {
    id: c.id,
    body: c.body,
    createdAt: at,
    createdBy: c.createdBy,
    updatedAt: at,
    deletedAt: null,
    clientCreatedAt: at,
    clientUpdatedAt: at,
    permittedActions: [],
    permittedAttributes: [],
  };
}

/** An attachment as the platform answers it. */
export function attachmentBody(a: StoredAttachment, issueId: string) {
  const at = iso(a.createdMs);
  const lineage = `urn:adsk.wipprod:dm.lineage:${a.attachmentId}`;
  const version = `urn:adsk.wipprod:fs.file:vf.${a.attachmentId}?version=1`;
  return {
    attachmentId: a.attachmentId,
    displayName: a.displayName,
    fileName: a.fileName,
    attachmentType: "issue-attachment",
    storageUrn: a.storageUrn,
    fileSize: a.fileSize,
    fileType: a.fileName.includes(".") ? a.fileName.split(".").pop()! : "",
    domainEntityId: issueId,
    lineageUrn: lineage,
    version: 1,
    versionUrn: version,
    tipVersionUrn: version,
    bubbleUrn: version,
    createdBy: a.createdBy,
    createdOn: at,
    modifiedBy: a.createdBy,
    modifiedOn: at,
    deletedBy: null,
    deletedOn: null,
    isDeleted: false,
  };
}

/** An issue type as the platform answers it, with its subtypes when asked. */
export function typeBody(t: IssueType, projectId: string, withSubtypes: boolean, createdBy: string) {
  const stamp = { createdBy, createdAt: "2024-03-01T08:00:00.000Z", updatedBy: createdBy };
  const sub = (s: IssueSubtype) => ({
    ...s,
    isReadOnly: false,
    permittedActions: [],
    permittedAttributes: [],
    ...stamp,
    updatedAt: stamp.createdAt,
    deletedBy: null,
    deletedAt: null,
  });
  return {
    id: t.id,
    containerId: projectId,
    title: t.title,
    isActive: t.isActive,
    orderIndex: t.orderIndex,
    statusSet: "default",
    permittedActions: [],
    permittedAttributes: [],
    ...(withSubtypes ? { subtypes: t.subtypes.map(sub) } : {}),
    ...stamp,
    updatedAt: stamp.createdAt,
    deletedBy: null,
    deletedAt: null,
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Check = (v: unknown) => boolean;
const str = (max: number): Check => (v) => typeof v === "string" && v.length <= max;
const nullable = (c: Check): Check => (v) => v === null || c(v);
const date: Check = (v) => typeof v === "string" && DATE.test(v) && !Number.isNaN(Date.parse(v));

/** The fields an issue payload may carry and what each must be. */
const PAYLOAD: Record<string, [Check, string]> = {
  title: [(v) => typeof v === "string" && v.trim() !== "" && v.length <= 10000, "a non-empty string"],
  description: [nullable(str(10000)), "a string of at most 10000 characters"],
  snapshotUrn: [nullable(str(2000)), "a string"],
  issueSubtypeId: [str(100), "a subtype id"],
  status: [(v) => typeof v === "string" && isIssueStatus(v), `one of ${ISSUE_STATUSES.join(", ")}`],
  assignedTo: [nullable(str(100)), "an Autodesk id"],
  assignedToType: [
    (v) => v === null || (ASSIGNEE_TYPES as readonly unknown[]).includes(v),
    ASSIGNEE_TYPES.join(", "),
  ],
  dueDate: [nullable(date), "a date YYYY-MM-DD"],
  startDate: [nullable(date), "a date YYYY-MM-DD"],
  locationId: [nullable(str(100)), "a location id"],
  locationDetails: [nullable(str(8300)), "a string of at most 8300 characters"],
  rootCauseId: [nullable(str(100)), "a root cause id"],
  issueTemplateId: [nullable(str(100)), "a template id"],
  published: [(v) => typeof v === "boolean", "true or false"],
  permittedActions: [(v) => typeof v === "object", "a list"],
  watchers: [(v) => Array.isArray(v) && v.every((w) => typeof w === "string"), "a list of Autodesk ids"],
  customAttributes: [(v) => Array.isArray(v), "a list"],
  gpsCoordinates: [(v) => v === null || (typeof v === "object" && !Array.isArray(v)), "an object"],
};

/** Checks an issue payload (create: `title`, `issueSubtypeId` and `status` required); throws 400. */
export function checkPayload(body: unknown, creating: boolean): Record<string, unknown> {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw adminError(400, "ERR_BAD_INPUT", "The request body must be a JSON object");
  }
  const b = body as Record<string, unknown>;
  for (const [k, v] of Object.entries(b)) {
    const rule = PAYLOAD[k];
    if (!rule) throw adminError(400, "ERR_BAD_INPUT", `'${k}' is not a field of an issue`);
    if (!rule[0](v)) throw adminError(400, "ERR_BAD_INPUT", `'${k}' must be ${rule[1]}`);
  }
  if (creating) {
    const missing = ["title", "issueSubtypeId", "status"].filter((k) => b[k] === undefined);
    if (missing.length) throw adminError(400, "ERR_BAD_INPUT", `'${missing.join("', '")}' required`);
  }
  const setTo = typeof b.assignedTo === "string";
  const setType = typeof b.assignedToType === "string";
  if (setTo !== setType) {
    throw adminError(400, "ERR_BAD_INPUT", "'assignedTo' and 'assignedToType' are set together");
  }
  return b;
}

/**
 * The vocabulary of ACC Issues v1 (openapi/construction/issues/Issues.yaml), shared by the client and the
 * sandbox: the status enum, the assignee types, and the status graph the sandbox enforces. The
 * platform publishes only the statuses a caller may move an issue to (`permittedStatuses`), not the
 * graph; this one follows ACC's workflow (draft → open → work → review → closed).
 */

/** Every issue status (Issues.yaml `status`). */
export const ISSUE_STATUSES = [
  "draft",
  "open",
  "pending",
  "in_progress",
  "in_review",
  "completed",
  "not_approved",
  "in_dispute",
  "closed",
] as const;

/** One issue status. */
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** The fields issues sort by (`sortBy`, the SDK's `SortBy`); `-` before one: descending. */
export const ISSUE_SORT_FIELDS = [
  "createdAt",
  "updatedAt",
  "createdBy",
  "displayId",
  "title",
  "description",
  "status",
  "assignedTo",
  "assignedToType",
  "dueDate",
  "locationDetails",
  "published",
  "closedBy",
  "closedAt",
  "issueSubType",
  "issueType",
  "customAttributes",
  "startDate",
] as const;

/** The sort fields of a `sortBy` value (`-dueDate,displayId`) that issues do not sort by. */
export function unknownSortFields(sortBy: string): string[] {
  const known: readonly string[] = ISSUE_SORT_FIELDS;
  return sortBy.split(",").map((k) => k.trim().replace(/^-/, "")).filter((k) => !known.includes(k));
}

/** Who an issue can be assigned to (Issues.yaml `assignedToType`). */
export const ASSIGNEE_TYPES = ["user", "company", "role"] as const;

/** How an issue is named: its id (a GUID, the `id` of `issue list`) or its number in the project (`42`, `#42`). */
export const ISSUE_REF = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|#?\d+)$/i;

/** The statuses an issue may move to from each status. */
export const ISSUE_TRANSITIONS: Readonly<Record<IssueStatus, readonly IssueStatus[]>> = {
  draft: ["open"],
  open: ["pending", "in_progress", "in_review", "closed"],
  pending: ["open", "in_progress", "closed"],
  in_progress: ["pending", "in_review", "open"],
  in_review: ["completed", "not_approved", "in_dispute", "in_progress"],
  completed: ["closed", "in_review"],
  not_approved: ["in_progress", "open"],
  in_dispute: ["in_review", "open"],
  closed: ["open"],
};

/** True when `s` is an issue status. */
export function isIssueStatus(s: string): s is IssueStatus {
  return (ISSUE_STATUSES as readonly string[]).includes(s);
}

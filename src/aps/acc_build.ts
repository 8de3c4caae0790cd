/**
 * The construction cloud's build vocabulary, shared by client and sandbox:
 * RFI statuses and the moves between them, submittal states, checklist statuses, and the one
 * function that names the moves allowed from a status.
 */

/** RFI statuses of the US (single reviewer) workflow, the sandbox's workflow. */
export const RFI_STATUSES: readonly string[] = [
  "draft",
  "submitted",
  "open",
  "answered",
  "rejected",
  "closed",
  "void",
];

/**
 * The moves an RFI may make (US workflow). The platform publishes no graph; the emulator's choice:
 * draft → submitted → open → answered → closed, answered → rejected, and void
 * from any status not yet closed.
 */
export const RFI_TRANSITIONS: Readonly<Record<string, readonly string[]>> = {
  draft: ["submitted", "void"],
  submitted: ["open", "void"],
  open: ["answered", "void"],
  answered: ["closed", "rejected", "void"],
  rejected: ["open", "void"],
  closed: [],
  void: [],
};

/** Submittal item states (`stateId`), in workflow order. */
export const SUBMITTAL_STATES: readonly string[] = [
  "draft",
  "sbc-1",
  "mgr-1",
  "rev",
  "mgr-2",
  "sbc-2",
  "void",
];

/** The moves a submittal item may make (`<from>::<to>` transitions of its permitted actions). */
export const SUBMITTAL_TRANSITIONS: Readonly<Record<string, readonly string[]>> = {
  draft: ["sbc-1", "mgr-1", "void"],
  "sbc-1": ["mgr-1", "void"],
  "mgr-1": ["rev", "sbc-1", "void"],
  rev: ["mgr-2", "void"],
  "mgr-2": ["sbc-2", "rev", "void"],
  "sbc-2": [],
  void: [],
};

/** The `statusId` a submittal shows in each state (1 required, 2 open, 3 closed, 4 void, 6 draft). */
export const SUBMITTAL_STATUS_OF_STATE: Readonly<Record<string, string>> = {
  draft: "6",
  "sbc-1": "1",
  "mgr-1": "2",
  rev: "2",
  "mgr-2": "2",
  "sbc-2": "3",
  void: "4",
};

/** Checklist statuses (BIM 360 field management checklists). */
export const CHECKLIST_STATUSES: readonly string[] = ["not_started", "in_progress", "completed"];

/** The moves a checklist may make: started, completed, and reopened. */
export const CHECKLIST_TRANSITIONS: Readonly<Record<string, readonly string[]>> = {
  not_started: ["in_progress"],
  in_progress: ["completed", "not_started"],
  completed: ["in_progress"],
};

/** Checklist template types by id (`filter[templateTypeId]`). */
export const CHECKLIST_TEMPLATE_TYPES: Readonly<Record<string, string>> = {
  "1": "quality",
  "6": "punch list",
  "11": "safety",
  "15": "commissioning",
};

/** The statuses reachable from `from` in `graph` (none for an unknown status). */
export function allowedMoves(
  graph: Readonly<Record<string, readonly string[]>>,
  from: string,
): readonly string[] {
  return graph[from] ?? [];
}

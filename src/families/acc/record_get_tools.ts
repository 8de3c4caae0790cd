/**
 * Tools that read one construction-cloud record (families/acc/records.ts, as `diazo rfi get`, `diazo acc
 * asset|submittal|checklist get`) and a project's issue types (families/issue/verbs.ts, as `diazo issue types`).
 */
import { z } from "zod";
import { accId } from "../../aps/dm_ids.ts";
import { ASSET_KIND } from "../asset/kind.ts";
import { CHECKLIST_KIND } from "../checklist/kind.ts";
import { runIssueTypes } from "../issue/verbs.ts";
import { type RecordKind, runRecordGet } from "./records.ts";
import { RFI_KIND } from "../rfi/kind.ts";
import { SUBMITTAL_KIND } from "../submittal/kind.ts";
import { USER_LOGIN_REF } from "../../mcp/login.ts";
import { type AnyTool, defineTool, READ } from "../../mcp/tool.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const NEEDS = `Needs your user login with data:read (${USER_LOGIN_REF}).`;
const projectIdInput = z.string().min(1).describe(
  "Construction-cloud project id: the GUID (the data management b.<guid> form is accepted).",
);

/** A `<kind>_get` tool: one record by id, as the platform answers it. */
function getTool<R, F>(kind: RecordKind<R, F>, name: string, listedBy: string): AnyTool {
  return defineTool({
    name,
    title: `Get one ${kind.noun}`,
    description:
      `Shows one ${kind.noun} of a construction-cloud project with every field the platform answers ` +
      `(its id comes from ${listedBy}). ${NEEDS}`,
    input: {
      project_id: projectIdInput,
      id: z.string().min(1).describe(`The ${kind.noun}'s id (the id field of ${listedBy}).`),
    },
    output: {
      record: z.record(z.string(), z.unknown()).describe(`The ${kind.noun}, in the platform's fields.`),
    },
    annotations: READ,
    scopes: toolScopes(name),
    login: "user",
    async run(args, ctx) {
      const record = await runRecordGet(kind, { project: accId(args.project_id), id: args.id }, ctx);
      return { record: record as Record<string, unknown> };
    },
  });
}

const issueTypes = defineTool({
  name: "issue_types",
  title: "List a project's issue types",
  description:
    "Lists the issue types (categories) of a project with their subtypes; a subtype's id (or its title) is the " +
    `issue_subtype_id of issue_create. ${NEEDS}`,
  input: { project_id: projectIdInput },
  output: {
    types: z.array(z.looseObject({
      id: z.string(),
      title: z.string(),
      isActive: z.boolean(),
      subtypes: z.array(z.looseObject({ id: z.string(), title: z.string(), isActive: z.boolean() }))
        .optional(),
    })),
  },
  annotations: READ,
  scopes: toolScopes("issue_types"),
  login: "user",
  async run(args, ctx) {
    const types = await runIssueTypes({ project: accId(args.project_id) }, ctx);
    return { types: types.map((t) => ({ ...t })) };
  },
});

/** The tools that read one record, and the issue types. */
export const RECORD_GET_TOOLS: readonly AnyTool[] = [
  issueTypes,
  getTool(RFI_KIND, "rfi_get", "rfi_list"),
  getTool(ASSET_KIND, "asset_get", "asset_list"),
  getTool(SUBMITTAL_KIND, "submittal_get", "submittal_list"),
  getTool(CHECKLIST_KIND, "checklist_get", "checklist_list"),
];

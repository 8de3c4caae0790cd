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
import type { CommandDecl } from "../../command/decl.ts";
import { deriveTool } from "../../mcp/derive.ts";
import { type AnyTool, READ } from "../../mcp/tool.ts";
import { ASSET } from "../asset/commands.ts";
import { CHECKLIST } from "../checklist/commands.ts";
import { ISSUE } from "../issue/commands.ts";
import { RFI } from "../rfi/commands.ts";
import { SUBMITTAL } from "../submittal/commands.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const NEEDS = `Needs your user login with data:read (${USER_LOGIN_REF}).`;

/** A `<kind>_get` tool: one record by id, as the platform answers it; the `get` command of `family` is its input. */
function getTool<R, F>(kind: RecordKind<R, F>, family: CommandDecl, name: string, listedBy: string): AnyTool {
  return deriveTool(family, {
    name,
    title: `Get one ${kind.noun}`,
    description:
      `Shows one ${kind.noun} of a construction-cloud project with every field the platform answers ` +
      `(its id comes from ${listedBy}). ${NEEDS}`,
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

const issueTypes = deriveTool(ISSUE, {
  name: "issue_types",
  title: "List a project's issue types",
  description:
    "Lists the issue types (categories) of a project with their subtypes; a subtype's id (or its title) is the " +
    `issue_subtype_id of issue_create. ${NEEDS}`,
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
  getTool(RFI_KIND, RFI, "rfi_get", "rfi_list"),
  getTool(ASSET_KIND, ASSET, "asset_get", "asset_list"),
  getTool(SUBMITTAL_KIND, SUBMITTAL, "submittal_get", "submittal_list"),
  getTool(CHECKLIST_KIND, CHECKLIST, "checklist_get", "checklist_list"),
];

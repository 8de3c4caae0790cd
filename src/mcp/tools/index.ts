/** The tool registry: every tool of the server, and the operator's selection of them. */
import { usageError } from "../../core/errors.ts";
import { suggest } from "../../core/suggest.ts";
import type { AnyTool } from "../tool.ts";
import { RECORD_TOOLS } from "./records.ts";
import { AUTH_TOOLS } from "./auth.ts";
import { BUCKET_TOOLS } from "./buckets.ts";
import { DM_TOOLS } from "./dm.ts";
import { DM_WRITE_TOOLS } from "./dm_write.ts";
import { ISSUE_TOOLS } from "./issues.ts";
import { OBJECT_TOOLS } from "./objects.ts";
import { TRANSLATE_TOOLS } from "./translate.ts";

/** Every tool, in listing order. */
export const ALL_TOOLS: readonly AnyTool[] = [
  ...AUTH_TOOLS,
  ...BUCKET_TOOLS,
  ...OBJECT_TOOLS,
  ...TRANSLATE_TOOLS,
  ...DM_TOOLS,
  ...DM_WRITE_TOOLS,
  ...RECORD_TOOLS,
  ...ISSUE_TOOLS,
];

/** The operator's controls (`serve --read-only --tools a,b --exclude-tools c`). */
export interface ToolSelection {
  /** Only tools that never change anything are offered (others are not even listed). */
  readOnly?: boolean;
  /** Only these tools (default: all). */
  include?: readonly string[];
  /** Never these tools; wins over `include`. */
  exclude?: readonly string[];
}

/** The tools to offer; an unknown name is a usage error with a suggestion. */
export function selectTools(all: readonly AnyTool[], sel: ToolSelection): AnyTool[] {
  const names = all.map((t) => t.name);
  for (const [flag, list] of [["--tools", sel.include], ["--exclude-tools", sel.exclude]] as const) {
    for (const name of list ?? []) {
      if (names.includes(name)) continue;
      const close = suggest(name, names);
      throw usageError(
        `${flag}: unknown tool '${name}'${close ? ` (did you mean '${close}'?)` : ""}`,
        `Tools: ${names.join(", ")}.`,
      );
    }
  }
  return all.filter((t) =>
    (sel.include === undefined || sel.include.includes(t.name)) &&
    !(sel.exclude ?? []).includes(t.name) &&
    (!sel.readOnly || t.annotations.readOnlyHint)
  );
}

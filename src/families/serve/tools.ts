/** The tool registry: every tool of the server by toolset, and the operator's selection of them. */
import { usageError } from "../../core/errors.ts";
import { suggest } from "../../core/suggest.ts";
import type { AnyTool } from "../../mcp/tool.ts";
import { CONFIRM_INSTRUCTIONS } from "../../mcp/confirm.ts";
import { USER_LOGIN_HOW } from "../../mcp/login.ts";
import { DEFAULT_TOOLS, parseToolsets, type Toolset, TOOLSET_TEXT, TOOLSETS } from "./toolsets.ts";
import { TOOLSET_ENABLE } from "./toolset_tool.ts";
import { REALITY_TOOLS } from "../reality/tools.ts";
import { RECORD_GET_TOOLS } from "../acc/record_get_tools.ts";
import { RECORD_TOOLS } from "../acc/record_tools.ts";
import { ADMIN_TOOLS } from "../admin/tools.ts";
import { AUTH_TOOLS } from "../auth/tools.ts";
import { LOGIN_TOOLS } from "../auth/login_tool.ts";
import { BUCKET_TOOLS } from "../bucket/tools.ts";
import { DA_TOOLS } from "../da/tools.ts";
import { DM_TOOLS, IDS } from "../dm/tools.ts";
import { DM_WRITE_TOOLS } from "../dm/write_tools.ts";
import { DM_SEARCH_TOOLS } from "../dm/search_tool.ts";
import { TREE_TOOLS } from "../translate/tree_tool.ts";
import { ISSUE_TOOLS } from "../issue/tools.ts";
import { OBJECT_TOOLS } from "../object/tools.ts";
import { TRANSLATE_TOOLS } from "../translate/tools.ts";
import { WEBHOOK_TOOLS } from "../webhook/tools.ts";

/** The tools of each toolset, in listing order. */
export const TOOLSET_TOOLS: Readonly<Record<Toolset, readonly AnyTool[]>> = {
  context: [...AUTH_TOOLS, ...LOGIN_TOOLS, TOOLSET_ENABLE],
  storage: [...BUCKET_TOOLS, ...OBJECT_TOOLS],
  derivative: [...TRANSLATE_TOOLS, ...TREE_TOOLS],
  dm: [...DM_TOOLS, ...DM_SEARCH_TOOLS, ...DM_WRITE_TOOLS],
  acc: [...ISSUE_TOOLS, ...RECORD_GET_TOOLS, ...RECORD_TOOLS],
  admin: ADMIN_TOOLS,
  automation: DA_TOOLS,
  events: WEBHOOK_TOOLS,
  reality: REALITY_TOOLS,
};

/** Every tool, in listing order: toolset by toolset. */
export const ALL_TOOLS: readonly AnyTool[] = TOOLSETS.flatMap((t) => TOOLSET_TOOLS[t]);

const TOOLSET_OF = new Map(TOOLSETS.flatMap((set) => TOOLSET_TOOLS[set].map((t) => [t.name, set] as const)));

/** The toolset a tool belongs to. */
export function toolsetOf(name: string): Toolset | undefined {
  return TOOLSET_OF.get(name);
}

/** The tools `toolset_enable` adds for `set` under the operator's selection (read-only mode and exclusions hold). */
export function toolsetAddition(all: readonly AnyTool[], sel: ToolSelection, set: Toolset): AnyTool[] {
  return selectTools(all, { ...sel, toolsets: [set] });
}

/** The server's instructions: what the offered tools reach, toolset by toolset, and what they share, said once. */
export function instructionsFor(tools: readonly AnyTool[]): string {
  const offered = new Set(tools.map((t) => toolsetOf(t.name)));
  const sets = TOOLSETS.filter((s) => offered.has(s));
  const others = TOOLSETS.filter((s) =>
    !sets.includes(s) || TOOLSET_TOOLS[s].some((t) => !tools.includes(t))
  );
  const names = new Set(tools.map((t) => t.name));
  const parts = [
    `diazo's tools for Autodesk Platform Services. This server offers ${
      sets.map((s) => TOOLSET_TEXT[s]).join("; ") || "no tools"
    }.`,
  ];
  if (names.has("toolset_enable") && others.length) {
    parts.push(
      `More tools come with toolset_enable, toolset by toolset: ${
        others.map((s) => `${s} (${TOOLSET_TEXT[s]})`).join("; ")
      }.`,
    );
  }
  if (offered.has("context")) {
    parts.push(
      "If a tool fails with an authentication error, call auth_status: it tells which tools work with the " +
        "current login and how to log in.",
    );
  }
  parts.push(
    'Lists answer `limit` compact items (`fields` adds more of each record, ["*"] all of it) and `total` ' +
      "where the platform counts the whole list; when has_more is true, pass next_cursor as `cursor` to continue.",
  );
  if (tools.some((t) => t.login === "user" || t.login === "either")) {
    parts.push(`Tools that act as your user need a user login: ${USER_LOGIN_HOW}`);
  }
  if (offered.has("dm") || offered.has("acc") || offered.has("admin")) parts.push(IDS);
  if (tools.some((t) => "confirm" in t.input.shape)) parts.push(CONFIRM_INSTRUCTIONS);
  return parts.join(" ");
}

/** The operator's controls (`serve --toolsets dm,acc --read-only --tools a,b --exclude-tools c`). */
export interface ToolSelection {
  /** Only the tools of these toolsets (`all` for every one; default DEFAULT_TOOLS of toolsets.ts). */
  toolsets?: readonly string[];
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
  const sets = sel.toolsets ? parseToolsets(sel.toolsets) : TOOLSETS;
  // Neither toolsets nor tools named: the small default set.
  const byDefault = !sel.toolsets && sel.include === undefined;
  return all.filter((t) =>
    (!sel.toolsets || sets.includes(toolsetOf(t.name)!)) &&
    (!byDefault || DEFAULT_TOOLS.includes(t.name)) &&
    (sel.include === undefined || sel.include.includes(t.name)) &&
    !(sel.exclude ?? []).includes(t.name) &&
    (!sel.readOnly || t.annotations.readOnlyHint)
  );
}

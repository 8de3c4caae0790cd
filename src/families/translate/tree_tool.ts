/**
 * `translate_tree`: the object hierarchy of a translated model view (families/translate/verbs.ts, as
 * `diazo translate tree`), flattened depth first into rows with their depth and parent, so that a model
 * picks the object_id `translate_properties` takes and pages through a large tree.
 */
import { z } from "zod";
import { parseUrn } from "../../aps/urn.ts";
import { pageFromStart } from "../../http/list.ts";
import { listAnswer } from "../../mcp/result.ts";
import { type AnyTool, cursorInput, defineTool, limitInput, listOutput, READ } from "../../mcp/tool.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";
import { region, regionInput, urnInput } from "./tools.ts";
import { runTranslateTree } from "./verbs.ts";

const node = z.object({
  objectid: z.number().describe("The object_id translate_properties takes."),
  name: z.string(),
  depth: z.number().describe("0 for a root."),
  parent: z.number().nullable().describe("The parent's objectid; null for a root."),
  children: z.number().describe("How many objects it holds directly."),
});
type Row = z.infer<typeof node>;

interface TreeNode {
  objectid?: number;
  name?: string;
  objects?: TreeNode[];
}

/** The nodes of a tree depth first (iteratively: a deep tree never exhausts the stack). */
export function flattenTree(roots: readonly TreeNode[]): Row[] {
  const rows: Row[] = [];
  const stack: { n: TreeNode; depth: number; parent: number | null }[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ n: roots[i], depth: 0, parent: null });
  while (stack.length) {
    const { n, depth, parent } = stack.pop()!;
    const kids = Array.isArray(n.objects) ? n.objects : [];
    const id = typeof n.objectid === "number" ? n.objectid : -1;
    rows.push({ objectid: id, name: String(n.name ?? ""), depth, parent, children: kids.length });
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ n: kids[i], depth: depth + 1, parent: id });
  }
  return rows;
}

const translateTree = defineTool({
  name: "translate_tree",
  title: "Show a model's object hierarchy",
  description:
    "Shows the object hierarchy of a translated model view (default the master 3D view), depth first: objectid " +
    "(the object_id of translate_properties), name, depth, parent, children. The first call may wait.",
  input: {
    urn: urnInput,
    guid: z.string().optional().describe("Model view guid; default the master 3D view."),
    region: regionInput,
    limit: limitInput("objects"),
    cursor: cursorInput,
  },
  output: { guid: z.string(), ...listOutput(node), total: z.number().describe("Objects in the view.") },
  annotations: READ,
  scopes: toolScopes("translate_tree"),
  login: "app",
  async run(args, ctx) {
    const { urn } = parseUrn(args.urn);
    const { guid, data } = await runTranslateTree(
      { urn, region: region(args.region), guid: args.guid, timeoutMs: 60_000 },
      ctx,
    );
    const roots = (data as { data?: { objects?: TreeNode[] } })?.data?.objects ?? [];
    const rows = flattenTree(roots);
    const key = `translate_tree ${urn} ${guid}`;
    const page = await pageFromStart((upTo) => Promise.resolve(rows.slice(0, upTo)), args, key);
    return { guid, total: rows.length, ...listAnswer(page, page.items) };
  },
});

/** The object-hierarchy tool. */
export const TREE_TOOLS: readonly AnyTool[] = [translateTree];

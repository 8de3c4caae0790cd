/**
 * Long functions of a module, read from Deno's own parser (the lint plugin API), for the house rule
 * "no function over 80 lines without a comment saying why" (issue 12).
 */

/** Longest a function may be without saying why. */
export const MAX_FUNCTION_LINES = 80;

/** How a long function says why: a `// long: <reason>` comment just above it or in its first lines. */
export const LONG_MARK = /\/[/*]\s*long:\s*\S/;

/** Lines around a function's first line where its `long:` comment is looked for. */
const MARK_WINDOW = 5;

/** A function longer than the limit without a `long:` comment. */
export interface LongFunction {
  line: number;
  name: string;
  lines: number;
}

/** The name a function is known by: its own, its variable's, its property's, or "(anonymous)". */
function nameOf(node: Deno.lint.Node): string {
  if ("id" in node && node.id && node.id.type === "Identifier") return node.id.name;
  const parent = (node as { parent?: Deno.lint.Node }).parent;
  if (parent?.type === "VariableDeclarator" && parent.id.type === "Identifier") return parent.id.name;
  if (
    (parent?.type === "Property" || parent?.type === "MethodDefinition") && parent.key.type === "Identifier"
  ) {
    return parent.key.name;
  }
  return "(anonymous)";
}

/** The functions of `source` (declarations, expressions, methods, arrows) over the limit without a mark. */
export function longFunctions(file: string, source: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  const found: LongFunction[] = [];
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === "\n") lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const lines = source.split("\n");
  const visit = (node: Deno.lint.Node) => {
    const [start, end] = node.range;
    const first = lineOf(start);
    const count = lineOf(end) - first + 1;
    if (count <= max) return;
    const around = lines.slice(Math.max(0, first - 1 - MARK_WINDOW), first - 1 + MARK_WINDOW).join("\n");
    if (LONG_MARK.test(around)) return;
    found.push({ line: first, name: nameOf(node), lines: count });
  };
  const plugin: Deno.lint.Plugin = {
    name: "house",
    rules: {
      "function-length": {
        create: () => ({
          FunctionDeclaration: visit,
          FunctionExpression: visit,
          ArrowFunctionExpression: visit,
        }),
      },
    },
  };
  Deno.lint.runPlugin(plugin, file, source);
  return found;
}

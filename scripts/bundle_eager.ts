/**
 * Marks a chunk's functions for eager compilation, so that the code cache Deno keeps for the chunk
 * holds their bytecode. V8 compiles a function lazily, on its first call, unless it is a
 * parenthesized function expression (then it is compiled with the code around it); Deno writes a
 * module's code cache right after compiling the module, so every function a run called was compiled
 * again on every run (~10 ms of a `bucket list` in the fast start's chunks). So:
 * - each function and arrow expression is wrapped in parentheses;
 * - each method of an object literal (`name(…) {…}`, without `super`) becomes `name: (function (…) {…})`;
 * - each `function f(…) {…}` at the top level becomes `var f = (function (…) {…});`, moved to just
 *   after the imports: a declaration is hoisted, and the assignments placed before any other
 *   top-level code keep every function defined before anything can call it.
 * Function names are kept: a function expression assigned to a variable or property takes its name.
 * Class methods, getters and setters stay as they are.
 */
import { parseAst } from "rollup/parseAst";

/** A node of rollup's parser output (ESTree with offsets), as far as this reads it. */
interface Node {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

/** One change of the text: `[start, end)` replaced by `text` (an insertion where start === end). */
interface Edit {
  start: number;
  end: number;
  text: string;
}

const isNode = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && typeof (v as Node).type === "string" &&
  typeof (v as Node).start === "number";

function parse(text: string): Node {
  return parseAst(text) as unknown as Node;
}

/** The edits that parenthesize every function expression and turn object methods into properties. */
function wrapEdits(text: string, root: Node): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: Node, asMethod: boolean) => {
    if ((node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression") && !asMethod) {
      edits.push({ start: node.start, end: node.start, text: "(" }, {
        start: node.end,
        end: node.end,
        text: ")",
      });
    }
    if (node.type === "Property" && (node.method || node.kind !== "init")) {
      const key = node.key as Node;
      const value = node.value as Node;
      // `__proto__: …` would set the prototype where `__proto__() {}` defines a method.
      const plainKey = !node.computed && (key.type === "Identifier" || key.type === "Literal") &&
        text.slice(key.start, key.end).replace(/["']/g, "") !== "__proto__";
      if (node.kind === "init" && plainKey && !text.slice(value.start, value.end).includes("super")) {
        const keyword = `${value.async ? "async " : ""}function${value.generator ? "*" : ""}`;
        edits.push(
          { start: node.start, end: value.start, text: `${text.slice(key.start, key.end)}: (${keyword} ` },
          { start: value.end, end: value.end, text: ")" },
        );
      }
      visit(value, true);
      if (node.computed) visit(key, false);
      return;
    }
    if (node.type === "MethodDefinition") {
      visit(node.value as Node, true);
      if (node.computed) visit(node.key as Node, false);
      return;
    }
    for (const [field, child] of Object.entries(node)) {
      if (field === "type" || field === "start" || field === "end") continue;
      for (const c of Array.isArray(child) ? child : [child]) if (isNode(c)) visit(c, false);
    }
  };
  visit(root, false);
  return edits;
}

/** `text` with `edits` applied (they do not overlap; insertions at one place keep their order). */
function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.start - b.start || a.i - b.i);
  let out = "";
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** `text` with its top-level function declarations as hoisted, parenthesized function expressions. */
function hoistDeclarations(text: string): string {
  const body = parse(text).body as Node[];
  const imports = body.filter((n) => n.type === "ImportDeclaration");
  const head = imports.length ? imports[imports.length - 1].end : 0;
  const functions = body.filter((n) => n.type === "FunctionDeclaration" && n.id && n.start >= head);
  if (functions.length === 0) return text;
  const hoisted = functions.map((f) => {
    const id = f.id as Node & { name: string };
    // `function name(` -> `function (`: the variable names it, and an assignment to the name inside
    // the body stays the assignment it was.
    const keyword = text.slice(f.start, id.end).replace(/\s*[\w$]+$/, "");
    return `var ${id.name} = (${keyword} ${text.slice(id.end, f.end).trimStart()});`;
  });
  let out = text.slice(0, head) + "\n" + hoisted.join("\n") + "\n";
  let at = head;
  for (const f of functions) {
    out += text.slice(at, f.start);
    at = f.end;
  }
  return out + text.slice(at);
}

/** `text` with every function it can mark compiled eagerly (see above); the module behaves as before. */
export function eagerFunctions(text: string): string {
  const wrapped = applyEdits(text, wrapEdits(text, parse(text)));
  return hoistDeclarations(wrapped);
}

/**
 * Marks a chunk's functions for eager compilation, so that the code cache Deno keeps for the chunk
 * holds their bytecode. V8 compiles a function lazily, on its first call, unless it is a
 * parenthesized function expression, `(function …)` (then it is compiled with the code around it);
 * Deno writes a module's code cache right after compiling the module, so every function a run called
 * was compiled again on every run (~10 ms of a `bucket list` in the fast start's chunks). So:
 * - each function expression is wrapped in parentheses;
 * - each arrow function becomes a parenthesized function expression when nothing in it reads the
 *   arrow's own `this`, `arguments`, `super` or `new.target` (V8 takes `(` before an arrow's
 *   parameters for the parameters, not as a hint), else it is wrapped as it is;
 * - each method of an object literal (`name(…) {…}`, without `super`) becomes `name: (function (…) {…})`;
 * - each `function f(…) {…}` at the top level or directly in a function's body becomes
 *   `var f = (function (…) {…});`, moved to the start of that body (after the imports at the top
 *   level): a declaration is hoisted, and the assignments placed before any other statement keep
 *   every function defined before anything can call it.
 * Function names are kept: a function expression assigned to a variable or property takes its name.
 * Class methods, getters and setters stay as they are; so do declarations inside blocks.
 */
import { parseAst } from "rollup/parseAst";

/** A node of rollup's parser output (ESTree with offsets), as far as this reads it. */
interface Node {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

/**
 * One change of the text: `[start, end)` replaced by `text` (an insertion where start === end).
 * `closing` marks what ends a node (`)`, `; }`): where nodes end together, the inner one's comes first.
 */
interface Edit {
  start: number;
  end: number;
  text: string;
  closing?: boolean;
}

const isNode = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && typeof (v as Node).type === "string" &&
  typeof (v as Node).start === "number";

function parse(text: string): Node {
  return parseAst(text) as unknown as Node;
}

/** Every node under `node` (itself included). */
function* nodesOf(node: Node): Generator<Node> {
  yield node;
  for (const [field, child] of Object.entries(node)) {
    if (field === "type" || field === "start" || field === "end") continue;
    for (const c of Array.isArray(child) ? child : [child]) if (isNode(c)) yield* nodesOf(c);
  }
}

const FUNCTION_TYPES = new Set(["FunctionExpression", "ArrowFunctionExpression", "FunctionDeclaration"]);

/**
 * The edits that make `arrow` a function expression, or undefined when it must stay an arrow: it
 * reads its own `this`, `arguments`, `super` or `new.target` (anywhere inside, to be sure), or its
 * parameters hold a function or a class (whose own edits would fall inside the parameters' text).
 */
function arrowAsFunction(text: string, arrow: Node): Edit[] | undefined {
  const params = arrow.params as Node[];
  const body = arrow.body as Node;
  for (const n of nodesOf(arrow)) {
    if (n.type === "ThisExpression" || n.type === "Super" || n.type === "MetaProperty") return undefined;
    if (n.type === "Identifier" && n.name === "arguments") return undefined;
  }
  for (const p of params) {
    for (const n of nodesOf(p)) {
      if (FUNCTION_TYPES.has(n.type) || n.type === "ClassExpression" || n.type === "Property") {
        return undefined;
      }
    }
  }
  const arrowToken = text.lastIndexOf("=>", body.start);
  const paramsEnd = params.length ? params[params.length - 1].end : arrow.start;
  if (arrowToken < paramsEnd) return undefined;
  const list = params.length ? text.slice(params[0].start, paramsEnd) : "";
  const expression = body.type !== "BlockStatement";
  const head = `${arrow.async ? "async " : ""}function (${list})${expression ? " { return " : ""}`;
  // `x=>x` has no space after the arrow: `return` must not run into the body.
  let headEnd = arrowToken + 2;
  while (expression && /\s/.test(text[headEnd])) headEnd++;
  return [
    { start: arrow.start, end: headEnd, text: head },
    ...(expression ? [{ start: arrow.end, end: arrow.end, text: "; }", closing: true }] : []),
  ];
}

/** Marks, in the first pass, a declaration that a later pass hoists (when a profile picks them): a comment. */
const HOIST_MARK = "/*eager*/";

/**
 * The edits that parenthesize every function expression and turn object methods into properties;
 * only of the functions `eager` picks (declarations picked get HOIST_MARK).
 */
function wrapEdits(text: string, root: Node, eager?: (fn: Node) => boolean): Edit[] {
  const edits: Edit[] = [];
  const picked = (fn: Node) => !eager || eager(fn);
  const hoistable = new Set<Node>();
  if (eager) {
    for (const n of nodesOf(root)) {
      const body = n.type === "Program" ? n : FUNCTION_TYPES.has(n.type) ? n.body as Node : undefined;
      if (body?.type !== "Program" && body?.type !== "BlockStatement") continue;
      for (const st of body.body as Node[]) if (st.type === "FunctionDeclaration") hoistable.add(st);
    }
  }
  const visit = (node: Node, asMethod: boolean) => {
    if (eager && hoistable.has(node) && eager(node)) {
      edits.push({ start: node.start, end: node.start, text: HOIST_MARK });
    }
    if (
      (node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression") && !asMethod &&
      picked(node)
    ) {
      const converted = node.type === "ArrowFunctionExpression" ? arrowAsFunction(text, node) : undefined;
      edits.push({ start: node.start, end: node.start, text: "(" });
      edits.push({ start: node.end, end: node.end, text: ")", closing: true });
      if (converted) edits.push(...converted); // its `; }` then comes before the `)`
    }
    if (node.type === "Property" && (node.method || node.kind !== "init")) {
      const key = node.key as Node;
      const value = node.value as Node;
      // `__proto__: …` would set the prototype where `__proto__() {}` defines a method.
      const plainKey = !node.computed && (key.type === "Identifier" || key.type === "Literal") &&
        text.slice(key.start, key.end).replace(/["']/g, "") !== "__proto__";
      if (
        node.kind === "init" && plainKey && !text.slice(value.start, value.end).includes("super") &&
        picked(value)
      ) {
        const keyword = `${value.async ? "async " : ""}function${value.generator ? "*" : ""}`;
        edits.push(
          { start: node.start, end: value.start, text: `${text.slice(key.start, key.end)}: (${keyword} ` },
          { start: value.end, end: value.end, text: ")", closing: true },
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

/**
 * `text` with `edits` applied (they do not overlap). At one place, what closes comes before what
 * opens; openings keep the order they were made in (outer first), closings the reverse (inner first).
 */
function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = edits.map((e, i) => ({ ...e, i })).sort((a, b) =>
    a.start - b.start || Number(!a.closing) - Number(!b.closing) || (a.closing ? b.i - a.i : a.i - b.i)
  );
  let out = "";
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** A function declaration to hoist, and where its body's statements start. */
interface Move {
  decl: Node;
  at: number;
}

/** Where `fn`'s own statements start: after its directive prologue ("use strict" stays first). */
function statementsStart(fnBody: Node): number {
  let at = fnBody.start + 1;
  for (const st of fnBody.body as Node[]) {
    if (st.type !== "ExpressionStatement" || !st.directive) break;
    at = st.end;
  }
  return at;
}

/**
 * The declarations to hoist in one pass: those at the top level (after the imports) and directly in
 * a function's body, but none inside another one moved in the same pass (its text moves whole, and
 * the next pass reaches what is inside it).
 */
function movesOf(root: Node, hoisted: (decl: Node) => boolean): Move[] {
  const moves: Move[] = [];
  const moved = new Set<Node>();
  const take = (statements: Node[], at: number) => {
    for (const st of statements) {
      if (st.type === "FunctionDeclaration" && st.id && st.start >= at && hoisted(st)) {
        moves.push({ decl: st, at });
        moved.add(st);
      }
    }
  };
  const walk = (node: Node) => {
    const body = node.body as Node | undefined;
    if (FUNCTION_TYPES.has(node.type) && body?.type === "BlockStatement") {
      take(body.body as Node[], statementsStart(body));
    }
    for (const [field, child] of Object.entries(node)) {
      if (field === "type" || field === "start" || field === "end") continue;
      for (const c of Array.isArray(child) ? child : [child]) if (isNode(c) && !moved.has(c)) walk(c);
    }
  };
  const body = root.body as Node[];
  const imports = body.filter((n) => n.type === "ImportDeclaration");
  take(body, imports.length ? imports[imports.length - 1].end : 0);
  walk(root);
  return moves;
}

/** One pass of hoisting (see movesOf); undefined when nothing is left to hoist. */
function hoistPass(text: string, marked: boolean): string | undefined {
  const isMarked = (decl: Node) => text.startsWith(HOIST_MARK, decl.start - HOIST_MARK.length);
  const moves = movesOf(parse(text), marked ? isMarked : () => true);
  if (moves.length === 0) return undefined;
  const edits: Edit[] = [];
  for (const { decl, at } of moves) {
    const id = decl.id as Node & { name: string };
    // `function name(` -> `function (`: the variable names it, and an assignment to the name inside
    // the body stays the assignment it was.
    const keyword = text.slice(decl.start, id.end).replace(/\s*[\w$]+$/, "");
    const hoisted = `var ${id.name} = (${keyword} ${text.slice(id.end, decl.end).trimStart()});`;
    const from = marked ? decl.start - HOIST_MARK.length : decl.start;
    edits.push({ start: at, end: at, text: `\n${hoisted}` }, { start: from, end: decl.end, text: "" });
  }
  return applyEdits(text, edits);
}

/**
 * `text` with every function it can mark compiled eagerly (see above), or only those a profile saw
 * run: `ran` holds the offsets in `text` where each of them ends. The module behaves as before.
 */
export function eagerFunctions(text: string, ran?: ReadonlySet<number>): string {
  const eager = ran && ((fn: Node) => ran.has(fn.end));
  let out = applyEdits(text, wrapEdits(text, parse(text), eager));
  for (let next = hoistPass(out, !!ran); next !== undefined; next = hoistPass(out, !!ran)) out = next;
  return out;
}

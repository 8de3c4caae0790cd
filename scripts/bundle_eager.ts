/**
 * Marks a chunk's top-level functions for eager compilation, so that the code cache Deno keeps for
 * the chunk holds their bytecode. V8 compiles a function lazily, on its first call, unless it is a
 * parenthesized function expression; Deno writes a module's code cache right after compiling it,
 * so every function a run calls was compiled again on every run (~8 ms of a `bucket list` in the
 * fast start's chunks). Each `function f(…) {…}` at the top level becomes `var f = (function (…) {…});`,
 * moved to just after the imports: a declaration is hoisted, and the assignments placed before any
 * other top-level code keep every function defined before anything can call it.
 */
import { parseAst } from "rollup/parseAst";

/** A node of the program's top level, as rollup's parser gives it (ESTree with offsets). */
interface TopNode {
  type: string;
  start: number;
  end: number;
  async?: boolean;
  generator?: boolean;
  id?: { name: string; end: number } | null;
}

/** `text` with its top-level function declarations as hoisted, parenthesized function expressions. */
export function eagerFunctions(text: string): string {
  const body = (parseAst(text) as unknown as { body: TopNode[] }).body;
  const imports = body.filter((n) => n.type === "ImportDeclaration");
  const head = imports.length ? imports[imports.length - 1].end : 0;
  const functions = body.filter((n) => n.type === "FunctionDeclaration" && n.id && n.start >= head);
  if (functions.length === 0) return text;
  const hoisted = functions.map((f) => {
    // `function name(` -> `function (`: the variable names it (Function.name is inferred from it),
    // and an assignment to the name inside the body stays the assignment it was.
    const keyword = text.slice(f.start, f.id!.end).replace(/\s*[\w$]+$/, "");
    return `var ${f.id!.name} = (${keyword} ${text.slice(f.id!.end, f.end).trimStart()});`;
  });
  let out = text.slice(0, head) + "\n" + hoisted.join("\n") + "\n";
  let at = head;
  for (const f of functions) {
    out += text.slice(at, f.start);
    at = f.end;
  }
  return out + text.slice(at);
}

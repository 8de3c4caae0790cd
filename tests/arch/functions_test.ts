/** No function in src/ is over 80 lines without a `// long: <reason>` comment saying why (issue 12). */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { longFunctions, MAX_FUNCTION_LINES } from "./function_length.ts";
import { modules } from "./import_graph.ts";

const SRC = path.resolve(fileURLToPath(new URL("../../src/", import.meta.url)));

/** A function declaration whose body has `bodyLines` lines, preceded by `before`. */
function fn(name: string, bodyLines: number, before = ""): string {
  return `${before}function ${name}(): number {\n${"  let x = 1;\n".repeat(bodyLines)}  return 1;\n}\n`;
}

Deno.test("function length: over the limit is reported with its line and name; at the limit it is not", () => {
  // A function of n body lines spans n + 3 lines (signature, return, closing brace).
  const atLimit = fn("fits", MAX_FUNCTION_LINES - 3);
  const over = fn("tooLong", MAX_FUNCTION_LINES - 2);
  assert.deepEqual(longFunctions("a.ts", atLimit), []);
  assert.deepEqual(longFunctions("a.ts", `// one\n${over}`), [
    { line: 2, name: "tooLong", lines: MAX_FUNCTION_LINES + 1 },
  ]);
});

Deno.test("function length: arrows, methods and closures count; a `// long:` comment above or inside excuses", () => {
  const body = "  x++;\n".repeat(MAX_FUNCTION_LINES);
  const arrow = `const handler = async () => {\n${body}};\n`;
  const method = `const o = {\n  run() {\n${body}  },\n};\n`;
  assert.deepEqual(longFunctions("b.ts", arrow).map((f) => f.name), ["handler"]);
  assert.deepEqual(longFunctions("b.ts", method).map((f) => f.name), ["run"]);
  assert.deepEqual(longFunctions("b.ts", `// long: one table of every route\n${arrow}`), []);
  assert.deepEqual(
    longFunctions("b.ts", `const h = () => {\n  // long: a state machine read top to bottom\n${body}};\n`),
    [],
  );
  assert.deepEqual(
    longFunctions("b.ts", `// longer than it should be\n${arrow}`).length,
    1,
    "the mark needs `long:`",
  );
  // A string or template holding braces does not confuse the parser.
  assert.deepEqual(longFunctions("b.ts", `const s = "{";\nconst t = \`\${"}"}\`;\n${fn("ok", 3)}`), []);
});

Deno.test("function length: every function of src/ over 80 lines says why", async () => {
  const offenders: string[] = [];
  for (const m of await modules(SRC)) {
    for (const f of longFunctions(m, await Deno.readTextFile(path.join(SRC, m)))) {
      offenders.push(`src/${m}:${f.line} ${f.name} (${f.lines} lines)`);
    }
  }
  assert.deepEqual(
    offenders,
    [],
    `functions over ${MAX_FUNCTION_LINES} lines without a \`// long: <reason>\` comment:\n${
      offenders.join("\n")
    }`,
  );
});

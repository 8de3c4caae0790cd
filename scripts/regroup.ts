/**
 * The second step of `bundle` (scripts/build.ts): the chunks `deno bundle` writes, regrouped so that a
 * run opens few files. `deno bundle` (esbuild) puts each set of modules that the same entry points
 * share into a file of its own: ~220 files, 58 of which `bucket list` loads, at a cost in every run for
 * each file. Rollup, run over that output, joins the chunks into three groups by what loads them:
 *
 * - `start`: what `main.ts` imports statically (every run, `--version` too);
 * - `door`: what `diazo --help` loads (the program's help, the streams, the update notice's decision);
 * - `front`: the rest of what the front door (`front/root.ts`) loads statically before any command.
 *
 * Every other chunk (a family, the sandbox, the tool server, a module behind a `node:` import) keeps
 * the place rollup gives it. Measured in ARCHITECTURE.md, "Start-up".
 */
import path from "node:path";
import { rollup } from "rollup";

/** The chunks of the groups above, by file name (the entry, `main.js`, belongs to none). */
export interface Groups {
  start: Set<string>;
  door: Set<string>;
  front: Set<string>;
}

/** The names of the files a chunk imports statically (`import … from "./x.js"`, `import "./x.js"`, either quote). */
export function staticImports(code: string): string[] {
  const re = /^(?:import|export)\s[^;]*?\sfrom\s*["']\.\/([^"']+)["']|^import\s*["']\.\/([^"']+)["']/gms;
  return [...code.matchAll(re)].map((m) => m[1] ?? m[2]);
}

/** The chunk of `deno bundle`'s output made for the module `name` (esbuild names it `<name>-<hash>.js`). */
function chunkOf(files: readonly string[], name: string): string {
  const found = files.filter((f) => new RegExp(`^${name}-[A-Z0-9]+\\.js$`).test(f));
  if (found.length !== 1) {
    throw new Error(`the bundle has ${found.length} chunks for ${name}.ts (one expected): was it renamed?`);
  }
  return found[0];
}

/** The groups of `deno bundle`'s chunks (`code` by file name; the entry is `main.js`). */
export function groupsOf(code: Readonly<Record<string, string>>): Groups {
  const files = Object.keys(code);
  const closure = (from: string, into: Set<string>, skip: ReadonlySet<string>) => {
    if (into.has(from) || skip.has(from)) return;
    into.add(from);
    for (const next of staticImports(code[from] ?? "")) closure(next, into, skip);
  };
  const start = new Set<string>();
  for (const f of staticImports(code["main.js"] ?? "")) closure(f, start, new Set());
  const door = new Set<string>();
  for (const name of ["root_help", "io", "update_notice"]) closure(chunkOf(files, name), door, start);
  const front = new Set<string>();
  closure(chunkOf(files, "root"), front, new Set([...start, ...door]));
  return { start, door, front };
}

/**
 * Rollup over `deno bundle`'s output in `splitDir` (entry `main.js`) into `outDir` (entry
 * `diazo.js`), grouped as `groupsOf` says. Fails on any warning but a circular import (which the
 * source has behind its lazy imports), and when a chunk would import the entry, which waits on its
 * top-level await.
 */
export async function regroup(splitDir: string, outDir: string): Promise<string> {
  const code: Record<string, string> = {};
  for (const e of Deno.readDirSync(splitDir)) {
    if (e.name.endsWith(".js")) code[e.name] = Deno.readTextFileSync(path.join(splitDir, e.name));
  }
  const groups = groupsOf(code);
  const groupOf = (file: string) => (["start", "door", "front"] as const).find((g) => groups[g].has(file));
  const warnings: string[] = [];
  const build = await rollup({
    input: path.join(splitDir, "main.js"),
    external: (id) => /^(node|npm|jsr|https?):/.test(id),
    onwarn: (w) => void (w.code !== "CIRCULAR_DEPENDENCY" && warnings.push(`${w.code}: ${w.message}`)),
  });
  await build.write({
    dir: outDir,
    format: "es",
    entryFileNames: "diazo.js",
    // `server-XGXFX4WQ` (deno bundle's name and hash) becomes `server-<rollup's hash>`.
    chunkFileNames: (chunk) => `${chunk.name.replace(/-[A-Z0-9]{8}$/, "")}-[hash].js`,
    manualChunks: (id) => groupOf(path.basename(id)),
  });
  await build.close();
  if (warnings.length) throw new Error(`rollup: ${warnings[0].split("\n")[0]}`);
  for (const e of Deno.readDirSync(outDir)) {
    if (
      e.name.endsWith(".js") &&
      /from\s*['"]\.\/diazo\.js['"]/.test(Deno.readTextFileSync(path.join(outDir, e.name)))
    ) {
      throw new Error(`${e.name} imports the entry diazo.js, which would wait on itself`);
    }
  }
  return path.join(outDir, "diazo.js");
}

/**
 * Regroups the split bundle's chunks (scripts/build.ts `bundle`) so that the fast start loads few
 * files. esbuild splits each module shared by a different set of dynamic imports into its own chunk:
 * `bucket list` loaded ~60 files one after another before its first request. Rollup re-chunks that
 * output with manual chunks holding the modules the hot path (src/front/hot.ts) statically reaches, so
 * it loads ~8 files. Each chunk file is one module to rollup and lands in exactly one output file:
 * module identity (shared registries, error classes) is kept. The fast start's chunks are the ones
 * whose functions build.ts then compiles eagerly (bundle_eager.ts), as far as a profile saw them run.
 */
import path from "node:path";
import { type GetModuleInfo, rollup } from "rollup";

/**
 * The groups, each the source modules whose static imports it gathers (an earlier group keeps a shared
 * module): what `--help` loads (front/hot.ts and the modules main.ts loads with it), what a hot
 * command's run adds, then each other hot command's own verb.
 */
export const HOT_GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ["hot", ["src/front/hot.ts", "src/command/io.ts", "src/front/update_notice.ts"]],
  ["hot_run", ["src/front/hot_run.ts", "src/front/hot_actions.ts", "src/families/bucket/verbs.ts"]],
  ["object_list", ["src/families/object/verbs.ts"]],
  ["object_download", ["src/families/object/download.ts"]],
  ["auth_status", ["src/families/auth/verbs.ts", "src/families/auth/status_text.ts"]],
];

/** The chunk files of `files` (name -> text) holding one of `roots`, by esbuild's `// src/...` marker. */
export function rootFiles(files: ReadonlyMap<string, string>, roots: readonly string[]): string[] {
  return [...files].filter(([, text]) => roots.some((r) => text.includes(`// ${r}\n`))).map(([name]) => name);
}

/** Every module `start` reaches through static imports (Node built-ins left out). */
function staticClosure(start: Iterable<string>, info: GetModuleInfo): Set<string> {
  const seen = new Set<string>();
  const todo = [...start];
  while (todo.length) {
    const id = todo.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const dep of info(id)?.importedIds ?? []) if (!dep.startsWith("node:")) todo.push(dep);
  }
  return seen;
}

/**
 * esbuild gives each dynamically imported module a file of its own that only re-exports from the
 * chunk holding its code (no `// src/...` marker). Each such file reached from the hot path would be
 * one more file read and compiled before the first request: a facade whose imports all lie in the
 * groups (or the entry's closure) joins the last group it imports from, and its dynamic import then
 * loads that group's file.
 */
function joinFacades(
  files: ReadonlyMap<string, string>,
  base: ReadonlySet<string>,
  groupOf: Map<string, string>,
  order: readonly string[],
  info: GetModuleInfo,
): void {
  for (const [id, text] of files) {
    if (base.has(id) || groupOf.has(id) || text.includes("// src/")) continue;
    const imports = (info(id)?.importedIds ?? []).filter((d) => !d.startsWith("node:"));
    if (!imports.every((d) => base.has(d) || groupOf.has(d))) continue;
    const last = Math.max(...imports.map((d) => order.indexOf(groupOf.get(d) ?? "")));
    if (last >= 0) groupOf.set(id, order[last]);
  }
}

/**
 * Rewrites the bundle in `dir` (entry `diazo.js`): the modules each group's roots reach statically,
 * except what the entry itself imports (`--version` stays two small files), become one chunk per
 * group. Returns the fast start's chunk files: the entry, its imports' and the groups'.
 */
export async function regroupBundle(
  dir: string,
  groups: readonly (readonly [string, readonly string[]])[] = HOT_GROUPS,
): Promise<string[]> {
  const names = [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".js")).map((e) =>
    e.name
  );
  const files = new Map(names.map((n) => [path.join(dir, n), Deno.readTextFileSync(path.join(dir, n))]));
  // A renamed or moved root would leave the hot path split again without a word: an error instead.
  const missing = groups.flatMap(([, roots]) => roots).filter((r) => rootFiles(files, [r]).length === 0);
  if (missing.length) throw new Error(`bundle regroup: no chunk holds ${missing.join(", ")}`);
  const entry = path.join(dir, "diazo.js");
  const eager = new Set(["start", ...groups.map(([name]) => name)]);
  const out = await Deno.makeTempDir({ prefix: "diazo-bundle-" });
  try {
    const build = await rollup({
      input: entry,
      external: (id) => id.startsWith("node:"),
      // The input is already esbuild's output: nothing to shake, and rollup's analysis costs time.
      treeshake: false,
      onwarn: () => {},
    });
    let base: Set<string> | undefined;
    const groupOf = new Map<string, string>();
    const { output } = await build.write({
      dir: out,
      format: "es",
      entryFileNames: "diazo.js",
      chunkFileNames: "[name]-[hash].js",
      manualChunks(id, { getModuleInfo }) {
        if (!base) {
          base = staticClosure([entry], getModuleInfo);
          for (const [name, roots] of groups) {
            for (const m of staticClosure(rootFiles(files, roots), getModuleInfo)) {
              if (!base.has(m) && !groupOf.has(m)) groupOf.set(m, name);
            }
          }
          joinFacades(files, base, groupOf, groups.map(([name]) => name), getModuleInfo);
        }
        // The entry's own imports get a chunk of their own: left to rollup, they join the hot chunk
        // (it merges small side-effect-free chunks), which `--version` would then load whole.
        if (id !== entry && base.has(id)) return "start";
        return groupOf.get(id);
      },
    });
    await build.close();
    for (const n of names) Deno.removeSync(path.join(dir, n));
    for (const e of Deno.readDirSync(out)) Deno.copyFileSync(path.join(out, e.name), path.join(dir, e.name));
    return output.filter((c) => c.type === "chunk" && (c.isEntry || eager.has(c.name))).map((c) =>
      c.fileName
    );
  } finally {
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
}

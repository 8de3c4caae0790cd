/**
 * The suite's worker groups. `deno task test` runs one module per group (tests/suite/*.suite.ts), and each
 * group module imports its test files: a test worker costs ~120 ms of CPU to start, and an e2e file ~250 ms
 * more to load the CLI and the sandbox, so 180 files in 180 workers spent a third of the suite's CPU before
 * any test ran. The heaviest files get a group of their own (and run first); the others are dealt, in name
 * order, into a few groups per area, so a new test file joins a group by itself. `tests/arch/suite_test.ts`
 * checks that every test file is in exactly one group. A single file still runs alone with
 * `deno test -A tests/<area>/<file>_test.ts`.
 */

import { fileURLToPath } from "node:url";

/** Files heavy enough for a group of their own, heaviest first (CPU seconds measured alone). */
export const SOLO: readonly string[] = [
  "robust/pipeline_flow_size_test.ts", // 7.6: pipelines near the 1 MiB cap through the yaml library
  "e2e/object_test.ts", // 3.8: 300 MiB and 64 MiB transfers
  "e2e/readme_run_test.ts", // ~150 README examples in a row, ~30 s
  "e2e/object_list_pages_test.ts", // 3.4: 1,050 files
  "mcp/paging_test.ts", // 3.3: 160 webhooks and every list tool paged to its end
  "scripts/build_test.ts", // 2.5: a real compile
  "e2e/bundle_test.ts", // 1.9, and ~10 s of child processes
  "mcp/inspector_test.ts", // ~13 s of child processes: four inspector runs, each starting diazo serve
  "e2e/completions_test.ts", // 2.3: real shells
  "e2e/completion_values_test.ts", // ~25 diazo processes (real shells at TAB), ~40 s of wall time
  "e2e/plugin_test.ts", // 2.3: real plugin processes
  "sandbox/oss_objects_test.ts", // 2.1
  "robust/pipeline_limits_test.ts", // 1.9
  "e2e/dm_write_test.ts", // 1.9
  "storage/download_resume_test.ts", // 1.8
  "generate/generate_test.ts", // 1.8
];

/** The other files, by area (path prefixes under tests/), each dealt into `chunks` groups. */
export const AREAS: readonly { name: string; prefixes: readonly string[]; chunks: number }[] = [
  { name: "e2e", prefixes: ["e2e/"], chunks: 5 },
  { name: "sandbox", prefixes: ["sandbox/"], chunks: 3 },
  { name: "contract", prefixes: ["contract/"], chunks: 2 },
  { name: "mcp", prefixes: ["mcp/"], chunks: 2 },
  { name: "robust", prefixes: ["robust/", "safety/"], chunks: 2 },
  { name: "storage", prefixes: ["storage/", "ops/"], chunks: 2 },
  // Everything else: the unit tests of every other area, and any new area until it is named above.
  { name: "units", prefixes: [""], chunks: 2 },
];

/** The group module name of a solo file: `0-<area>-<stem>` (0: sorted first, so the heaviest start first). */
export function soloName(file: string): string {
  return `0-${file.replace(/_test\.ts$/, "").replace(/\//g, "-")}`;
}

/** Every group and its files (paths under tests/), given every test file; solo groups first. */
export function groupFiles(files: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const file of SOLO) if (files.includes(file)) groups.set(soloName(file), [file]);
  const rest = [...files].filter((f) => !SOLO.includes(f)).sort();
  const dealt = new Map<string, number>();
  for (const file of rest) {
    const area = AREAS.find((a) => a.prefixes.some((p) => file.startsWith(p)))!;
    const n = dealt.get(area.name) ?? 0;
    dealt.set(area.name, n + 1);
    const name = `${area.name}-${(n % area.chunks) + 1}`;
    groups.set(name, [...groups.get(name) ?? [], file]);
  }
  return groups;
}

/** Every test file under `root` (tests/), as paths relative to it. */
export function testFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory && e.name !== "suite" && e.name !== "fixtures") {
        walk(`${dir}/${e.name}`, `${rel}${e.name}/`);
      } else if (e.isFile && e.name.endsWith("_test.ts")) out.push(`${rel}${e.name}`);
    }
  };
  walk(root, "");
  return out.sort();
}

const ROOT = new URL("../", import.meta.url);
const ROOT_DIR = fileURLToPath(ROOT).replace(/[\\/]$/, "");

/** Imports the test files of the group whose module is `moduleUrl` (`tests/suite/<name>.suite.ts`). */
export async function runGroup(moduleUrl: string): Promise<void> {
  const name = moduleUrl.split("/").at(-1)!.replace(/\.suite\.ts$/, "");
  const files = groupFiles(testFiles(ROOT_DIR)).get(name);
  if (!files) throw new Error(`no test group '${name}': see tests/suite/groups.ts`);
  for (const file of files) await import(new URL(file, ROOT).href);
}

/**
 * `deno task compile`: one executable per target with `deno compile`. Prints one line and exits 1
 * when the Deno runtime for a target cannot be obtained (it is downloaded from the Deno project
 * unless DENORT_BIN or a pre-seeded $DENO_DIR/dl cache provides it).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "../src/core/version.ts";

/** Targets `deno compile` supports. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/** The permissions every command needs, and nothing broader. */
export const COMPILE_PERMISSIONS = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  // The Windows Credential Manager is reached through FFI (advapi32).
  "--allow-ffi",
];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function compile(target: string): Promise<string> {
  const out = path.join(
    ROOT,
    "dist",
    `diazo-${VERSION}-${target}${target.includes("windows") ? ".exe" : ""}`,
  );
  const res = await new Deno.Command(Deno.execPath(), {
    args: [
      "compile",
      "--exclude-unused-npm",
      ...COMPILE_PERMISSIONS,
      "--target",
      target,
      "-o",
      out,
      path.join(ROOT, "src/main.ts"),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(res.stderr);
  if (res.code !== 0) {
    if (/dl\.deno\.land|dns error|denort|error sending request/i.test(err)) {
      console.error(
        `error: deno compile could not obtain the Deno runtime for ${target} (it is downloaded from the Deno project, unreachable here); set DENORT_BIN or pre-seed $DENO_DIR/dl, or build in CI`,
      );
    } else {
      console.error(`error: deno compile failed for ${target}: ${err.trim().split("\n").at(-1)}`);
    }
    Deno.exit(1);
  }
  return out;
}

if (import.meta.main) {
  const all = Deno.args.includes("--all");
  const targets = all ? [...TARGETS] : [Deno.build.target];
  for (const t of targets) console.log(await compile(t));
}

/**
 * config.json and plugins.json are read through the capped reader (core/input_file.ts): as a FIFO, as
 * a symlink to /dev/zero or as a 300 MB file, every command (even `plugin list`) ends at once with an
 * error naming the file, instead of hanging or reading gigabytes. A real process, since a blocked
 * read of a FIFO would stop the test's own process.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { cliEnv, makeHome, spawnChild, type TestHome } from "../e2e/harness.ts";

const IS_POSIX = Deno.build.os !== "windows";

/** Generous: a run from source starts in about a second; one that blocks never ends. */
const BOUND_MS = 10_000;

/** Runs the CLI as a child process, killed at the bound; its output and how long it took. */
async function bounded(home: TestHome, argv: string[]) {
  const started = Date.now();
  const child = spawnChild(argv, {
    env: cliEnv(home, { DIAZO_BASE_URL: "http://127.0.0.1:9" }),
    cwd: home.cwd,
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), BOUND_MS);
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  return {
    code: out.code,
    stderr: dec.decode(out.stderr),
    ms: Date.now() - started,
    killed: out.signal === "SIGKILL",
  };
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

async function mkfifo(file: string): Promise<void> {
  const out = await new Deno.Command("mkfifo", { args: [file] }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

/** A sparse file of `bytes` (nothing written to disk). */
async function sparse(file: string, bytes: number): Promise<void> {
  await Deno.writeFile(file, new Uint8Array(0));
  await Deno.truncate(file, bytes);
}

const CASES = [
  {
    what: "a FIFO",
    make: mkfifo,
    says: /is a FIFO \(named pipe\), not a regular file/,
  },
  {
    what: "a symlink to /dev/zero",
    make: (file: string) => Deno.symlink("/dev/zero", file),
    says: /is a character device, not a regular file/,
  },
  {
    what: "a 300 MB file",
    make: (file: string) => sparse(file, 300 * 1000 * 1000),
    says: /is 286\.1 MiB: a (configuration|plugins) file is at most 1 MiB/,
  },
];

for (const name of ["config.json", "plugins.json"]) {
  Deno.test({
    name: `${name} as a FIFO, /dev/zero or 300 MB: plugin list and bucket list end at once, naming it`,
    ignore: !IS_POSIX,
    fn: async () => {
      const home = await makeHome();
      try {
        await Deno.mkdir(home.configDir, { recursive: true });
        const file = path.join(home.configDir, name);
        for (const c of CASES) {
          await c.make(file);
          for (const argv of [["plugin", "list"], ["bucket", "list"]]) {
            const r = await bounded(home, argv);
            const run = `${name} as ${c.what}, ${argv.join(" ")}`;
            assert.ok(!r.killed, `${run}: still running after ${BOUND_MS} ms`);
            assert.match(r.stderr, c.says, run);
            if (name === "plugins.json" && argv[0] !== "plugin") {
              // Other commands still run, without hooks, and say why.
              assert.match(r.stderr, new RegExp(`^warning: hooks skipped: ${escaped(file)} `), run);
              continue;
            }
            assert.equal(r.code, 2, `${run}: ${r.stderr}`);
            assert.match(r.stderr, new RegExp(`^error: ${escaped(file)} `), run);
            assert.match(
              r.stderr,
              /\nhint: (diazo reads a (configuration|plugins) file only from a regular file|Check that)/,
            );
          }
          await Deno.remove(file);
        }
      } finally {
        await home.cleanup();
      }
    },
  });
}

/** Set-up shared by the plugin, alias and hook e2e tests: a home with bin dirs on PATH and plugins.json. */
import path from "node:path";
import { cliEnv, makeHome, SANDBOX_ID, SANDBOX_SECRET, startTestSandbox, type TestHome } from "./harness.ts";
export { assertOneError } from "./harness.ts";

/** A test home whose PATH starts with its own `bin` and `bin2` directories. */
export interface ExtHome {
  home: TestHome;
  bin: string;
  bin2: string;
  /** The CLI's environment: the harness's, with the test's bin dirs first on PATH. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Writes an executable (or, with `mode`, any) script into `dir` (default: bin). */
  script(name: string, body: string, opts?: { dir?: string; mode?: number }): Promise<string>;
  /** Writes plugins.json: an object as JSON, a string as it is. */
  pluginsJson(content: unknown): Promise<string>;
  readPluginsJson(): Promise<unknown>;
  /** A file in the working directory. */
  file(name: string): string;
  close(): Promise<void>;
}

/** Creates a test home with two bin dirs on PATH. */
export async function extHome(): Promise<ExtHome> {
  const home = await makeHome();
  const bin = path.join(home.dir, "bin");
  const bin2 = path.join(home.dir, "bin2");
  await Deno.mkdir(bin);
  await Deno.mkdir(bin2);
  await Deno.mkdir(home.configDir, { recursive: true });
  const pluginsFile = path.join(home.configDir, "plugins.json");
  return {
    home,
    bin,
    bin2,
    env: (extra = {}) =>
      cliEnv(home, { PATH: [bin, bin2, Deno.env.get("PATH") ?? ""].join(path.delimiter), ...extra }),
    async script(name, body, opts = {}) {
      const file = path.join(opts.dir ?? bin, name);
      await Deno.writeTextFile(file, body, { mode: opts.mode ?? 0o755 });
      await Deno.chmod(file, opts.mode ?? 0o755);
      return file;
    },
    async pluginsJson(content) {
      await Deno.writeTextFile(
        pluginsFile,
        typeof content === "string" ? content : JSON.stringify(content, null, 2),
      );
      return pluginsFile;
    },
    readPluginsJson: async () => JSON.parse(await Deno.readTextFile(pluginsFile)),
    file: (name) => path.join(home.cwd, name),
    close: () => home.cleanup(),
  };
}

/**
 * A plugin that prints each argument as `<arg>` on stdout, dumps its environment to `env.txt` in
 * the working directory, runs `"$DIAZO_BIN" --version` into `bin.txt` when PROBE_RUN_BIN is set,
 * and exits with PROBE_EXIT (default 0).
 */
export const PROBE_PLUGIN = `#!/bin/sh
for a in "$@"; do printf '<%s>\\n' "$a"; done
env > env.txt
if [ -n "\${PROBE_RUN_BIN:-}" ]; then "$DIAZO_BIN" --version > bin.txt; fi
exit "\${PROBE_EXIT:-0}"
`;

/** The environment a plugin or hook dumped with `env`, as a map. */
export async function readEnvDump(file: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const line of (await Deno.readTextFile(file)).split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

/** A sandbox and a config.json profile holding its credentials (no credentials in the environment). */
export async function sandboxProfile(x: ExtHome, secret = SANDBOX_SECRET) {
  const sb = await startTestSandbox();
  await Deno.writeTextFile(
    path.join(x.home.configDir, "config.json"),
    JSON.stringify({
      active_profile: "sb",
      profiles: { sb: { client_id: SANDBOX_ID, client_secret: secret, base_url: sb.url } },
      settings: {},
    }),
  );
  return sb;
}

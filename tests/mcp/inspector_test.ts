/**
 * The MCP Inspector's command-line client (`@modelcontextprotocol/inspector-cli` from the npm registry,
 * run by Deno's npm support) against `diazo serve` over stdio, pointed at a sandbox: tools/list, a
 * tools/call of bucket_list, resources/list and prompts/list all succeed. `.ci/run` caches the pinned
 * package first; without it this test skips with a message, except under CI=true, where it fails.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { cliCommand, diazo, ROOT } from "../e2e/harness.ts";
import { fixture } from "./helpers.ts";

/** The pinned package; `.ci/run` caches the same one (checked below). */
export const INSPECTOR = "npm:@modelcontextprotocol/inspector-cli@1.0.3/build/index.js";

const IN_CI = (Deno.env.get("CI") ?? "") !== "" && Deno.env.get("CI") !== "false";

/** Runs the inspector with `args` in `cwd` under `env`; its stdout parsed as JSON. */
async function inspector(args: string[], env: Record<string, string>, cwd: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", INSPECTOR, ...args],
    env,
    clearEnv: true,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  return { code: out.code, stdout, stderr };
}

/** Why the inspector cannot run here, or undefined when it can (downloading it once when it may). */
async function unavailable(): Promise<string | undefined> {
  const dir = await Deno.makeTempDir({ prefix: "diazo-inspector-" });
  try {
    const env: Record<string, string> = {};
    for (const k of ["PATH", "HOME", "DENO_DIR", "TMPDIR", "NPM_CONFIG_REGISTRY"]) {
      const v = Deno.env.get(k);
      if (v !== undefined) env[k] = v;
    }
    const r = await inspector(["--help"], env, dir);
    return r.code === 0 && r.stdout.includes("--method") ? undefined : r.stderr.trim().split("\n").at(-1);
  } catch (e) {
    return (e as Error).message;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const why = await unavailable();
if (why !== undefined && !IN_CI) {
  console.warn(`skipping the MCP Inspector smoke: ${INSPECTOR} cannot run here (${why}); .ci/run caches it`);
}

Deno.test("ci: .ci/run caches the inspector version this test runs", async () => {
  const script = await Deno.readTextFile(path.join(ROOT, ".ci/run"));
  assert.ok(script.includes(INSPECTOR), `.ci/run should cache ${INSPECTOR}`);
});

Deno.test({
  name:
    "MCP Inspector CLI against diazo serve: tools/list, tools/call bucket_list, resources/list, prompts/list",
  ignore: why !== undefined && !IN_CI,
  async fn() {
    assert.equal(why, undefined, `the MCP Inspector is required in CI: ${why}`);
    const fx = await fixture();
    try {
      const made = await diazo(["bucket", "create", "--key", "inspector-smoke"], {
        env: fx.env,
        cwd: fx.home.cwd,
      });
      assert.equal(made.code, 0, made.stderr);
      // The inspector reads its own name from "../package.json" when that exists beside its working dir.
      await Deno.writeTextFile(
        path.join(fx.home.cwd, "..", "package.json"),
        '{"name":"x","version":"0.0.0"}',
      );
      const serve = [Deno.execPath(), ...cliCommand(["serve", "--toolsets", "all"])];
      const call = async (args: string[]) => {
        const r = await inspector([...serve, ...args], fx.env, fx.home.cwd);
        assert.equal(r.code, 0, `inspector ${args.join(" ")}: ${r.stderr}\n${r.stdout}`);
        return JSON.parse(r.stdout);
      };
      const [tools, listed, resources, prompts] = await Promise.all([
        call(["--method", "tools/list"]),
        call(["--method", "tools/call", "--tool-name", "bucket_list", "--tool-arg", "limit=5"]),
        call(["--method", "resources/list"]),
        call(["--method", "prompts/list"]),
      ]);
      const names = tools.tools.map((t: { name: string }) => t.name);
      assert.ok(names.includes("bucket_list") && names.includes("issue_list"), names.join(", "));
      assert.notEqual(listed.isError, true, JSON.stringify(listed));
      const keys = listed.structuredContent.items.map((b: { bucketKey: string }) => b.bucketKey);
      assert.deepEqual(keys, ["inspector-smoke"]);
      assert.ok(
        Array.isArray(resources.resources) && resources.resources.length > 0,
        JSON.stringify(resources),
      );
      assert.ok(Array.isArray(prompts.prompts) && prompts.prompts.length > 0, JSON.stringify(prompts));
    } finally {
      await fx.close();
    }
  },
});

/**
 * Completion values read from the declarations (command/decl.ts `complete`), and the sources that
 * answer them (front/complete_sources.ts): regions and topics from the code's tables, profiles from
 * config.json, nothing remote without credentials; never an error.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { commandTree } from "../../src/front/describe.ts";
import { sourceValues } from "../../src/front/complete_sources.ts";
import { BUCKET_REGIONS, DATA_CENTRES } from "../../src/aps/regions.ts";
import { HELP_TOPICS } from "../../src/command/global_options.ts";
import { COMPLETION_SOURCES } from "../../src/core/completion_sources.ts";
import type { CommandSpec } from "../../src/pipeline/command.ts";

/** Every command of the tree with its words. */
function* commands(cmd: CommandSpec, words: string[] = []): Generator<[string, CommandSpec]> {
  yield [words.join(" ") || "diazo", cmd];
  for (const sub of cmd.subcommands) yield* commands(sub, [...words, sub.name]);
}

Deno.test("the declarations say where values complete from: regions, profiles, buckets, projects", async () => {
  const tree = await commandTree();
  const seen = new Map<string, Set<string>>();
  const note = (what: string, source: string | undefined) =>
    seen.set(what, (seen.get(what) ?? new Set()).add(source ?? "none"));
  for (const [where, cmd] of commands(tree)) {
    for (const o of cmd.options) {
      if (o.complete) assert.ok(o.complete in COMPLETION_SOURCES, `${where} ${o.long}`);
      if (["--region", "--profile", "--project", "--bucket"].includes(o.long ?? "")) {
        note(
          `${o.long}${o.long === "--region" && where.match(/^(bucket|oss)\b/) ? " (storage)" : ""}`,
          o.complete,
        );
      }
    }
    for (const a of cmd.arguments) {
      if (a.complete) assert.ok(a.complete in COMPLETION_SOURCES, `${where} <${a.name}>`);
      if (a.name === "bucketKey" && !where.startsWith("bucket create")) note("<bucketKey>", a.complete);
    }
  }
  assert.deepEqual(Object.fromEntries([...seen].map(([k, v]) => [k, [...v]])), {
    "--region": ["region"],
    "--region (storage)": ["bucket-region"],
    "--profile": ["profile"],
    "--project": ["project"],
    "--bucket": ["bucket"],
    "<bucketKey>": ["bucket"],
  });
});

Deno.test("regions and help topics come from the tables the code reads", async () => {
  const input = { env: {}, cwd: "/" };
  assert.deepEqual((await sourceValues("region", input)).map((c) => c.value), [...DATA_CENTRES]);
  assert.deepEqual((await sourceValues("bucket-region", input)).map((c) => c.value), [...BUCKET_REGIONS]);
  assert.deepEqual(
    await sourceValues("topic", input),
    Object.entries(HELP_TOPICS).map(([value, description]) => ({ value, description })),
  );
});

Deno.test("profiles come from config.json, the active one said so; a broken file gives none", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-complete-" });
  try {
    const env = { DIAZO_CONFIG_DIR: dir, DIAZO_CACHE_DIR: path.join(dir, "cache") };
    await Deno.writeTextFile(
      path.join(dir, "config.json"),
      JSON.stringify({ active_profile: "b", profiles: { a: { client_secret: "s3cr3t-value" }, b: {} } }),
    );
    const got = await sourceValues("profile", { env, cwd: dir });
    assert.deepEqual(got, [
      { value: "a", description: "profile" },
      { value: "b", description: "the active profile" },
    ]);
    assert.ok(!JSON.stringify(got).includes("s3cr3t"), "never a secret");
    await Deno.writeTextFile(path.join(dir, "config.json"), "{ not json");
    assert.deepEqual(await sourceValues("profile", { env, cwd: dir }), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("remote sources without credentials: no values, no cache, no error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-complete-" });
  try {
    const env = {
      DIAZO_CONFIG_DIR: dir,
      DIAZO_STATE_DIR: path.join(dir, "state"),
      DIAZO_CACHE_DIR: path.join(dir, "cache"),
      DIAZO_TOKEN_STORE: "file",
      DIAZO_BASE_URL: "http://127.0.0.1:9", // never asked: there is no app to ask as
    };
    assert.deepEqual(await sourceValues("bucket", { env, cwd: dir }), []);
    assert.deepEqual(await sourceValues("project", { env, cwd: dir, profile: "nobody" }), []);
    assert.equal(await Deno.stat(path.join(dir, "cache")).then(() => true, () => false), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** e2e: pre_/post_ hooks from plugins.json around real commands against the sandbox. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { json, spawnDiazo } from "./harness.ts";
import { extHome, readEnvDump, sandboxProfile } from "./ext_helpers.ts";

const SECRET_ENV_NAMES = ["SVC_CLIENT_SECRET", "APS_CLIENT_SECRET"];

async function lines(file: string): Promise<string[]> {
  return (await Deno.readTextFile(file)).trimEnd().split("\n");
}

async function exists(file: string): Promise<boolean> {
  return await Deno.stat(file).then(() => true, () => false);
}

Deno.test("hooks: pre hooks in order, then the command, then post hooks; DIAZO_* context; stdout still parses", async () => {
  const x = await extHome();
  const sb = await sandboxProfile(x);
  try {
    const env = x.env();
    assert.equal((await spawnDiazo(["bucket", "create", "--key", "hook-bucket"], { env })).code, 0);
    await Deno.writeTextFile(x.file("model.txt"), "original\n");
    await x.pluginsJson({
      hooks: {
        pre_upload: [
          'echo "1 $DIAZO_HOOK_NAME" >> log.txt',
          'echo "changed by the pre hook" > "$DIAZO_FILE"',
          "echo noise-on-stdout",
        ],
        pre_object_upload: [
          'echo "2 $DIAZO_HOOK_NAME $DIAZO_HOOK_COMMAND" >> log.txt; env | grep ^DIAZO_ > pre_env.txt',
        ],
        post_upload: [
          'echo "3 $DIAZO_HOOK_NAME $DIAZO_HOOK_STATUS $DIAZO_EXIT_CODE" >> log.txt; env > post_env.txt',
          'cp "$DIAZO_RESULT_JSON" result.json; echo "$DIAZO_RESULT_JSON" > result_path.txt; echo post-noise; echo to-stderr >&2',
        ],
        post_object_upload: ['echo "4 $DIAZO_HOOK_NAME" >> log.txt'],
        post_bucket_create: ["echo never >> log.txt"],
      },
    });
    const r = await spawnDiazo(["object", "upload", "hook-bucket", "model.txt", "-o", "json"], {
      env,
      cwd: x.home.cwd,
    });
    assert.equal(r.code, 0, r.stderr);
    const out = json<{ objectKey: string; urn: string; size: number; sha1: string }>(r);
    const changed = "changed by the pre hook\n";
    assert.equal(out.size, changed.length, "the pre hook ran before the upload");
    assert.equal(out.sha1, createHash("sha1").update(changed).digest("hex"));
    assert.deepEqual(await lines(x.file("log.txt")), [
      "1 pre_upload",
      "2 pre_object_upload object upload",
      "3 post_upload success 0",
      "4 post_object_upload",
    ]);

    const pre = await readEnvDump(x.file("pre_env.txt"));
    assert.equal(pre.DIAZO_BUCKET, "hook-bucket");
    assert.equal(pre.DIAZO_FILE, "model.txt");
    assert.equal(pre.DIAZO_HOOK_STATUS, undefined);
    assert.equal(pre.DIAZO_RESULT_JSON, undefined);
    const post = await readEnvDump(x.file("post_env.txt"));
    assert.equal(post.DIAZO_HOOK_NAME, "post_upload");
    assert.equal(post.DIAZO_HOOK_COMMAND, "object upload");
    assert.equal(post.DIAZO_OBJECT_KEY, "model.txt");
    assert.equal(post.DIAZO_URN, out.urn);
    assert.equal(post.DIAZO_BUCKET, "hook-bucket");
    assert.deepEqual(
      JSON.parse(await Deno.readTextFile(x.file("result.json"))),
      out,
      "DIAZO_RESULT_JSON holds the result",
    );
    const resultPath = (await Deno.readTextFile(x.file("result_path.txt"))).trim();
    assert.equal(await exists(resultPath), false, "the result file is deleted afterwards");

    assert.doesNotMatch(r.stdout, /noise|to-stderr/);
    assert.match(r.stderr, /noise-on-stdout/);
    assert.match(r.stderr, /post-noise/);
    assert.match(r.stderr, /to-stderr/);

    // Secrets: the profile's client secret and the token are nowhere in a hook's environment.
    const dumped = await Deno.readTextFile(x.file("post_env.txt"));
    assert.ok(!dumped.includes("diazo-sandbox-secret"));
    assert.doesNotMatch(dumped, /eyJ[\w-]{8,}\.eyJ/);
    for (const name of SECRET_ENV_NAMES) assert.equal(post[name], undefined);
  } finally {
    await sb.close();
    await x.close();
  }
});

Deno.test("a failing hook is logged and changes nothing; post_upload runs after success only, post_translate either way", async () => {
  const x = await extHome();
  const sb = await sandboxProfile(x);
  try {
    const env = x.env();
    await Deno.writeTextFile(x.file("a.txt"), "a\n");
    await x.pluginsJson({
      hooks: {
        pre_bucket_create: ["exit 9", "echo still-runs >> log.txt"],
        post_bucket_create: ["false"],
        pre_upload: ["echo pre_upload >> log.txt"],
        post_upload: ["echo post_upload >> log.txt"],
        post_translate: ['echo "$DIAZO_HOOK_NAME $DIAZO_HOOK_STATUS $DIAZO_EXIT_CODE $DIAZO_URN" >> log.txt'],
      },
    });
    const made = await spawnDiazo(["bucket", "create", "--key", "hook-fail", "-o", "json"], {
      env,
      cwd: x.home.cwd,
    });
    assert.equal(made.code, 0, made.stderr);
    assert.equal(json<{ bucketKey: string }>(made).bucketKey, "hook-fail");
    assert.match(made.stderr, /warning: hook pre_bucket_create: `exit 9` exited with 9/);
    assert.match(made.stderr, /warning: hook post_bucket_create: `false` exited with 1/);

    const missing = await spawnDiazo(["object", "upload", "no-such-bucket", "a.txt"], {
      env,
      cwd: x.home.cwd,
    });
    assert.equal(missing.code, 4, "the command's own exit code");
    const failedTranslate = await spawnDiazo(["translate", "not-a-urn!!"], { env, cwd: x.home.cwd });
    assert.equal(failedTranslate.code, 2);
    assert.match(failedTranslate.stderr, /error: Invalid URN/);
    assert.deepEqual(await lines(x.file("log.txt")), [
      "still-runs",
      "pre_upload",
      "post_translate failure 2 not-a-urn!!",
    ]);
  } finally {
    await sb.close();
    await x.close();
  }
});

/** Processes whose command line contains `needle`. */
async function processesWith(needle: string): Promise<string[]> {
  const found: string[] = [];
  for await (const e of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    const cmd = await Deno.readTextFile(`/proc/${e.name}/cmdline`).catch(() => "");
    if (cmd.replace(/\0/g, " ").includes(needle)) found.push(`${e.name}: ${cmd.replace(/\0/g, " ")}`);
  }
  return found;
}

Deno.test({
  name: "a hook that hangs is stopped by DIAZO_HOOK_TIMEOUT within 1 s of it, with its grandchildren",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const x = await extHome();
    const sb = await sandboxProfile(x);
    try {
      await x.pluginsJson({
        hooks: {
          pre_bucket_list: [
            "sleep 1000.5",
            "sh -c 'sleep 1000.25; echo never'",
            "(sleep 1000.75 &); sleep 1000.5",
          ],
          post_bucket_list: ["echo after >> log.txt"],
        },
      });
      const env = x.env({ DIAZO_HOOK_TIMEOUT: "1" });
      const t0 = performance.now();
      const baseline = await spawnDiazo(["bucket", "list", "--no-hooks", "-o", "json"], { env });
      const base = performance.now() - t0;
      assert.equal(baseline.code, 0, baseline.stderr);

      const t1 = performance.now();
      const r = await spawnDiazo(["--debug", "bucket", "list", "-o", "json"], { env, cwd: x.home.cwd });
      const elapsed = performance.now() - t1;
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(json(r), [], "stdout is still the command's data");
      const runs = [...r.stderr.matchAll(/debug: hook pre_bucket_list: sh -c '.*' → timed out in (\d+) ms/g)];
      assert.equal(runs.length, 3, r.stderr);
      for (const [, ms] of runs) {
        assert.ok(Number(ms) >= 1000 && Number(ms) < 2000, `stopped ${ms} ms after it started (timeout 1 s)`);
      }
      assert.equal((r.stderr.match(/timed out after 1 s and was stopped/g) ?? []).length, 3);
      assert.ok(
        elapsed < base + 3 * (1000 + 1000),
        `took ${Math.round(elapsed)} ms (baseline ${Math.round(base)} ms)`,
      );
      assert.deepEqual(await lines(x.file("log.txt")), ["after"], "the command and its post hook still ran");
      assert.deepEqual(await processesWith("sleep 1000."), [], "no hook process is left running");
    } finally {
      await sb.close();
      await x.close();
    }
  },
});

Deno.test("--no-hooks and DIAZO_NO_HOOKS=1 skip hooks; --debug shows each hook run", async () => {
  const x = await extHome();
  const sb = await sandboxProfile(x);
  try {
    await x.pluginsJson({ hooks: { pre_bucket_list: ["echo ran >> log.txt"] } });
    const env = x.env();
    const opts = { env, cwd: x.home.cwd };
    assert.equal((await spawnDiazo(["bucket", "list", "--no-hooks"], opts)).code, 0);
    assert.equal((await spawnDiazo(["--no-hooks", "bucket", "list"], opts)).code, 0);
    assert.equal(
      (await spawnDiazo(["bucket", "list"], { env: x.env({ DIAZO_NO_HOOKS: "1" }), cwd: x.home.cwd })).code,
      0,
    );
    assert.equal(await exists(x.file("log.txt")), false);
    const r = await spawnDiazo(["bucket", "list", "--debug"], opts);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /debug: hook pre_bucket_list: sh -c 'echo ran >> log.txt' → exit 0 in \d+ ms/);
    assert.deepEqual(await lines(x.file("log.txt")), ["ran"]);
  } finally {
    await sb.close();
    await x.close();
  }
});

Deno.test({
  name: "hooks: a pre_upload hook sees the object key given with --key in DIAZO_OBJECT_KEY",
  // sh syntax; the Windows group (tests/windows/smoke_test.ts) checks the same through cmd.exe.
  ignore: Deno.build.os === "windows",
  async fn() {
    const x = await extHome();
    const sb = await sandboxProfile(x);
    try {
      const env = x.env();
      assert.equal((await spawnDiazo(["bucket", "create", "--key", "hook-key-bucket"], { env })).code, 0);
      await Deno.writeTextFile(x.file("model.txt"), "m\n");
      await x.pluginsJson({ hooks: { pre_upload: ['echo "$DIAZO_OBJECT_KEY" > key.txt'] } });
      const r = await spawnDiazo(
        ["object", "upload", "hook-key-bucket", "model.txt", "--key", "renamed/by-key.txt"],
        { env, cwd: x.home.cwd },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await Deno.readTextFile(x.file("key.txt")), "renamed/by-key.txt\n");
    } finally {
      await sb.close();
      await x.close();
    }
  },
});

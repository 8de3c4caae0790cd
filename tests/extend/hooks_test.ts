import assert from "node:assert/strict";
import {
  hookEnv,
  hookNames,
  hookStopText,
  hookTimeoutMs,
  postHooksRun,
  subjectEnv,
} from "../../src/extend/hooks.ts";
import { encodeUrn, parseUrn } from "../../src/aps/urn.ts";

Deno.test("hookNames: short names where the platform's users expect them, then pre_<family>_<sub>", () => {
  assert.deepEqual(hookNames(["object", "upload"], "pre"), ["pre_upload", "pre_object_upload"]);
  assert.deepEqual(hookNames(["object", "upload"], "post"), ["post_upload", "post_object_upload"]);
  assert.deepEqual(hookNames(["translate", "start"], "pre"), ["pre_translate", "pre_translate_start"]);
  assert.deepEqual(hookNames(["translate"], "post"), ["post_translate"], "the `translate <urn>` shorthand");
  assert.deepEqual(hookNames(["auth", "login"], "pre"), ["pre_login", "pre_auth_login"]);
  assert.deepEqual(hookNames(["bucket", "create"], "pre"), ["pre_bucket_create"]);
  assert.deepEqual(hookNames(["object", "signed-url"], "post"), ["post_object_signed_url"]);
  assert.deepEqual(hookNames(["config", "profile", "create"], "pre"), ["pre_config_profile_create"]);
  assert.deepEqual(hookNames(["demo"], "pre"), ["pre_demo"]);
});

Deno.test("postHooksRun: after success only, except translate which runs after completion either way", () => {
  assert.equal(postHooksRun(["object", "upload"], 0), true);
  assert.equal(postHooksRun(["object", "upload"], 4), false);
  assert.equal(postHooksRun(["auth", "login"], 3), false);
  assert.equal(postHooksRun(["translate", "start"], 1), true);
  assert.equal(postHooksRun(["translate"], 5), true);
  assert.equal(postHooksRun(["translate", "status"], 1), false);
});

Deno.test("subjectEnv: bucket, object key, URN and file from the arguments and options", () => {
  assert.deepEqual(
    subjectEnv({
      commandPath: ["object", "upload"],
      args: { bucketKey: "b1", files: ["./a.obj", "./b.obj"] },
      options: {},
    }),
    { DIAZO_BUCKET: "b1", DIAZO_FILE: "./a.obj" },
  );
  assert.deepEqual(
    subjectEnv({ commandPath: ["bucket", "create"], args: {}, options: { key: "new-bucket", region: "US" } }),
    { DIAZO_BUCKET: "new-bucket" },
    "bucket create names its bucket with --key",
  );
  assert.deepEqual(
    subjectEnv({ commandPath: ["object", "list"], args: {}, options: { key: "not-a-bucket" } }),
    {},
    "--key means a bucket only for the bucket family",
  );
  assert.deepEqual(
    subjectEnv({
      commandPath: ["object", "upload"],
      args: { bucketKey: "b1", files: ["C:\\in\\a.obj"] },
      options: { key: "models/renamed.obj" },
    }),
    { DIAZO_BUCKET: "b1", DIAZO_OBJECT_KEY: "models/renamed.obj", DIAZO_FILE: "C:\\in\\a.obj" },
    "object upload names its object with --key: a pre_upload hook sees it",
  );
  assert.deepEqual(
    subjectEnv({ commandPath: ["translate"], args: { urn: "dXJu" }, options: {} }),
    { DIAZO_URN: "dXJu" },
  );
});

Deno.test("subjectEnv: a URN parsed or as typed, base64 or raw, names the same URN, bucket and key", () => {
  const raw = "urn:adsk.objects:os.object:b1/dir/a~.obj";
  // `padded`: the same URN in standard base64 with padding, another spelling parseUrn accepts.
  const want = { DIAZO_URN: encodeUrn(raw), DIAZO_BUCKET: "b1", DIAZO_OBJECT_KEY: "dir/a~.obj" };
  const padded = "dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6YjEvZGlyL2F+Lm9iag==";
  for (const urn of [parseUrn(raw), raw, encodeUrn(raw), padded]) {
    assert.deepEqual(subjectEnv({ commandPath: ["translate", "start"], args: { urn }, options: {} }), want);
    assert.deepEqual(subjectEnv({ commandPath: ["translate"], args: { urn }, options: {} }), want);
  }
  const other = "urn:adsk.wipprod:fs.file:vf.abc?version=1";
  assert.deepEqual(
    subjectEnv({ commandPath: ["translate"], args: { urn: other }, options: {} }),
    { DIAZO_URN: encodeUrn(other) },
    "a URN of no OSS object names no bucket or key",
  );
  assert.deepEqual(
    subjectEnv({
      commandPath: ["object", "download"],
      args: { bucketKey: "b1", objectKeys: ["k1", "k2"] },
      options: {},
    }),
    { DIAZO_BUCKET: "b1", DIAZO_OBJECT_KEY: "k1" },
  );
  assert.deepEqual(
    subjectEnv({
      commandPath: ["object", "upload"],
      args: { bucketKey: "b1", files: ["in/a.obj"] },
      options: { prefix: "m/" },
    }),
    { DIAZO_BUCKET: "b1", DIAZO_OBJECT_KEY: "m/a.obj", DIAZO_FILE: "in/a.obj" },
    "one file without --key: the key upload gives it",
  );
  assert.equal(
    subjectEnv({
      commandPath: ["object", "upload"],
      args: { bucketKey: "b1", files: ["d"] },
      options: { batch: true },
    })
      .DIAZO_OBJECT_KEY,
    undefined,
    "a batch names no single key",
  );
});

Deno.test("subjectEnv: the result (one record, or a list of one) wins over the arguments", () => {
  const args = { bucketKey: "b1", files: ["a.obj"] };
  const result = { bucketKey: "b1", objectKey: "a.obj", urn: "dXJuOmFkc2s", size: 3 };
  assert.deepEqual(subjectEnv({ commandPath: ["object", "upload"], args, options: {}, result }), {
    DIAZO_BUCKET: "b1",
    DIAZO_OBJECT_KEY: "a.obj",
    DIAZO_URN: "dXJuOmFkc2s",
    DIAZO_FILE: "a.obj",
  });
  assert.equal(
    subjectEnv({ commandPath: ["object", "upload"], args, options: {}, result: [result] }).DIAZO_URN,
    "dXJuOmFkc2s",
  );
  assert.equal(
    subjectEnv({ commandPath: ["object", "upload"], args, options: {}, result: [result, result] }).DIAZO_URN,
    undefined,
    "a list of several results names no single subject",
  );
});

Deno.test("hookEnv: name, command, status and exit code, result file; pre hooks get no status", () => {
  const pre = hookEnv({
    hookName: "pre_upload",
    commandPath: ["object", "upload"],
    args: { bucketKey: "b1", files: ["a.obj"] },
    options: {},
  });
  assert.deepEqual(pre, {
    DIAZO_HOOK_NAME: "pre_upload",
    DIAZO_HOOK_COMMAND: "object upload",
    DIAZO_BUCKET: "b1",
    DIAZO_OBJECT_KEY: "a.obj",
    DIAZO_FILE: "a.obj",
  });
  const failed = hookEnv({
    hookName: "post_translate",
    commandPath: ["translate", "start"],
    args: { urn: "bad" },
    options: {},
    exitCode: 2,
  });
  assert.equal(failed.DIAZO_HOOK_STATUS, "failure");
  assert.equal(failed.DIAZO_EXIT_CODE, "2");
  assert.equal(failed.DIAZO_RESULT_JSON, undefined);
  const ok = hookEnv({
    hookName: "post_bucket_create",
    commandPath: ["bucket", "create"],
    args: {},
    options: { key: "k" },
    exitCode: 0,
    result: { bucketKey: "k" },
    resultFile: "/tmp/r.json",
  });
  assert.equal(ok.DIAZO_HOOK_STATUS, "success");
  assert.equal(ok.DIAZO_EXIT_CODE, "0");
  assert.equal(ok.DIAZO_RESULT_JSON, "/tmp/r.json");
  for (const v of Object.keys(ok)) assert.match(v, /^DIAZO_/, "only DIAZO_* variables are added");
});

Deno.test("hookTimeoutMs: seconds (fractions allowed) to ms; unset is undefined; anything else a usage error", () => {
  assert.equal(hookTimeoutMs("1"), 1000);
  assert.equal(hookTimeoutMs("0.25"), 250);
  assert.equal(hookTimeoutMs(undefined), undefined);
  assert.equal(hookTimeoutMs(""), undefined);
  for (const bad of ["0", "-3", "soon", "2147484", "1e300"]) {
    assert.throws(
      () => hookTimeoutMs(bad),
      /DIAZO_HOOK_TIMEOUT must be a positive number of seconds up to 2147483/,
    );
  }
});

Deno.test("hookStopText: what a timed-out hook's stop reached, in the words of the OS it ran on", () => {
  assert.equal(hookStopText("windows", {}), "was stopped with every process it started (taskkill /T)");
  assert.equal(
    hookStopText("windows", { killFailure: "taskkill exited with 128: ERROR: not found" }),
    "only its shell was stopped: the processes it started may still run (taskkill exited with 128: ERROR: not found)",
  );
  assert.doesNotMatch(hookStopText("windows", {}), /process group|session/, "no POSIX words on Windows");
  assert.equal(
    hookStopText("linux", { escaped: 2 }),
    "was stopped with every process it started (2 of them in a session of their own)",
  );
  assert.equal(hookStopText("linux", {}), "was stopped with every process it started");
  assert.match(hookStopText("darwin", {}), /^was stopped with its process group/);
});

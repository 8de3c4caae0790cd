/**
 * e2e: a hook is told the same subject (DIAZO_URN, DIAZO_BUCKET, DIAZO_OBJECT_KEY) whichever spelling of
 * a command was typed (src/extend/hooks.ts, subjectEnv), in process against a sandbox on port 0.
 */
import assert from "node:assert/strict";
import { diazo } from "./harness.ts";
import { extHome, readEnvDump, sandboxProfile } from "./ext_helpers.ts";
import { encodeUrn, objectIdOf } from "../../src/aps/urn.ts";

const SUBJECT = ["DIAZO_URN", "DIAZO_BUCKET", "DIAZO_OBJECT_KEY"] as const;

/** The subject variables of a dump, unset ones as undefined. */
function subjectOf(dump: Record<string, string>): Record<string, string | undefined> {
  return Object.fromEntries(SUBJECT.map((n) => [n, dump[n] === "" ? undefined : dump[n]]));
}

/** Runs `body` in a home with hooks (ext_helpers.ts) whose profile is a sandbox on port 0 with `bucket` created. */
async function inHookHome(
  bucket: string,
  body: (
    x: Awaited<ReturnType<typeof extHome>>,
    opts: { env: Record<string, string>; cwd: string },
  ) => Promise<void>,
): Promise<void> {
  const x = await extHome();
  const sb = await sandboxProfile(x);
  try {
    const opts = { env: x.env(), cwd: x.home.cwd };
    assert.equal((await diazo(["bucket", "create", "--key", bucket], opts)).code, 0);
    await body(x, opts);
  } finally {
    await sb.close();
    await x.close();
  }
}

Deno.test({
  name:
    "hooks: translate start <urn>, translate <urn> (base64 or raw) tell pre and post hooks the same URN, bucket and key",
  ignore: Deno.build.os === "windows",
  async fn() {
    await inHookHome("hook-urn", async (x, opts) => {
      await Deno.writeTextFile(x.file("part.obj"), "v 0 0 0\n");
      const up = await diazo(["object", "upload", "hook-urn", "part.obj", "--key", "dir/part.obj"], opts);
      assert.equal(up.code, 0, up.stderr);
      await x.pluginsJson({
        hooks: {
          pre_translate: ["env | grep ^DIAZO_ > pre.txt"],
          post_translate: ["env | grep ^DIAZO_ > post.txt"],
        },
      });
      const raw = objectIdOf("hook-urn", "dir/part.obj");
      const urn = encodeUrn(raw);
      const expected = { DIAZO_URN: urn, DIAZO_BUCKET: "hook-urn", DIAZO_OBJECT_KEY: "dir/part.obj" };
      for (
        const line of [
          ["translate", "start", urn],
          ["translate", urn],
          ["translate", "start", raw],
          ["translate", raw],
        ]
      ) {
        await Deno.remove(x.file("pre.txt")).catch(() => {});
        await Deno.remove(x.file("post.txt")).catch(() => {});
        const r = await diazo([...line, "--format", "obj", "-o", "json"], opts);
        assert.equal(r.code, 0, `${line.join(" ")}: ${r.stderr}`);
        const pre = await readEnvDump(x.file("pre.txt"));
        assert.deepEqual(subjectOf(pre), expected, `pre hook of ${line.join(" ")}`);
        assert.deepEqual(
          subjectOf(await readEnvDump(x.file("post.txt"))),
          expected,
          `post hook of ${line.join(" ")}`,
        );
      }
    });
  },
});

Deno.test({
  name:
    "hooks: object upload with --key, -k, or the key taken from the file name tells a pre_upload hook the key",
  ignore: Deno.build.os === "windows",
  async fn() {
    await inHookHome("hook-up", async (x, opts) => {
      await Deno.mkdir(x.file("in"));
      await Deno.writeTextFile(x.file("in/k.txt"), "k\n");
      await x.pluginsJson({
        hooks: {
          pre_upload: ["env | grep ^DIAZO_ > pre.txt"],
          post_object_upload: ["env | grep ^DIAZO_ > post.txt"],
        },
      });
      const cases: [string[], string][] = [
        [["object", "upload", "hook-up", "in/k.txt", "--key", "models/k.txt"], "models/k.txt"],
        [["object", "upload", "hook-up", "in/k.txt", "-k", "models/k.txt"], "models/k.txt"],
        [["object", "upload", "--key=models/k.txt", "hook-up", "in/k.txt"], "models/k.txt"],
        [["object", "upload", "hook-up", "in/k.txt", "--prefix", "models/"], "models/k.txt"],
        [["object", "upload", "hook-up", "in/k.txt"], "k.txt"],
      ];
      for (const [line, key] of cases) {
        await Deno.remove(x.file("pre.txt")).catch(() => {});
        await Deno.remove(x.file("post.txt")).catch(() => {});
        const r = await diazo([...line, "-o", "json"], opts);
        assert.equal(r.code, 0, `${line.join(" ")}: ${r.stderr}`);
        const expected = {
          DIAZO_URN: encodeUrn(objectIdOf("hook-up", key)),
          DIAZO_BUCKET: "hook-up",
          DIAZO_OBJECT_KEY: key,
        };
        const pre = await readEnvDump(x.file("pre.txt"));
        assert.deepEqual(
          { ...subjectOf(pre), DIAZO_URN: expected.DIAZO_URN },
          expected,
          `pre hook of ${line.join(" ")}`,
        );
        assert.equal(pre.DIAZO_URN, undefined, "no URN before the object exists");
        assert.equal(pre.DIAZO_FILE, "in/k.txt");
        assert.deepEqual(
          subjectOf(await readEnvDump(x.file("post.txt"))),
          expected,
          `post hook of ${line.join(" ")}`,
        );
      }
    });
  },
});

/** e2e: `diazo pipeline run|validate|schema` — one CLI run executes every step, against the sandbox. */
import assert from "node:assert/strict";
import path from "node:path";
import { encodeUrn, objectIdOf } from "../../src/aps/urn.ts";
import { cliEnv, diazo, json, makeHome, requestLog, ROOT, sandboxEnv, withSandboxHome } from "./harness.ts";
import { CUBE_OBJ, mdFixture } from "./md_helpers.ts";
import { extHome, PROBE_PLUGIN, sandboxProfile } from "./ext_helpers.ts";

interface Report {
  pipeline: string;
  status: string;
  exitCode: number;
  steps: {
    index: number;
    name: string;
    status: string;
    exitCode: number | null;
    continueOnError: boolean;
    argv?: string[];
    result?: Record<string, unknown> | null;
    error?: string;
  }[];
}

const THREE_STEPS = `
name: upload-translate-status
variables:
  bucket: not-this-one     # --var bucket=... overrides it
  file: cube.obj
steps:
  - name: Upload
    id: upload
    command: object upload \${{ vars.bucket }} \${{ vars.file }}
  - name: Translate
    id: translate
    command: translate start \${{ steps.upload.result.urn }} --format obj --wait
  - name: Status
    command: translate status \${{ steps.upload.result.urn }}
`;

Deno.test("pipeline run: upload -> translate -> status in one process, a variable and a step result feeding the next steps", async () => {
  const fx = await mdFixture();
  try {
    await Deno.writeTextFile(path.join(fx.home.cwd, "cube.obj"), CUBE_OBJ);
    await Deno.writeTextFile(path.join(fx.home.cwd, "p.yaml"), THREE_STEPS);
    const r = await diazo(["pipeline", "run", "p.yaml", "--var", `bucket=${fx.bucket}`, "-o", "json"], {
      env: fx.env,
      cwd: fx.home.cwd,
    });
    assert.equal(r.code, 0, r.stderr);
    const report = json<Report>(r); // stdout is the report alone: the steps' own data stays out of it
    const urn = encodeUrn(objectIdOf(fx.bucket, "cube.obj"));
    assert.equal(report.status, "ok");
    assert.deepEqual(report.steps.map((s) => [s.name, s.status, s.exitCode]), [
      ["Upload", "ok", 0],
      ["Translate", "ok", 0],
      ["Status", "ok", 0],
    ]);
    assert.deepEqual(report.steps[0].argv, ["object", "upload", fx.bucket, "cube.obj"]);
    assert.equal(report.steps[0].result?.urn, urn);
    assert.deepEqual(report.steps[1].argv, ["translate", "start", urn, "--format", "obj", "--wait"]);
    assert.equal(report.steps[1].result?.status, "success");
    assert.deepEqual(report.steps[2].argv, ["translate", "status", urn]);
    assert.equal(report.steps[2].result?.status, "success");
    assert.equal(report.steps[2].result?.percent, 100);

    const log = await requestLog(fx.sb.url);
    const objectPath = `/oss/v2/buckets/${fx.bucket}/objects/cube.obj/signeds3upload`;
    assert.ok(
      log.some((e) => e.method === "POST" && e.path === objectPath && e.status === 200),
      "upload completed",
    );
    const jobs = log.filter((e) => e.method === "POST" && e.path === "/modelderivative/v2/designdata/job");
    assert.equal(jobs.length, 1, "one translation job");
    const manifests = log.filter((e) => e.path === `/modelderivative/v2/designdata/${urn}/manifest`);
    assert.ok(manifests.length >= 2, "translate --wait polled and status read the manifest");
    assert.ok(log.indexOf(jobs[0]) < log.indexOf(manifests.at(-1)!), "status came after the job");

    assert.match(r.stderr, /==> \[1\/3\] Upload: object upload e2e-md cube\.obj/);
    assert.match(r.stderr, /Pipeline 'upload-translate-status' finished: 3 step\(s\), 0 failed/);
  } finally {
    await fx.close();
  }
});

const FAILING = (continueOnError: boolean) => `
name: failing
steps:
  - name: Info of a missing object
    command: object info e2e-md missing.obj
    continue_on_error: ${continueOnError}
  - name: List buckets
    command: bucket list
`;

Deno.test("pipeline run: a failing step stops the pipeline with its exit code; continue_on_error runs the rest", async () => {
  const fx = await mdFixture();
  try {
    const file = path.join(fx.home.cwd, "fail.yaml");
    await Deno.writeTextFile(file, FAILING(false));
    const stop = await diazo(["pipeline", "run", file, "-o", "json"], { env: fx.env });
    assert.equal(stop.code, 4, stop.stderr);
    const stopped = json<Report>(stop);
    assert.equal(stopped.status, "failed");
    assert.equal(stopped.exitCode, 4);
    assert.deepEqual(stopped.steps.map((s) => [s.status, s.exitCode]), [["failed", 4], ["not_run", null]]);
    assert.match(stopped.steps[0].error ?? "", /Object not found: missing\.obj/);
    assert.match(stop.stderr, /error: Object not found: missing\.obj/);
    const listed = (await requestLog(fx.sb.url)).filter((e) =>
      e.method === "GET" && e.path === "/oss/v2/buckets"
    );
    assert.equal(listed.length, 0, "the step after the failure did not run");

    await Deno.writeTextFile(file, FAILING(true));
    const go = await diazo(["pipeline", "run", file, "-o", "json"], { env: fx.env });
    assert.equal(go.code, 0, go.stderr);
    const went = json<Report>(go);
    assert.equal(went.status, "ok");
    assert.deepEqual(went.steps.map((s) => [s.status, s.exitCode, s.continueOnError]), [
      ["failed", 4, true],
      ["ok", 0, false],
    ]);
    assert.ok(Array.isArray(went.steps[1].result), "bucket list's result is in the report");
    const after = (await requestLog(fx.sb.url)).filter((e) =>
      e.method === "GET" && e.path === "/oss/v2/buckets"
    );
    assert.ok(after.length >= 1, "the next step ran");
    assert.match(go.stderr, /FAILED \(allowed\)\s+1\. Info of a missing object .*exit 4, continued/);
    assert.match(go.stderr, /finished: 2 step\(s\), 0 failed, 1 allowed to fail, /);
  } finally {
    await fx.close();
  }
});

Deno.test("pipeline run: in human mode the steps' data reaches stdout and the summary stderr", async () => {
  const fx = await mdFixture();
  try {
    const file = path.join(fx.home.cwd, "list.yaml");
    await Deno.writeTextFile(
      file,
      "name: list\nsteps:\n  - name: Buckets\n    command: bucket list -o json\n",
    );
    const r = await diazo(["pipeline", "run", file, "-o", "table"], { env: fx.env });
    assert.equal(r.code, 0, r.stderr);
    const buckets = json<{ bucketKey: string }[]>(r); // the step's own -o json wins over the inherited format
    assert.ok(buckets.some((b) => b.bucketKey === fx.bucket));
    assert.match(r.stderr, /ok\s+1\. Buckets/);
  } finally {
    await fx.close();
  }
});

Deno.test("pipeline run --dry-run executes nothing: the sandbox sees no request, no file is written", () =>
  withSandboxHome(async ({ sb, home }) => {
    const file = path.join(home.cwd, "p.yaml");
    await Deno.writeTextFile(
      file,
      "name: dry\nvariables: { bucket: b1, file: cube.obj }\nsteps:\n" +
        "  - { name: Generate, command: generate obj --out gen.obj }\n" + THREE_STEPS.split("steps:\n")[1],
    );
    const r = await diazo(["pipeline", "run", file, "--dry-run", "--var", "bucket=my bucket", "-o", "json"], {
      env: sandboxEnv(home, sb.url),
      cwd: home.cwd,
    });
    assert.equal(r.code, 0, r.stderr);
    const plan = json<{ command: string; argv: string[] }[]>(r);
    assert.deepEqual(plan.map((s) => s.command), [
      "generate obj --out gen.obj",
      "object upload 'my bucket' cube.obj",
      "translate start <steps.upload.result.urn> --format obj --wait",
      "translate status <steps.upload.result.urn>",
    ]);
    assert.deepEqual(plan[1].argv, ["object", "upload", "my bucket", "cube.obj"]);
    assert.match(r.stderr, /nothing was executed/);
    assert.deepEqual(await requestLog(sb.url), []);
    await assert.rejects(Deno.stat(path.join(home.cwd, "gen.obj")), Deno.errors.NotFound);
  }));

Deno.test("pipeline validate: every mistake at once with file:line:col against the real command tree (exit 2)", async () => {
  const home = await makeHome();
  try {
    const file = path.join(home.cwd, "bad.yaml");
    const lines = [
      /* 1 */ "name: bad",
      /* 2 */ "variables: { bucket: b }",
      /* 3 */ "steps:",
      /* 4 */ "  - name: Upload",
      /* 5 */ "    id: up",
      /* 6 */ "    command: object upload ${{ vars.bukket }} a.obj --prefx x/",
      /* 7 */ "  - name: Translate",
      /* 8 */ "    command: translate start ${{ steps.st.result.urn }} --formt svf2",
      /* 9 */ "    continue_on_eror: true",
      /* 10 */ "  - name: Status",
      /* 11 */ "    id: st",
      /* 12 */ "    command: buckt list ${{ steps.nope.result.urn }}",
      /* 13 */ "  - name: Nothing",
      /* 14 */ "  - name: Format",
      /* 15 */ "    command: bucket list -o jsn",
    ];
    await Deno.writeTextFile(file, lines.join("\n") + "\n");
    const r = await diazo(["pipeline", "validate", "bad.yaml", "-o", "json"], {
      env: cliEnv(home),
      cwd: home.cwd,
    });
    assert.equal(r.code, 2, r.stderr);
    const expected: [number, number, RegExp][] = [
      [6, 28, /undefined variable 'bukket' \(did you mean 'bucket'\?\)/],
      [6, 53, /unknown option '--prefx' \(did you mean '--prefix'\?\)/],
      [8, 30, /step 'st' runs later \(step 3\): reference only earlier steps/],
      [8, 57, /unknown option '--formt' \(did you mean '--format'\?\)/],
      [9, 5, /unknown key 'continue_on_eror' in step 2 \(did you mean 'continue_on_error'\?\)/],
      [12, 14, /unknown command 'buckt' \(did you mean 'bucket'\?\)/],
      [12, 25, /no step has id 'nope'/],
      [13, 5, /step 4 has no `command`/],
      [15, 29, /'jsn' is not a value of -o: json, yaml, table, csv, text \(did you mean 'json'\?\)/],
    ];
    for (const [line, col, message] of expected) {
      const head = new RegExp(`^bad\\.yaml:${line}:${col}: ${message.source}$`, "m");
      assert.match(r.stderr, head);
      assert.ok(r.stderr.includes(` ${line} | ${lines[line - 1]}\n`), `the offending line ${line} is shown`);
    }
    assert.match(r.stderr, /error: bad\.yaml is not a valid pipeline: 9 problems/);
    const out = json<{ valid: boolean; problems: { line: number; column: number }[] }>(r);
    assert.equal(out.valid, false);
    assert.deepEqual(out.problems.map((p) => [p.line, p.column]), expected.map(([l, c]) => [l, c]));

    const run = await diazo(["pipeline", "run", "bad.yaml"], { env: cliEnv(home), cwd: home.cwd });
    assert.equal(run.code, 2);
    assert.doesNotMatch(run.stderr, /==>/, "an invalid file never starts");
  } finally {
    await home.cleanup();
  }
});

Deno.test("pipeline: a missing file and a file that is not YAML are usage errors with a position", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home);
    for (const sub of ["run", "validate"]) {
      const r = await diazo(["pipeline", sub, "nope.yaml"], { env, cwd: home.cwd });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^error: File not found: nope\.yaml$/m);
    }
    await Deno.writeTextFile(path.join(home.cwd, "broken.yaml"), "name: x\nsteps: [\n  - oops: {\n");
    const r = await diazo(["pipeline", "run", "broken.yaml"], { env, cwd: home.cwd });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^broken\.yaml:\d+:\d+: /m);
    assert.match(r.stderr, /error: broken\.yaml is not a valid pipeline/);
  } finally {
    await home.cleanup();
  }
});

Deno.test({
  name:
    "pipeline run: shell steps need --allow-shell, get variables in the environment, and pass their exit code",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const home = await makeHome();
    try {
      const file = path.join(home.cwd, "sh.yaml");
      await Deno.writeTextFile(
        file,
        [
          "name: sh",
          "variables: { word: 'it''s; fine' }",
          "steps:",
          "  - name: Write",
          '    shell: printf %s "$DIAZO_VAR_word" > out.txt',
          "  - name: Fail",
          "    shell: exit 3",
          "  - name: Never",
          "    shell: touch never.txt",
        ].join("\n") + "\n",
      );
      const env = cliEnv(home);
      const refused = await diazo(["pipeline", "run", "sh.yaml"], { env, cwd: home.cwd });
      assert.equal(refused.code, 2);
      assert.match(
        refused.stderr,
        /sh\.yaml:5:5: a `shell` step runs only with `pipeline run --allow-shell`/,
      );
      await assert.rejects(Deno.stat(path.join(home.cwd, "out.txt")), Deno.errors.NotFound);

      const r = await diazo(["pipeline", "run", "sh.yaml", "--allow-shell", "-o", "json"], {
        env,
        cwd: home.cwd,
      });
      assert.equal(r.code, 3, r.stderr);
      assert.equal(await Deno.readTextFile(path.join(home.cwd, "out.txt")), "it's; fine");
      assert.deepEqual(json<Report>(r).steps.map((s) => s.status), ["ok", "failed", "not_run"]);
      await assert.rejects(Deno.stat(path.join(home.cwd, "never.txt")), Deno.errors.NotFound);
    } finally {
      await home.cleanup();
    }
  },
});

Deno.test("the example pipeline runs against the sandbox; run again, its bucket step is reported as allowed to fail", async () => {
  const fx = await mdFixture();
  try {
    const example = path.join(ROOT, "examples/pipelines/upload-translate.yaml");
    const run = () =>
      diazo(["pipeline", "run", example, "--var", "bucket=e2e-example", "-o", "json"], {
        env: fx.env,
        cwd: fx.home.cwd,
      });
    const r = await run();
    assert.equal(r.code, 0, r.stderr);
    const report = json<Report>(r);
    assert.deepEqual(report.steps.map((s) => s.status), ["ok", "ok", "ok", "ok", "ok"]);
    assert.equal(report.steps[4].result?.status, "success");
    assert.match(r.stderr, /finished: 5 step\(s\), 0 failed, \d+\.\d s\n/);
    const jobs = (await requestLog(fx.sb.url, "/modelderivative/v2/designdata/job")).filter((e) =>
      e.status < 300
    );
    assert.equal(jobs.length, 1);
    // The README's file says an existing bucket is fine: the second run did what it should.
    const again = await run();
    assert.equal(again.code, 0, again.stderr);
    const second = json<Report>(again);
    assert.equal(second.status, "ok");
    assert.deepEqual(second.steps.map((s) => [s.status, s.continueOnError]), [
      ["ok", false],
      ["failed", true],
      ["ok", false],
      ["ok", false],
      ["ok", false],
    ]);
    assert.match(
      again.stderr,
      /Pipeline 'upload-translate' finished: 5 step\(s\), 0 failed, 1 allowed to fail, /,
    );
    assert.match(again.stderr, /\n {2}FAILED \(allowed\) +2\. Create the bucket .*exit 6, continued/);
    const column = (n: number) =>
      again.stderr.split("\n").find((l) => l.includes(` ${n}. `))!.indexOf(`${n}. `);
    assert.deepEqual(
      [2, 3, 4, 5].map(column),
      [1, 1, 1, 1].map(() => column(1)),
      "the marks keep one column",
    );
    assert.doesNotMatch(again.stderr, /, 1 failed/);
  } finally {
    await fx.close();
  }
});

Deno.test("pipeline schema prints the committed schema; the example pipeline validates", async () => {
  const home = await makeHome();
  try {
    const r = await diazo(["pipeline", "schema"], { env: cliEnv(home) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, await Deno.readTextFile(path.join(ROOT, "schemas/pipeline.schema.json")));
    const schema = json<{ required: string[]; $defs: { step: { properties: Record<string, unknown> } } }>(r);
    assert.deepEqual(schema.required, ["name", "steps"]);
    assert.ok("continue_on_error" in schema.$defs.step.properties);

    const v = await diazo(
      ["pipeline", "validate", path.join(ROOT, "examples/pipelines/upload-translate.yaml"), "-o", "json"],
      { env: cliEnv(home) },
    );
    assert.equal(v.code, 0, v.stderr);
    assert.equal(json<{ valid: boolean }>(v).valid, true);
  } finally {
    await home.cleanup();
  }
});

Deno.test("pipeline: a step may use an alias of plugins.json (checked as its expansion); a plugin is pointed to a shell step", async () => {
  const x = await extHome();
  const sb = await sandboxProfile(x);
  try {
    // A plugin on Windows needs a PATHEXT extension: a `#!/bin/sh` file without one is no plugin there.
    if (Deno.build.os === "windows") await x.script("diazo-hello.cmd", "@echo off\r\necho hello\r\n");
    else await x.script("diazo-hello", PROBE_PLUGIN);
    await x.pluginsJson({ aliases: { mkb: "bucket create --key $1", "ls-in": "object list $1 --limit 5" } });
    await Deno.writeTextFile(
      x.file("a.yaml"),
      [
        "name: with-aliases",
        "variables: { bucket: e2e-alias-pipe }",
        "steps:",
        "  - name: Make",
        "    id: mk",
        "    command: mkb ${{ vars.bucket }} --policy transient",
        "  - name: List",
        "    command: ls-in ${{ steps.mk.result.bucketKey }}",
        "",
      ].join("\n"),
    );
    const r = await diazo(["pipeline", "run", "a.yaml", "-o", "json"], { env: x.env(), cwd: x.home.cwd });
    assert.equal(r.code, 0, r.stderr);
    const report = json<Report>(r);
    assert.deepEqual(report.steps.map((s) => [s.name, s.status]), [["Make", "ok"], ["List", "ok"]]);
    assert.equal(report.steps[0].result?.bucketKey, "e2e-alias-pipe");
    assert.deepEqual(report.steps[1].result, []);
    const created = await requestLog(sb.url, "/oss/v2/buckets");
    assert.equal(created.filter((e) => e.method === "POST" && e.status === 200).length, 1);

    await Deno.writeTextFile(
      x.file("p.yaml"),
      "name: plugin-step\nsteps:\n  - name: Hello\n    command: hello world\n  - name: Typo\n    command: mkb\n",
    );
    const v = await diazo(["pipeline", "validate", "p.yaml"], { env: x.env(), cwd: x.home.cwd });
    assert.equal(v.code, 2, v.stderr);
    assert.match(
      v.stderr,
      /^p\.yaml:4:14: 'hello' is a plugin: .*\(shell: diazo hello \.\.\.\) with --allow-shell$/m,
    );
    assert.match(v.stderr, /^p\.yaml:6:14: alias 'mkb' needs 1 argument \(\$1\.\.\$1\), got 0$/m);
    assert.equal(
      await Deno.stat(x.file("env.txt")).then(() => true, () => false),
      false,
      "the plugin never ran",
    );
  } finally {
    await sb.close();
    await x.close();
  }
});

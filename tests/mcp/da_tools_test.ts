/**
 * The Design Automation tools through the SDK's client against the sandbox: a work item run on a
 * local input, its output fetched into the allowed directory, progress reported while it runs.
 */
import assert from "node:assert/strict";
import path from "node:path";
import type { CallToolResult } from "../../src/mcp/sdk.ts";
import { diazo, openSandboxHome } from "../e2e/harness.ts";
import { fails, ok, startServe, textOf } from "./helpers.ts";

const NICK = "Diazo_Tools";

Deno.test("tools: da lists, a work item with a local input and output (progress reported), refused outside --allow-dir", async () => {
  const h = await openSandboxHome({ SVC_DA_NICKNAME: NICK, DIAZO_POLL_BASE_MS: "20" });
  try {
    await fetch(`${h.sb.url}/_sandbox/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ job_seconds: 0.3 }),
    }).then((r) => r.body?.cancel());
    // The activity is made with the CLI; the tools run it.
    const cli = (...args: string[]) => diazo(args, { env: h.env, cwd: h.home.cwd });
    await Deno.writeFile(path.join(h.home.cwd, "bundle.zip"), new Uint8Array(512));
    const bundle = await cli(
      "da",
      "appbundle-create",
      "--id",
      "CopyApp",
      "--engine",
      "Autodesk.AutoCAD+24",
      "--package",
      "bundle.zip",
      "--alias",
      "prod",
    );
    assert.equal(bundle.code, 0, bundle.stderr);
    const activity = await cli(
      "da",
      "activity",
      "create",
      "--id",
      "Copy",
      "--engine",
      "Autodesk.AutoCAD+24",
      "--appbundle",
      "CopyApp+prod",
      "--command",
      "run",
      "--param",
      "input:get:input.txt",
      "--param",
      "result:put:result.txt",
      "--alias",
      "prod",
    );
    assert.equal(activity.code, 0, activity.stderr);

    const allowed = path.join(h.home.cwd, "jobs");
    await Deno.mkdir(allowed);
    const input = new TextEncoder().encode("copy me\n".repeat(1000));
    await Deno.writeFile(path.join(allowed, "in.txt"), input);
    const serve = await startServe(h.env, ["--toolsets", "automation", "--allow-dir", allowed], h.home.cwd);
    try {
      assert.ok(
        (await ok(serve.client, "da_engine_list", {})).items.some((e: { id: string }) =>
          e.id.startsWith("Autodesk.AutoCAD")
        ),
      );
      assert.ok(
        (await ok(serve.client, "da_appbundle_list", {})).items.some((e: { id: string }) =>
          e.id === `${NICK}.CopyApp+prod`
        ),
      );
      assert.ok(
        (await ok(serve.client, "da_activity_list", {})).items.some((e: { id: string }) =>
          e.id === `${NICK}.Copy+prod`
        ),
      );

      const progress: string[] = [];
      const result = await serve.client.callTool(
        {
          name: "da_workitem_run",
          arguments: {
            activity: "Copy+prod",
            inputs: { input: { file: path.join(allowed, "in.txt") } },
            outputs: { result: { file: path.join(allowed, "out.txt") } },
          },
        },
        undefined,
        { onprogress: (p) => progress.push(p.message ?? "") },
      ) as CallToolResult;
      assert.ok(!result.isError, textOf(result));
      const wi = (result.structuredContent as {
        workitem: { status: string; id: string; outputs: { file: string }[] };
      }).workitem;
      assert.equal(wi.status, "success");
      assert.deepEqual(await Deno.readFile(path.join(allowed, "out.txt")), input, "the output came back");
      assert.ok(progress.some((m) => m.endsWith(": success")), progress.join("\n"));
      const again = await ok(serve.client, "da_workitem_status", { id: wi.id, wait: false });
      assert.equal(again.workitem.status, "success");

      // An output outside the allowed directory is refused before anything runs.
      const outside = await fails(serve.client, "da_workitem_run", {
        activity: "Copy+prod",
        inputs: { input: { file: path.join(allowed, "in.txt") } },
        outputs: { result: { file: path.join(h.home.cwd, "escaped.txt") } },
      });
      assert.match(outside.message, /outside the directories it was allowed/);
    } finally {
      await serve.close();
    }
  } finally {
    await h.close();
  }
});

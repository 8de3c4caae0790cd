/**
 * The official SDKs (`@aps_sdk/oss`, `model-derivative`, `data-management`, `construction-issues`) drive
 * the sandbox through the flows diazo offers: storage (bucket, upload, details, download), translation
 * (job, manifest), data management writes (hubs, projects, top folders, a folder), and issues (types,
 * create, partial update, comments). A client diazo did not write checks the sandbox.
 */
import assert from "node:assert/strict";
import { OssClient, Region as OssRegion } from "@aps_sdk/oss";
import { ModelDerivativeClient, View } from "@aps_sdk/model-derivative";
import { DataManagementClient } from "@aps_sdk/data-management";
import { IssuesClient } from "@aps_sdk/construction-issues";
import { seedAccount } from "../../src/sandbox/admin/store.ts";
import { token, withSandbox } from "../sandbox/helpers.ts";
import { login } from "../sandbox/oauth_helpers.ts";
import { sdkManagerFor } from "./sdk.ts";

Deno.test("official SDK: storage and translation (bucket, upload, details, download, job, manifest)", async () => {
  await withSandbox(async (sb) => {
    const accessToken = await token(sb, "bucket:create bucket:read data:read data:write data:create");
    const oss = new OssClient({ sdkManager: sdkManagerFor(sb) });
    const bucketKey = `sdk-bucket-${crypto.randomUUID().slice(0, 8)}`;
    const bucket = await oss.createBucket(OssRegion.Us, { bucketKey, policyKey: "transient" as never }, {
      accessToken,
    });
    assert.equal(bucket.bucketKey, bucketKey);
    const text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    const dir = await Deno.makeTempDir();
    try {
      const source = `${dir}/tri.obj`;
      await Deno.writeTextFile(source, text);
      const uploaded = await oss.uploadObject(bucketKey, "tri.obj", source, { accessToken });
      assert.equal(uploaded.objectKey, "tri.obj");
      const details = await oss.getObjectDetails(bucketKey, "tri.obj", { accessToken });
      assert.equal(details.size, text.length);
      const target = `${dir}/back.obj`;
      await oss.downloadObject(bucketKey, "tri.obj", target, { accessToken });
      // The SDK returns once the ranges are requested; their bytes reach the file after (it pipes them).
      for (let i = 0; i < 500 && (await Deno.stat(target)).size < text.length; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(await Deno.readTextFile(target), text);

      const md = new ModelDerivativeClient({ sdkManager: sdkManagerFor(sb) });
      const urn = btoa(details.objectId!).replace(/=+$/, "");
      const job = await md.startJob({
        input: { urn },
        output: { formats: [{ type: "svf2" as never, views: [View._3d, View._2d] }] },
      }, { accessToken });
      assert.equal(job.urn, urn);
      const manifest = await md.getManifest(urn, { accessToken });
      assert.equal(manifest.urn, urn);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("official SDK: data management (hubs, projects, top folders, a new folder)", async () => {
  await withSandbox(async (sb) => {
    const accessToken = await token(sb, "data:read data:create data:write");
    const dm = new DataManagementClient({ sdkManager: sdkManagerFor(sb) });
    const hubs = await dm.getHubs({ accessToken });
    const hub = hubs.data!.find((h) => h.id!.startsWith("b."))!;
    const projects = await dm.getHubProjects(hub.id!, { accessToken });
    const project = projects.data![0];
    const top = await dm.getProjectTopFolders(hub.id!, project.id!, { accessToken });
    const parent = top.data![0].id!;
    const folder = await dm.createFolder(project.id!, {
      jsonapi: { version: "1.0" as never },
      data: {
        type: "folders" as never,
        attributes: {
          name: "From the SDK",
          extension: { type: "folders:autodesk.bim360:Folder", version: "1.0" },
        },
        relationships: { parent: { data: { type: "folders" as never, id: parent } } },
      },
    } as never, { accessToken });
    assert.equal(folder.data?.attributes?.name, "From the SDK");
    const contents = await dm.getFolderContents(project.id!, parent, { accessToken });
    assert.ok(contents.data!.some((c) => c.id === folder.data!.id), "the new folder is listed");
  });
});

Deno.test("official SDK: issues (types, create, partial update, comment)", async () => {
  await withSandbox(async (sb) => {
    const { access_token: accessToken } = await login(sb, "data:read data:write");
    const projectId = [...seedAccount().projects.values()][0].id;
    const issues = new IssuesClient({ sdkManager: sdkManagerFor(sb) });
    const types = await issues.getIssuesTypes(projectId, { include: "subtypes", accessToken });
    const subtype = types.results![0].subtypes![0].id!;
    const created = await issues.createIssue(projectId, {
      title: "Loose railing",
      issueSubtypeId: subtype,
      status: "open" as never,
    }, { accessToken });
    assert.equal(created.title, "Loose railing");
    const patched = await issues.patchIssueDetails(
      projectId,
      created.id!,
      { title: "Railing fixed" } as never,
      {
        accessToken,
      },
    );
    assert.equal(patched.title, "Railing fixed");
    await issues.createComments(projectId, created.id!, { body: "Checked on site" }, { accessToken });
    const comments = await issues.getComments(projectId, created.id!, { accessToken });
    assert.ok(comments.results!.some((c) => c.body === "Checked on site"));
  });
});

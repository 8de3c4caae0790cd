/**
 * The download steps of the datamanagement.yaml contract plan (data_management_test.ts runs them after
 * the reads): a version's download formats, a download job made, polled while it works and once it
 * has finished (303 to the download), and the download itself, every answer checked against the file.
 */
import assert from "node:assert/strict";
import { expect, type Session, type Step, type World } from "./contract.ts";

/** Sets the sandbox's job time through its control API (not a platform call, not checked). */
async function jobSeconds(s: Session, seconds: number): Promise<void> {
  const a = await s.send("POST", `${s.sb.url}/_sandbox/config`, { json: { job_seconds: seconds } });
  assert.equal(a.status, 200, JSON.stringify(a.json));
}

/** The steps, keyed by operation, in the order they run. */
export const DM_DOWNLOAD_STEPS: Record<string, Step<World>> = {
  "GET /data/v1/projects/{project_id}/versions/{version_id}/downloadFormats": async (s, w) => {
    const op = "GET /data/v1/projects/{project_id}/versions/{version_id}/downloadFormats";
    const formats = (await expect(s, w, op, 200)).json;
    assert.equal(formats.data.id, w.version_id);
    w.file_type = formats.data.attributes.formats[0].fileType;
    await expect(s, w, op, 404, { params: { version_id: `${w.version_id.split("?")[0]}?version=99` } });
  },
  "POST /data/v1/projects/{project_id}/downloads": async (s, w) => {
    w.creator ??= await s.userToken("data:read data:create");
    await jobSeconds(s, 60);
    const created = await expect(
      s,
      { ...w, t: w.creator },
      "POST /data/v1/projects/{project_id}/downloads",
      202,
      {
        json: {
          jsonapi: { version: "1.0" },
          data: {
            type: "downloads",
            attributes: { format: { fileType: w.file_type } },
            relationships: { source: { data: { type: "versions", id: w.version_id } } },
          },
        },
        headers: { "content-type": "application/vnd.api+json" },
      },
    );
    assert.equal(created.json.data[0].attributes.status, "queued");
    w.job_id = created.json.data[0].id;
  },
  "GET /data/v1/projects/{project_id}/jobs/{job_id}": async (s, w) => {
    const op = "GET /data/v1/projects/{project_id}/jobs/{job_id}";
    assert.equal((await expect(s, w, op, 200)).json.data.attributes.status, "queued");
    const early = "GET /data/v1/projects/{project_id}/downloads/{download_id}";
    await expect(s, w, early, 404, { params: { download_id: w.job_id } });
    const advanced = await s.send("POST", `${s.sb.url}/_sandbox/clock`, { json: { advance_seconds: 61 } });
    assert.equal(advanced.status, 200);
    const done = await expect(s, w, op, 303);
    w.location = done.headers.get("location") ?? "";
    assert.match(w.location, new RegExp(`/downloads/${w.job_id}$`));
    await expect(s, w, op, 404, { params: { job_id: "00000000-0000-4000-8000-000000000000" } });
    await jobSeconds(s, 4);
  },
  "GET /data/v1/projects/{project_id}/downloads/{download_id}": async (s, w) => {
    const op = "GET /data/v1/projects/{project_id}/downloads/{download_id}";
    const download = (await expect(s, w, op, 200, { params: { download_id: w.job_id } })).json;
    assert.equal(download.data.attributes.format.fileType, w.file_type);
    assert.match(
      download.data.relationships.storage.data.id,
      /^urn:adsk\.objects:os\.object:wip\.dm\.prod\//,
    );
  },
};

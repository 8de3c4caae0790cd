/**
 * Helpers of the Model Derivative tests: a design uploaded through the OSS API, jobs, manifests,
 * job speed and the sandbox clock.
 */

import type { ParsedModel } from "../../src/sandbox/derivative/model.ts";
import { readModel } from "../../src/sandbox/derivative/model_reader.ts";
import type { Sandbox } from "../../src/sandbox/server.ts";
import { type Answer, api, control, token } from "./helpers.ts";
import { OBJECT_SCOPES, uploadObject } from "./object_helpers.ts";

/** Path prefix of Model Derivative. */
export const MD = "/modelderivative/v2/designdata";

/** Every scope the tests need. */
export const MD_SCOPES = `${OBJECT_SCOPES} viewables:read`;

/** The URL-safe, unpadded base64 URN of an object. */
export function urnOf(bucketKey: string, objectKey: string): string {
  return btoa(`urn:adsk.objects:os.object:${bucketKey}/${objectKey}`)
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A token with every scope and an empty bucket `bucketKey`. */
export async function modelBucket(sb: Sandbox, bucketKey = "models"): Promise<string> {
  const t = await token(sb, MD_SCOPES);
  const a = await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey, policyKey: "transient" });
  if (a.status !== 200) throw new Error(`bucket create failed: ${a.status}`);
  return t;
}

/** Uploads a design through the OSS API and returns its URN. */
export async function uploadDesign(
  sb: Sandbox,
  t: string,
  objectKey: string,
  content: string | Uint8Array<ArrayBuffer>,
  bucketKey = "models",
): Promise<string> {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  await uploadObject(sb, t, bucketKey, objectKey, bytes);
  return urnOf(bucketKey, objectKey);
}

/** Posts a translation job for `types`. */
export function postJob(
  sb: Sandbox,
  t: string,
  urn: string,
  types: (string | Record<string, unknown>)[],
  headers: Record<string, string> = {},
): Promise<Answer> {
  const formats = types.map((f) =>
    typeof f === "string" ? { type: f, ...(f.startsWith("svf") ? { views: ["3d"] } : {}) } : f
  );
  return api(sb, "POST", `${MD}/job`, t, { input: { urn }, output: { formats } }, headers);
}

/** Fetches the manifest. */
export function getManifest(sb: Sandbox, t: string, urn: string): Promise<Answer> {
  return api(sb, "GET", `${MD}/${urn}/manifest`, t);
}

/** Sets how long jobs take. */
export async function setJobSeconds(sb: Sandbox, seconds: number): Promise<void> {
  const a = await control(sb, "POST", "config", { job_seconds: seconds });
  if (a.status !== 200) throw new Error(`config failed: ${a.status}`);
}

/** Advances the sandbox clock. */
export async function advance(sb: Sandbox, seconds: number): Promise<void> {
  const a = await control(sb, "POST", "clock", { advance_seconds: seconds });
  if (a.status !== 200) throw new Error(`clock failed: ${a.status}`);
}

/** Polls the manifest (a few ms apart) until it is done, i.e. the design was read and written. */
export async function settledManifest(sb: Sandbox, t: string, urn: string): Promise<Answer> {
  for (let i = 0; i < 500; i++) {
    const m = await getManifest(sb, t, urn);
    if (m.status !== 200 || m.json.status === "success" || m.json.status === "failed") return m;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("the manifest did not settle");
}

/** Translates `urn` to `types` with instant jobs and returns the settled manifest. */
export async function translated(sb: Sandbox, t: string, urn: string, types: string[]): Promise<Answer> {
  await setJobSeconds(sb, 0);
  const job = await postJob(sb, t, urn, types);
  if (job.status !== 200) throw new Error(`job failed: ${job.status} ${JSON.stringify(job.json)}`);
  return await settledManifest(sb, t, urn);
}

/** Two groups of an OBJ file ("Chair" with a material, "Table"). */
export const TWO_GROUPS_OBJ = [
  "o Furniture",
  "g Chair",
  "usemtl oak",
  "v 0 0 0",
  "v 1 0 0",
  "v 1 1 0",
  "v 0 1 1",
  "f 1 2 3",
  "f 1 3 4",
  "g Table",
  "v 5 5 0",
  "v 6 5 0",
  "v 6 6 2",
  "f 5 6 7",
  "",
].join("\n");

/** A stream of `data` cut into chunks of `chunk` bytes (cuts fall inside lines and characters). */
export function streamOf(data: Uint8Array | string, chunk = 7): ReadableStream<Uint8Array> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

/** Reads a design from memory with the sandbox's model readers, in small chunks. */
export function readDesign(
  fileName: string,
  data: Uint8Array | string,
  chunk?: number,
): Promise<ParsedModel> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return readModel(fileName, bytes.length, () => streamOf(bytes, chunk));
}

/** An OBJ with an object, two groups, materials, relative and slashed face references and a line. */
export const BOXES_OBJ = `# two boxes
mtllib boxes.mtl
o Box
v 0 0 0
v 2 0 0
v 2 3 0
v 0 3 0
usemtl red
f 1 2 3 4
g lid
v 0 0 5
v 2 0 5
usemtl blue
f 5 6 -3
f 5/1/1 6/2/2 3//1
g base
v -1 -1 -1
usemtl red
l 1 7
`;

/** Contract of modelderivative.yaml: formats, jobs, manifests, derivatives, thumbnails, metadata, properties. */

import assert from "node:assert/strict";
import {
  modelBucket,
  setJobSeconds,
  TWO_GROUPS_OBJ,
  uploadDesign,
  urnOf,
} from "../sandbox/derivative_helpers.ts";
import { type Answer, expect, fill, runPlan, type Session, type World } from "./contract.ts";

const MD = "/modelderivative/v2/designdata";
const MANIFEST = `GET ${MD}/{urn}/manifest`;

/** Polls the manifest (every answer checked) until the translation is done. */
async function settled(s: Session, w: World): Promise<Answer> {
  for (let i = 0; i < 500; i++) {
    const m = await expect(s, w, MANIFEST, 200);
    if (m.json.status === "success" || m.json.status === "failed") return m;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("the manifest did not settle");
}

/** Calls `op` until it stops answering 202 (a viewable's tree or properties being extracted). */
async function ready(s: Session, w: World, op: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const a = await s.call(op, fill(op, w), { token: w.t });
    if (a.status !== 202) return assert.equal(a.status, 200);
  }
  throw new Error(`${op} stayed 202`);
}

Deno.test("contract: modelderivative.yaml", async () => {
  await runPlan<World>({
    file: "modelderivative/modelderivative.yaml",
    setup: async (s) => {
      const t = await modelBucket(s.sb);
      await setJobSeconds(s.sb, 0);
      return { t, urn: await uploadDesign(s.sb, t, "furniture.obj", TWO_GROUPS_OBJ) };
    },
    ops: {
      [`GET ${MD}/formats`]: async (s, w) => {
        await expect(s, w, `GET ${MD}/formats`, 200);
      },
      [`POST ${MD}/job`]: async (s, w) => {
        const formats = [{ type: "svf2", views: ["2d", "3d"] }, { type: "obj" }];
        await expect(s, w, `POST ${MD}/job`, 200, { json: { input: { urn: w.urn }, output: { formats } } });
      },
      [MANIFEST]: async (s, w) => {
        const m = await settled(s, w);
        assert.equal(m.json.status, "success");
        const obj = m.json.derivatives.find((d: { outputType: string }) => d.outputType === "obj");
        w.derivativeUrn = obj.children[0].urn;
        await expect(s, w, MANIFEST, 404, { params: { urn: urnOf("models", "none.obj") } });
      },
      [`HEAD ${MD}/{urn}/manifest/{derivativeUrn}`]: async (s, w) => {
        await expect(s, w, `HEAD ${MD}/{urn}/manifest/{derivativeUrn}`, 200);
      },
      [`GET ${MD}/{urn}/manifest/{derivativeUrn}/signedcookies`]: async (s, w) => {
        const op = `GET ${MD}/{urn}/manifest/{derivativeUrn}/signedcookies`;
        await expect(s, w, op, 200, { query: "?minutes-expiration=10" });
      },
      [`GET ${MD}/{urn}/thumbnail`]: async (s, w) => {
        await expect(s, w, `GET ${MD}/{urn}/thumbnail`, 200, { query: "?width=100" });
      },
      [`GET ${MD}/{urn}/metadata`]: async (s, w) => {
        const a = await expect(s, w, `GET ${MD}/{urn}/metadata`, 200);
        w.modelGuid = a.json.data.metadata.find((v: { role: string }) => v.role === "3d").guid;
      },
      [`GET ${MD}/{urn}/metadata/{modelGuid}`]: async (s, w) => {
        await ready(s, w, `GET ${MD}/{urn}/metadata/{modelGuid}`);
      },
      [`GET ${MD}/{urn}/metadata/{modelGuid}/properties`]: async (s, w) => {
        await ready(s, w, `GET ${MD}/{urn}/metadata/{modelGuid}/properties`);
      },
      [`POST ${MD}/{urn}/metadata/{modelGuid}/properties:query`]: async (s, w) => {
        const query = { query: { $in: ["objectid", 3, 4] }, fields: ["objectid", "name", "externalId"] };
        await expect(s, w, `POST ${MD}/{urn}/metadata/{modelGuid}/properties:query`, 200, { json: query });
      },
      [`POST ${MD}/{urn}/references`]: async (s, w) => {
        const references = [{
          urn: urnOf("models", "part.ipt"),
          relativePath: "parts/",
          filename: "part.ipt",
        }];
        await expect(s, w, `POST ${MD}/{urn}/references`, 200, { json: { references } });
      },
      [`DELETE ${MD}/{urn}/manifest`]: async (s, w) => {
        await expect(s, w, `DELETE ${MD}/{urn}/manifest`, 200);
      },
    },
  });
});

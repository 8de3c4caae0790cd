/** Contract of modelderivative.yaml: formats, jobs, manifests, derivatives, thumbnails, metadata, properties. */

import assert from "node:assert/strict";
import {
  MD,
  modelBucket,
  setJobSeconds,
  TWO_GROUPS_OBJ,
  uploadDesign,
  urnOf,
} from "../sandbox/derivative_helpers.ts";
import { type Answer, runPlan, type Session } from "./contract.ts";

const MANIFEST = "GET /modelderivative/v2/designdata/{urn}/manifest";

/** Polls the manifest (every answer checked) until the translation is done. */
async function settled(s: Session, t: string, urn: string): Promise<Answer> {
  for (let i = 0; i < 500; i++) {
    const m = await s.call(MANIFEST, `${MD}/${urn}/manifest`, { token: t });
    if (m.status !== 200 || m.json.status === "success" || m.json.status === "failed") return m;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("the manifest did not settle");
}

/** What the steps learn from earlier steps: a derivative's URN and a viewable's GUID. */
const found = { derivativeUrn: "", guid: "" };

Deno.test("contract: modelderivative.yaml", async () => {
  await runPlan({
    file: "modelderivative/modelderivative.yaml",
    setup: async (s) => {
      const t = await modelBucket(s.sb);
      await setJobSeconds(s.sb, 0);
      return { t, urn: await uploadDesign(s.sb, t, "furniture.obj", TWO_GROUPS_OBJ) };
    },
    ops: {
      "GET /modelderivative/v2/designdata/formats": async (s, { t }) => {
        await s.call("GET /modelderivative/v2/designdata/formats", `${MD}/formats`, { token: t });
      },
      "POST /modelderivative/v2/designdata/job": async (s, { t, urn }) => {
        const a = await s.call("POST /modelderivative/v2/designdata/job", `${MD}/job`, {
          token: t,
          json: {
            input: { urn },
            output: { formats: [{ type: "svf2", views: ["2d", "3d"] }, { type: "obj" }] },
          },
        });
        assert.equal(a.status, 200);
      },
      [MANIFEST]: async (s, { t, urn }) => {
        const m = await settled(s, t, urn);
        assert.equal(m.json.status, "success");
        const obj = m.json.derivatives.find((d: { outputType: string }) => d.outputType === "obj");
        found.derivativeUrn = obj.children[0].urn;
        assert.equal(
          (await s.call(MANIFEST, `${MD}/${urnOf("models", "none.obj")}/manifest`, { token: t })).status,
          404,
        );
      },
      "HEAD /modelderivative/v2/designdata/{urn}/manifest/{derivativeUrn}": async (s, { t, urn }) => {
        const a = await s.call(
          "HEAD /modelderivative/v2/designdata/{urn}/manifest/{derivativeUrn}",
          `${MD}/${urn}/manifest/${encodeURIComponent(found.derivativeUrn)}`,
          { token: t },
        );
        assert.equal(a.status, 200);
      },
      "GET /modelderivative/v2/designdata/{urn}/manifest/{derivativeUrn}/signedcookies": async (
        s,
        { t, urn },
      ) => {
        const a = await s.call(
          "GET /modelderivative/v2/designdata/{urn}/manifest/{derivativeUrn}/signedcookies",
          `${MD}/${urn}/manifest/${
            encodeURIComponent(found.derivativeUrn)
          }/signedcookies?minutes-expiration=10`,
          { token: t },
        );
        assert.equal(a.status, 200);
      },
      "GET /modelderivative/v2/designdata/{urn}/thumbnail": async (s, { t, urn }) => {
        const a = await s.call(
          "GET /modelderivative/v2/designdata/{urn}/thumbnail",
          `${MD}/${urn}/thumbnail?width=100`,
          {
            token: t,
          },
        );
        assert.equal(a.status, 200);
      },
      "GET /modelderivative/v2/designdata/{urn}/metadata": async (s, { t, urn }) => {
        const a = await s.call("GET /modelderivative/v2/designdata/{urn}/metadata", `${MD}/${urn}/metadata`, {
          token: t,
        });
        found.guid = a.json.data.metadata.find((v: { role: string }) => v.role === "3d").guid;
      },
      "GET /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}": async (s, { t, urn }) => {
        const op = "GET /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}";
        for (let i = 0; i < 50; i++) {
          const a = await s.call(op, `${MD}/${urn}/metadata/${found.guid}`, { token: t });
          if (a.status !== 202) return assert.equal(a.status, 200);
        }
      },
      "GET /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}/properties": async (s, { t, urn }) => {
        const op = "GET /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}/properties";
        for (let i = 0; i < 50; i++) {
          const a = await s.call(op, `${MD}/${urn}/metadata/${found.guid}/properties`, { token: t });
          if (a.status !== 202) return assert.equal(a.status, 200);
        }
      },
      "POST /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}/properties:query": async (
        s,
        { t, urn },
      ) => {
        const a = await s.call(
          "POST /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}/properties:query",
          `${MD}/${urn}/metadata/${found.guid}/properties:query`,
          {
            token: t,
            json: { query: { $in: ["objectid", 3, 4] }, fields: ["objectid", "name", "externalId"] },
          },
        );
        assert.equal(a.status, 200);
      },
      "POST /modelderivative/v2/designdata/{urn}/references": async (s, { t, urn }) => {
        const a = await s.call(
          "POST /modelderivative/v2/designdata/{urn}/references",
          `${MD}/${urn}/references`,
          {
            token: t,
            json: {
              references: [{
                urn: urnOf("models", "part.ipt"),
                relativePath: "parts/",
                filename: "part.ipt",
              }],
            },
          },
        );
        assert.equal(a.status, 200);
      },
      "DELETE /modelderivative/v2/designdata/{urn}/manifest": async (s, { t, urn }) => {
        const a = await s.call(
          "DELETE /modelderivative/v2/designdata/{urn}/manifest",
          `${MD}/${urn}/manifest`,
          {
            token: t,
          },
        );
        assert.equal(a.status, 200);
      },
    },
  });
});

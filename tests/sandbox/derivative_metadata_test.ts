import assert from "node:assert/strict";
import { api, withSandbox } from "./helpers.ts";
import {
  advance,
  MD,
  modelBucket,
  postJob,
  setJobSeconds,
  settledManifest,
  translated,
  TWO_GROUPS_OBJ,
  uploadDesign,
} from "./derivative_helpers.ts";

Deno.test("md metadata: no views before success; the object tree answers 202 once, then OBJ groups", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "furniture.obj", TWO_GROUPS_OBJ);
    await setJobSeconds(sb, 10);
    await postJob(sb, t, urn, ["svf2"]);
    const before = await api(sb, "GET", `${MD}/${urn}/metadata`, t);
    assert.deepEqual([before.status, before.json], [200, { data: { type: "metadata", metadata: [] } }]);
    await advance(sb, 11);
    assert.equal((await settledManifest(sb, t, urn)).json.status, "success");
    const views = await api(sb, "GET", `${MD}/${urn}/metadata`, t);
    assert.equal(views.status, 200);
    assert.equal(views.json.data.type, "metadata");
    assert.equal(views.json.data.metadata.length, 1);
    const [view] = views.json.data.metadata;
    assert.deepEqual({ ...view, guid: "-" }, { name: "{3D}", role: "3d", guid: "-", isMasterView: true });
    const manifest = await api(sb, "GET", `${MD}/${urn}/manifest`, t);
    assert.equal(manifest.json.derivatives[0].children[0].guid, view.guid);

    const first = await api(sb, "GET", `${MD}/${urn}/metadata/${view.guid}`, t);
    assert.deepEqual([first.status, first.json], [202, { result: "success" }]);
    const tree = await api(sb, "GET", `${MD}/${urn}/metadata/${view.guid}`, t);
    assert.equal(tree.status, 200);
    assert.deepEqual(tree.json, {
      data: {
        type: "objects",
        objects: [{
          objectid: 1,
          name: "furniture",
          objects: [{
            objectid: 2,
            name: "Furniture",
            objects: [{ objectid: 3, name: "Chair" }, { objectid: 4, name: "Table" }],
          }],
        }],
      },
    });
    const sub = await api(sb, "GET", `${MD}/${urn}/metadata/${view.guid}?objectid=2&level=1`, t);
    assert.deepEqual(sub.json.data.objects, [{
      objectid: 2,
      name: "Furniture",
      objects: [{ objectid: 3, name: "Chair" }, { objectid: 4, name: "Table" }],
    }]);
    // x-ads-force re-extracts: 202 again, then 200.
    const forced = await api(sb, "GET", `${MD}/${urn}/metadata/${view.guid}`, t, undefined, {
      "x-ads-force": "true",
    });
    assert.equal(forced.status, 202);
    assert.equal((await api(sb, "GET", `${MD}/${urn}/metadata/${view.guid}`, t)).status, 200);
    assert.equal((await api(sb, "GET", `${MD}/${urn}/metadata/not-a-view`, t)).status, 404);
    assert.equal((await api(sb, "GET", `${MD}/${urn}/metadata/${view.guid}?objectid=99`, t)).status, 404);
  });
});

Deno.test("md properties: 202 first, then every object's properties; objectid filters", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "furniture.obj", TWO_GROUPS_OBJ);
    await translated(sb, t, urn, ["svf"]);
    const guid = (await api(sb, "GET", `${MD}/${urn}/metadata`, t)).json.data.metadata[0].guid;
    const path = `${MD}/${urn}/metadata/${guid}/properties`;
    assert.equal((await api(sb, "GET", path, t)).status, 202);
    const all = await api(sb, "GET", path, t);
    assert.equal(all.status, 200);
    assert.equal(all.json.data.type, "properties");
    const collection = all.json.data.collection;
    assert.deepEqual(collection.map((p: Record<string, unknown>) => [p.objectid, p.name]), [
      [1, "furniture"],
      [2, "Furniture"],
      [3, "Chair"],
      [4, "Table"],
    ]);
    for (const p of collection) assert.equal(typeof p.externalId, "string");
    assert.deepEqual(collection[2].properties, {
      Name: "Chair",
      Item: { Type: "Group", Material: "oak" },
      Geometry: { Vertices: 4, Faces: 2, "Bounding Box": "0, 0, 0 .. 1, 1, 1" },
    });
    assert.deepEqual(collection[0].properties["Model Totals"], {
      Vertices: 7,
      Faces: 3,
      Materials: 1,
      "Bounding Box": "0, 0, 0 .. 6, 6, 2",
    });
    const one = await api(sb, "GET", `${path}?objectid=4`, t);
    assert.deepEqual(one.json.data.collection.map((p: Record<string, unknown>) => p.name), ["Table"]);
    assert.deepEqual(one.json.data.collection[0].properties.Geometry, {
      Vertices: 3,
      Faces: 1,
      "Bounding Box": "5, 5, 0 .. 6, 6, 2",
    });
    assert.equal((await api(sb, "GET", `${path}?objectid=abc`, t)).status, 400);
  });
});

Deno.test("md properties:query: $in, $eq on numbers, $prefix, fields and pagination", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "furniture.obj", TWO_GROUPS_OBJ);
    await translated(sb, t, urn, ["svf2"]);
    const guid = (await api(sb, "GET", `${MD}/${urn}/metadata`, t)).json.data.metadata[0].guid;
    const query = (body: unknown) =>
      api(sb, "POST", `${MD}/${urn}/metadata/${guid}/properties:query`, t, body);
    assert.equal((await query({})).status, 202);
    const byId = await query({ query: { $in: ["objectid", 4, 3] }, fields: ["objectid", "name"] });
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.json, {
      pagination: { limit: 20, offset: 0, totalResults: 2 },
      data: {
        type: "properties",
        collection: [{ objectid: 3, name: "Chair" }, { objectid: 4, name: "Table" }],
      },
    });
    const faces = await query({
      query: { $eq: ["properties.Geometry.Faces", 2] },
      fields: ["name", "properties.Geo*"],
    });
    assert.deepEqual(faces.json.data.collection, [{
      name: "Chair",
      properties: { Geometry: { Vertices: 4, Faces: 2, "Bounding Box": "0, 0, 0 .. 1, 1, 1" } },
    }]);
    const prefix = await query({
      query: { $prefix: ["name", "T"] },
      fields: ["name", "properties.Item.Type"],
    });
    assert.deepEqual(prefix.json.data.collection, [{
      name: "Table",
      properties: { Item: { Type: "Group" } },
    }]);
    const paged = await query({ pagination: { offset: 1, limit: 2 }, fields: ["objectid"] });
    assert.deepEqual(paged.json, {
      pagination: { limit: 2, offset: 1, totalResults: 4 },
      data: { type: "properties", collection: [{ objectid: 2 }, { objectid: 3 }] },
    });
    const between = await query({
      query: { $between: ["properties.Geometry.Vertices", 3, 3] },
      fields: ["name"],
    });
    assert.deepEqual(between.json.data.collection, [{ name: "Table" }]);
    for (
      const bad of [{ query: { $near: ["name", 1] } }, { pagination: { limit: 0 } }, {
        query: { $in: [1, 2] },
      }]
    ) {
      const a = await query(bad);
      assert.equal(a.status, 400, JSON.stringify(bad));
      assert.equal(typeof a.json.diagnostic, "string");
    }
  });
});

Deno.test("md metadata: IFC elements nest under the spatial structure with their types", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const ifc = [
      "ISO-10303-21;",
      "HEADER;FILE_SCHEMA(('IFC2X3'));ENDSEC;",
      "DATA;",
      "#1=IFCPROJECT('0YvctVUKr0kugbFTf53O9L',$,'Tower',$,$,$,$,$,$);",
      "#2=IFCBUILDINGSTOREY('2YvctVUKr0kugbFTf53O9L',$,'Level 1',$,$,$,$,$,.ELEMENT.,0.);",
      "#3=IFCWALLSTANDARDCASE('3YvctVUKr0kugbFTf53O9L',$,'Wall A',$,$,$,$,$);",
      "#4=IFCRELAGGREGATES('6YvctVUKr0kugbFTf53O9L',$,$,$,#1,(#2));",
      "#5=IFCRELCONTAINEDINSPATIALSTRUCTURE('8YvctVUKr0kugbFTf53O9L',$,$,$,(#3),#2);",
      "ENDSEC;",
      "END-ISO-10303-21;",
    ].join("\n");
    const urn = await uploadDesign(sb, t, "tower.ifc", ifc);
    await translated(sb, t, urn, ["svf2"]);
    const guid = (await api(sb, "GET", `${MD}/${urn}/metadata`, t)).json.data.metadata[0].guid;
    await api(sb, "GET", `${MD}/${urn}/metadata/${guid}`, t);
    const tree = await api(sb, "GET", `${MD}/${urn}/metadata/${guid}`, t);
    assert.deepEqual(tree.json.data.objects, [{
      objectid: 1,
      name: "tower",
      objects: [{
        objectid: 2,
        name: "Tower",
        objects: [{ objectid: 3, name: "Level 1", objects: [{ objectid: 4, name: "Wall A" }] }],
      }],
    }]);
    await api(sb, "GET", `${MD}/${urn}/metadata/${guid}/properties`, t);
    const props = await api(sb, "GET", `${MD}/${urn}/metadata/${guid}/properties?objectid=4`, t);
    const [wall] = props.json.data.collection;
    assert.equal(wall.externalId, "3YvctVUKr0kugbFTf53O9L");
    assert.equal(wall.properties.Item.Type, "IFCWALLSTANDARDCASE");
  });
});

import assert from "node:assert/strict";
import { exportStl } from "../../src/sandbox/derivative/exporters.ts";
import { CorruptModelError, MAX_OBJECTS, type ParsedModel } from "../../src/sandbox/derivative/model.ts";
import { readModel } from "../../src/sandbox/derivative/model_reader.ts";
import { BOXES_OBJ, readDesign as read, streamOf } from "./derivative_helpers.ts";

const enc = new TextEncoder();

async function corrupt(fileName: string, data: Uint8Array | string, pattern: RegExp): Promise<void> {
  await assert.rejects(read(fileName, data), (e: unknown) => {
    assert.ok(e instanceof CorruptModelError, `expected CorruptModelError, got ${e}`);
    assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("obj reader: objects, groups, counts, materials and boxes", async () => {
  const m = await read("boxes.obj", BOXES_OBJ);
  assert.equal(m.format, "obj");
  assert.deepEqual(m.objects.map((o) => [o.name, o.kind, o.parent]), [
    ["Box", "Object", undefined],
    ["lid", "Group", 0],
    ["base", "Group", 0],
  ]);
  assert.deepEqual(m.totals, { Vertices: 7, Faces: 3, Lines: 1, Materials: 2 });
  assert.deepEqual(m.bounds, { min: [-1, -1, -1], max: [2, 3, 5] });
  const [box, lid, base] = m.objects;
  assert.deepEqual(box.properties.Geometry, { Vertices: 4, Faces: 1, "Bounding Box": "0, 0, 0 .. 2, 3, 0" });
  assert.deepEqual(box.properties.Item, { Type: "Object", Material: "red" });
  assert.deepEqual(lid.properties.Geometry, { Vertices: 2, Faces: 2, "Bounding Box": "0, 0, 5 .. 2, 0, 5" });
  assert.deepEqual(lid.properties.Item, { Type: "Group", Material: "blue" });
  assert.deepEqual(base.properties.Geometry, {
    Vertices: 1,
    Faces: 0,
    Lines: 1,
    "Bounding Box": "-1, -1, -1 .. -1, -1, -1",
  });
  assert.equal(new Set(m.objects.map((o) => o.externalId)).size, 3);
  // The same file read again gives the same external ids (they identify objects across reads).
  assert.deepEqual(
    (await read("boxes.obj", BOXES_OBJ, 3)).objects.map((o) => o.externalId),
    m.objects.map((o) => o.externalId),
  );
});

Deno.test("obj reader: faces before any group go to 'default'", async () => {
  const m = await read("t.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\r\n");
  assert.deepEqual(m.objects.map((o) => o.name), ["default"]);
  assert.equal((m.objects[0].properties.Geometry as Record<string, number>).Faces, 1);
});

Deno.test("obj reader: corrupt and truncated inputs are rejected with the reason", async () => {
  await corrupt(
    "a.obj",
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n",
    /line 4: refers to vertex '9' but 3 vertices/,
  );
  await corrupt("a.obj", "v 0 0 0\nf 1 -2 1\n", /refers to vertex '-2'/);
  await corrupt("a.obj", "v 0 0 0\nv 1 0 0\nv 0 1", /line 3: file ends in the middle of a statement/);
  await corrupt("a.obj", "v 0 0 0\nv 1 0 0\nv 0 1\n", /line 3: vertex needs three numbers/);
  await corrupt("a.obj", "v 0 0 0\nv 1 0\nv 0 1 0\n", /line 2: vertex needs three numbers/);
  await corrupt("a.obj", "v 0 0 zero\n", /line 1: vertex needs three numbers/);
  await corrupt("a.obj", "# nothing\n", /no geometry/);
  await corrupt("a.obj", "", /empty/);
  const garbage = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 256);
  await corrupt("a.obj", garbage, /binary data|not an OBJ statement/);
  await corrupt("a.obj", "v 1 2 3\n%%% junk\n", /line 2: not an OBJ statement/);
});

Deno.test("obj reader: streams a multi-MiB file with exact counts and a bounded object list", async () => {
  const groups = MAX_OBJECTS + 500;
  const perGroup = 20;
  let lines = 0, bytes = 0;
  // Generated lazily, chunk by chunk: the reader never sees the file whole.
  let g = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (g >= groups) return c.close();
      let text = "";
      for (let k = 0; k < 200 && g < groups; k++, g++) {
        text += `g part_${g}\nusemtl m${g % 5}\n`;
        for (let v = 0; v < perGroup; v++) text += `v ${g}.125 ${v % 3}.5 ${-g * 0.5}\n`;
        text += `f -3 -2 -1 -${perGroup}\n`;
        lines += 2 + perGroup + 1;
      }
      const chunk = enc.encode(text);
      bytes += chunk.length;
      c.enqueue(chunk);
    },
  });
  const m = await readModel("big.obj", 1, () => stream);
  assert.ok(bytes > 3 * 1024 * 1024, `generated ${bytes} bytes`);
  assert.equal(m.totals.Vertices, groups * perGroup);
  assert.equal(m.totals.Faces, groups);
  assert.equal(m.totals.Materials, 5);
  assert.equal(m.objects.length, MAX_OBJECTS);
  assert.equal(m.truncated, true);
  assert.equal(m.objects[1234].name, "part_1234");
  assert.deepEqual(m.objects[1234].properties.Geometry, {
    Vertices: perGroup,
    Faces: 1,
    "Bounding Box": "1234.13, 0.5, -617 .. 1234.13, 2.5, -617",
  });
  assert.deepEqual(m.bounds, { min: [0.125, 0.5, -(groups - 1) * 0.5], max: [groups - 1 + 0.125, 2.5, 0] });
  assert.ok(lines > 60_000);
});

Deno.test("stl reader: ASCII solids with facets and boxes", async () => {
  const facet = (z: number) =>
    `facet normal 0 0 1\n outer loop\n  vertex 0 0 ${z}\n  vertex 1 0 ${z}\n  vertex 0 4 ${z}\n endloop\nendfacet\n`;
  const text = `solid first\n${facet(0)}${facet(1)}endsolid first\nsolid second\n${
    facet(-2)
  }endsolid second\n`;
  const m = await read("parts.stl", text);
  assert.deepEqual(m.objects.map((o) => o.name), ["first", "second"]);
  assert.deepEqual(m.totals, { Solids: 2, Facets: 3, Vertices: 9 });
  assert.deepEqual(m.objects[0].properties.Geometry, {
    Facets: 2,
    Vertices: 6,
    "Bounding Box": "0, 0, 0 .. 1, 4, 1",
  });
  assert.deepEqual(m.bounds, { min: [0, 0, -2], max: [1, 4, 1] });
  await corrupt("parts.stl", text.slice(0, text.indexOf("endsolid second")), /ends inside solid 'second'/);
  await corrupt("parts.stl", "solid x\nfacet normal 0 0 1\nbogus\n", /line 3: unknown keyword 'bogus'/);
});

Deno.test("stl reader: binary by header and triangle count, truncation detected by size", async () => {
  const model: ParsedModel = {
    format: "obj",
    fileName: "two.obj",
    objects: [
      {
        name: "a",
        kind: "Group",
        externalId: "a",
        properties: {},
        bounds: { min: [0, 0, 0], max: [1, 2, 3] },
      },
      {
        name: "b",
        kind: "Group",
        externalId: "b",
        properties: {},
        bounds: { min: [-5, 0, 0], max: [0, 1, 1] },
      },
    ],
    truncated: false,
    totals: {},
  };
  const bin = exportStl(model, "binary");
  assert.equal(bin.length, 84 + 24 * 50);
  // A binary header may begin with "solid" too: the size decides.
  bin.set(enc.encode("solid but binary"), 0);
  const m = await read("two.stl", bin, 1000);
  assert.deepEqual(m.totals, { Solids: 1, Facets: 24, Vertices: 72 });
  assert.match(m.objects[0].name, /^but binary/);
  assert.deepEqual(m.bounds, { min: [-5, 0, 0], max: [1, 2, 3] });
  const cut = bin.slice(0, bin.length - 30);
  cut.set(enc.encode("BINARY"), 0);
  await corrupt("two.stl", cut, /declares 24 triangles \(1284 bytes\) but the file has 1254 bytes/);
  await corrupt("two.stl", new Uint8Array(40), /too short/);
  const ascii = await read("two.stl", exportStl(model, "ascii"));
  assert.deepEqual(ascii.objects.map((o) => o.name), ["a", "b"]);
  assert.equal(ascii.totals.Facets, 24);
});

const DXF = [
  "0",
  "SECTION",
  "2",
  "HEADER",
  "9",
  "$ACADVER",
  "1",
  "AC1015",
  "0",
  "ENDSEC",
  "0",
  "SECTION",
  "2",
  "TABLES",
  "0",
  "TABLE",
  "2",
  "LAYER",
  "70",
  "2",
  "0",
  "LAYER",
  "2",
  "Walls",
  "70",
  "0",
  "62",
  "1",
  "0",
  "LAYER",
  "2",
  "Empty",
  "70",
  "0",
  "62",
  "5",
  "0",
  "ENDTAB",
  "0",
  "ENDSEC",
  "0",
  "SECTION",
  "2",
  "ENTITIES",
  "0",
  "LINE",
  "8",
  "Walls",
  "10",
  "0",
  "20",
  "0",
  "30",
  "0",
  "11",
  "10",
  "21",
  "5",
  "31",
  "0",
  "0",
  "LINE",
  "8",
  "Walls",
  "10",
  "1",
  "20",
  "1",
  "11",
  "2",
  "21",
  "2",
  "0",
  "CIRCLE",
  "8",
  "Doors",
  "10",
  "-3",
  "20",
  "4",
  "30",
  "1",
  "40",
  "0.5",
  "0",
  "ENDSEC",
  "0",
  "EOF",
].join("\n") + "\n";

Deno.test("dxf reader: layers from the table and entities, counts per type, boxes", async () => {
  const m = await read("plan.dxf", DXF);
  assert.deepEqual(m.objects.map((o) => o.name), ["Walls", "Empty", "Doors"]);
  assert.deepEqual(m.totals, { Layers: 3, Entities: 3, LINE: 2, CIRCLE: 1 });
  const [walls, empty, doors] = m.objects;
  assert.deepEqual(walls.properties, {
    Name: "Walls",
    Item: { Type: "Layer", Color: 1 },
    Entities: { LINE: 2 },
    Geometry: { Entities: 2, "Bounding Box": "0, 0, 0 .. 10, 5, 0" },
  });
  assert.deepEqual(empty.properties.Geometry, { Entities: 0 });
  assert.deepEqual(doors.properties.Entities, { CIRCLE: 1 });
  assert.deepEqual(m.bounds, { min: [-3, 0, 0], max: [10, 5, 1] });
  await corrupt("plan.dxf", DXF.slice(0, DXF.indexOf("EOF") - 3), /without the EOF marker/);
  await corrupt("plan.dxf", "0\nSECTION\nnot-a-code\nX\n", /line 3: expected a group code/);
});

const IFC = `ISO-10303-21;
HEADER;
FILE_DESCRIPTION(('ViewDefinition [CoordinationView]'),'2;1');
FILE_NAME('house.ifc','2024-05-01T10:00:00',('Ann'),('ACME'),'pre 1.0','Modeller 7','');
FILE_SCHEMA(('IFC4'));
ENDSEC;
DATA;
#1=IFCPROJECT('0YvctVUKr0kugbFTf53O9L',$,'House',$,$,$,$,$,$);
#2=IFCSITE('1YvctVUKr0kugbFTf53O9L',$,'Site',$,$,$,$,$,.ELEMENT.,$,$,$,$,$);
#3=IFCBUILDINGSTOREY('2YvctVUKr0kugbFTf53O9L',$,'Ground Floor',$,$,$,$,$,.ELEMENT.,0.);
#10=IFCWALL('3YvctVUKr0kugbFTf53O9L',$,'Wall ''North''; outer',$,'Basic Wall',$,$,'W1',$);
#11=IFCSLAB('4YvctVUKr0kugbFTf53O9L',$,'Floor \\X2\\00E9\\X0\\t\\X2\\00E9\\X0\\',$,$,$,$,$,.FLOOR.);
#12=IFCDOOR('5YvctVUKr0kugbFTf53O9L',$,$,$,$,$,$,$,2.1,0.9,$,$,$);
#20=IFCRELAGGREGATES('6YvctVUKr0kugbFTf53O9L',$,$,$,#1,(#2));
#21=IFCRELAGGREGATES('7YvctVUKr0kugbFTf53O9L',$,$,$,#2,(#3));
#22=IFCRELCONTAINEDINSPATIALSTRUCTURE('8YvctVUKr0kugbFTf53O9L',$,$,$,(#10,#11,
  #12),#3);
#30=IFCPROPERTYSET('9YvctVUKr0kugbFTf53O9L',$,'Pset_WallCommon',$,(#31));
#31=IFCPROPERTYSINGLEVALUE('IsExternal',$,IFCBOOLEAN(.T.),$);
#40=IFCWALLTYPE('AYvctVUKr0kugbFTf53O9L',$,'Basic Wall',$,$,$,$,$,$,.STANDARD.);
/* a comment; with a semicolon */
ENDSEC;
END-ISO-10303-21;
`;

Deno.test("ifc reader: header, spatial structure and elements with names and types", async () => {
  const m = await read("house.ifc", IFC, 5);
  assert.deepEqual(m.objects.map((o) => [o.name, o.kind]), [
    ["House", "IFCPROJECT"],
    ["Site", "IFCSITE"],
    ["Ground Floor", "IFCBUILDINGSTOREY"],
    ["Wall 'North'; outer", "IFCWALL"],
    ["Floor été", "IFCSLAB"],
    ["IFCDOOR #12", "IFCDOOR"],
  ]);
  assert.deepEqual(m.objects.map((o) => o.parent), [undefined, 0, 1, 2, 2, 2]);
  assert.equal(m.objects[3].externalId, "3YvctVUKr0kugbFTf53O9L");
  assert.deepEqual(m.objects[3].properties.Item, {
    Type: "IFCWALL",
    GlobalId: "3YvctVUKr0kugbFTf53O9L",
    "Entity Id": "#10",
    ObjectType: "Basic Wall",
  });
  assert.deepEqual(m.objects[0].properties["File Header"], {
    Schema: "IFC4",
    "File Name": "house.ifc",
    "Time Stamp": "2024-05-01T10:00:00",
    Preprocessor: "pre 1.0",
    "Originating System": "Modeller 7",
  });
  assert.equal(m.totals.Entities, 12);
  assert.equal(m.totals.Objects, 6);
  assert.equal(m.totals.IFCWALL, 1);
  assert.equal(m.totals.IFCWALLTYPE, undefined);
  await corrupt("house.ifc", IFC.slice(0, IFC.indexOf("#22=")), /ends before END-ISO-10303-21/);
  await corrupt(
    "house.ifc",
    "ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\ngarbage here;\nENDSEC;\nEND-ISO-10303-21;\n",
    /not an entity instance/,
  );
  await corrupt("house.ifc", "solid x\n", /does not begin with ISO-10303-21/);
});

Deno.test("other formats are not read: one generic object, even for content no reader knows", async () => {
  let opened = false;
  const m = await readModel("tower.rvt", 123, () => {
    opened = true;
    return streamOf("x");
  });
  assert.equal(opened, false);
  assert.equal(m.format, "generic");
  assert.deepEqual(m.objects.map((o) => o.name), ["tower"]);
  assert.deepEqual(m.objects[0].properties["File Properties"], {
    "File Name": "tower.rvt",
    "File Size": 123,
  });
});

Deno.test("ifc reader: long relations are read whole; a statement over the cap is counted, not kept", async () => {
  const walls = 12_000;
  const lines = [
    "ISO-10303-21;",
    "HEADER;",
    "ENDSEC;",
    "DATA;",
    "#1=IFCPROJECT('0YvctVUKr0kugbFTf53O9L',$,'P',$,$,$,$,$,$);",
    "#2=IFCBUILDINGSTOREY('2YvctVUKr0kugbFTf53O9L',$,'L1',$,$,$,$,$,.ELEMENT.,0.);",
  ];
  const ids: string[] = [];
  for (let i = 0; i < walls; i++) {
    const id = 100 + i;
    ids.push(`#${id}`);
    lines.push(`#${id}=IFCWALL('${String(i).padStart(22, "w")}',$,'W${i}',$,$,$,$,$,$);`);
  }
  lines.push(`#3=IFCRELCONTAINEDINSPATIALSTRUCTURE('8YvctVUKr0kugbFTf53O9L',$,$,$,(${ids.join(",")}),#2);`);
  lines.push(`#4=IFCCARTESIANPOINTLIST3D((${"(1.,2.,3.),".repeat(100_000)}(0.,0.,0.)));`);
  lines.push("ENDSEC;", "END-ISO-10303-21;");
  const text = lines.join("\n") + "\n";
  assert.ok(ids.join(",").length > 64 * 1024);
  const m = await read("long.ifc", text, 64 * 1024);
  assert.equal(m.totals.Entities, walls + 4);
  assert.equal(m.totals.IFCWALL, walls);
  assert.equal(m.objects.length, MAX_OBJECTS);
  assert.equal(m.truncated, true);
  assert.ok(m.objects.slice(2).every((o) => o.parent === 1));
  assert.equal(m.objects.at(-1)?.name, `W${MAX_OBJECTS - 3}`);
});

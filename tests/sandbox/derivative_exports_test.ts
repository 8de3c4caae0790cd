import assert from "node:assert/strict";
import {
  exportDxf,
  exportFbx,
  exportIfc,
  exportIges,
  exportObj,
  exportStep,
  exportStl,
} from "../../src/sandbox/derivative/exporters.ts";
import { BOXES_OBJ, readDesign as read } from "./derivative_helpers.ts";

Deno.test("exports are valid for their format: the readers take back OBJ, STL, IFC and DXF exports", async () => {
  const source = await read("boxes.obj", BOXES_OBJ);
  const names = source.objects.map((o) => o.name);
  const obj = await read("x.obj", exportObj(source));
  assert.deepEqual(obj.objects.map((o) => o.name), names);
  assert.equal(obj.totals.Vertices, 24);
  assert.equal(obj.totals.Faces, 18);
  assert.deepEqual(obj.objects[0].bounds, source.objects[0].bounds);
  const ifc = await read("x.ifc", exportIfc(source));
  assert.deepEqual(ifc.objects.map((o) => o.name), ["boxes", "Site", ...names]);
  assert.deepEqual(ifc.objects.slice(2).map((o) => o.parent), [1, 1, 1]);
  const dxf = await read("x.dxf", exportDxf(source));
  assert.deepEqual(dxf.objects.map((o) => o.name), ["Box_0", "lid_1", "base_2"]);
  assert.equal(dxf.totals["3DFACE"], 18);
  const stl = await read("x.stl", exportStl(source, "ascii"));
  assert.deepEqual(stl.objects.map((o) => o.name), names);
  const step = new TextDecoder().decode(exportStep(source));
  assert.match(
    step,
    /^ISO-10303-21;\n[\s\S]*#3=PRODUCT\('[^']+','Box','',\(#2\)\);[\s\S]*END-ISO-10303-21;\n$/,
  );
  assert.match(step, /CARTESIAN_POINT\('max',\(2\.E0,3\.E0,0\.E0\)\)/);
  const iges = new TextDecoder().decode(exportIges(source)).trimEnd().split("\n");
  for (const line of iges) assert.equal(line.length, 80, line);
  const globals = iges.filter((l) => l[72] === "G").length;
  assert.ok(globals >= 1);
  assert.equal(iges.map((l) => l[72]).join(""), `S${"G".repeat(globals)}DDDDDDPPPT`);
  assert.match(iges.at(-1)!, new RegExp(`^S {6}1G {6}${globals}D {6}6P {6}3 +T {6}1$`));
  const fbx = new TextDecoder().decode(exportFbx(source));
  assert.match(fbx, /^; FBX 7\.4\.0 project file/);
  assert.equal(fbx.match(/Model: \d+, "Model::/g)?.length, 3);
});

/**
 * Synthetic but well-formed exports of a parsed model: each object becomes a box (its bounding box
 * when known) in OBJ, STL (ASCII or binary), IFC, STEP, IGES, DXF (for DWG requests) and ASCII FBX.
 */

import { type Bounds, derivedExternalId, type ParsedModel } from "./model.ts";
import { toStepString } from "./step_text.ts";

/** Most objects written to one export, keeping derivative files small. */
export const MAX_EXPORTED_OBJECTS = 2_000;

/** One exported object. */
export interface ExportBox {
  name: string;
  externalId: string;
  bounds: Bounds;
}

/** The objects to export: each with its bounds, or a unit box on a grid when it has none. */
export function exportBoxes(model: ParsedModel): ExportBox[] {
  return model.objects.slice(0, MAX_EXPORTED_OBJECTS).map((o, i) => {
    const x = (i % 10) * 2, y = Math.floor(i / 10) * 2;
    return {
      name: o.name,
      externalId: o.externalId,
      bounds: o.bounds ?? { min: [x, y, 0], max: [x + 1, y + 1, 1] },
    };
  });
}

/** The 8 corners of a box, bottom face first (counter-clockwise), then the top face. */
function corners(b: Bounds): [number, number, number][] {
  const [x0, y0, z0] = b.min, [x1, y1, z1] = b.max;
  return [[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0], [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [
    x0,
    y1,
    z1,
  ]];
}

/** The 6 faces of a box as corner indices, counter-clockwise seen from outside, with their normals. */
const FACES: { quad: [number, number, number, number]; normal: [number, number, number] }[] = [
  { quad: [0, 3, 2, 1], normal: [0, 0, -1] },
  { quad: [4, 5, 6, 7], normal: [0, 0, 1] },
  { quad: [0, 1, 5, 4], normal: [0, -1, 0] },
  { quad: [1, 2, 6, 5], normal: [1, 0, 0] },
  { quad: [2, 3, 7, 6], normal: [0, 1, 0] },
  { quad: [3, 0, 4, 7], normal: [-1, 0, 0] },
];

function triangles(b: Bounds): { normal: [number, number, number]; v: [number, number, number][] }[] {
  const c = corners(b);
  return FACES.flatMap(({ quad: [a, b1, c1, d], normal }) => [
    { normal, v: [c[a], c[b1], c[c1]] },
    { normal, v: [c[a], c[c1], c[d]] },
  ]);
}

const num = (v: number) => String(Number(v.toPrecision(9)));
const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ");
const encoder = new TextEncoder();

/** A Wavefront OBJ with one `o` per object. */
export function exportObj(model: ParsedModel): Uint8Array {
  const out = [`# Exported by the diazo sandbox from ${oneLine(model.fileName)}`];
  exportBoxes(model).forEach((box, i) => {
    out.push(`o ${oneLine(box.name)}`);
    for (const p of corners(box.bounds)) out.push(`v ${p.map(num).join(" ")}`);
    for (const { quad } of FACES) out.push(`f ${quad.map((k) => i * 8 + k + 1).join(" ")}`);
  });
  return encoder.encode(out.join("\n") + "\n");
}

/** An STL: ASCII with one `solid` per object, or binary (the platform's default) with all triangles. */
export function exportStl(model: ParsedModel, format: "ascii" | "binary"): Uint8Array {
  const boxes = exportBoxes(model);
  if (format === "ascii") {
    const out: string[] = [];
    for (const box of boxes) {
      const name = oneLine(box.name).replace(/\s+/g, "_");
      out.push(`solid ${name}`);
      for (const t of triangles(box.bounds)) {
        out.push(`  facet normal ${t.normal.join(" ")}`, "    outer loop");
        for (const p of t.v) out.push(`      vertex ${p.map(num).join(" ")}`);
        out.push("    endloop", "  endfacet");
      }
      out.push(`endsolid ${name}`);
    }
    return encoder.encode(out.join("\n") + "\n");
  }
  const tris = boxes.flatMap((b) => triangles(b.bounds));
  const bytes = new Uint8Array(84 + tris.length * 50);
  bytes.set(encoder.encode(`diazo sandbox STL of ${model.fileName}`.slice(0, 80)));
  const view = new DataView(bytes.buffer);
  view.setUint32(80, tris.length, true);
  tris.forEach((t, i) => {
    const at = 84 + i * 50;
    [t.normal, ...t.v].forEach((p, k) => p.forEach((v, j) => view.setFloat32(at + k * 12 + j * 4, v, true)));
  });
  return bytes;
}

function stepReal(v: number): string {
  const s = Number(v.toPrecision(9)).toExponential().toUpperCase(); // e.g. 1.5E+0
  const [mantissa, exp] = s.split("E");
  return `${mantissa.includes(".") ? mantissa : `${mantissa}.`}E${Number(exp)}`;
}

function stepHeader(model: ParsedModel, ext: string, schema: string): string[] {
  const name = model.fileName.replace(/\.[^.]*$/, "") + `.${ext}`;
  return [
    "ISO-10303-21;",
    "HEADER;",
    "FILE_DESCRIPTION(('diazo sandbox derivative'),'2;1');",
    `FILE_NAME(${toStepString(name)},'2024-01-01T00:00:00',(''),(''),'diazo sandbox','diazo sandbox','');`,
    `FILE_SCHEMA(('${schema}'));`,
    "ENDSEC;",
    "DATA;",
  ];
}

/** A minimal IFC4 file: a project and site holding one IFCBUILDINGELEMENTPROXY per object. */
export function exportIfc(model: ParsedModel): Uint8Array {
  const out = stepHeader(model, "ifc", "IFC4");
  const gid = (...p: string[]) => toStepString(derivedExternalId("ifc-export", model.fileName, ...p));
  const projectName = toStepString(model.fileName.replace(/\.[^.]*$/, ""));
  out.push(`#1=IFCPROJECT(${gid("project")},$,${projectName},$,$,$,$,$,$);`);
  out.push(`#2=IFCSITE(${gid("site")},$,'Site',$,$,$,$,$,.ELEMENT.,$,$,$,$,$);`);
  out.push(`#3=IFCRELAGGREGATES(${gid("aggregates")},$,$,$,#1,(#2));`);
  const ids: string[] = [];
  exportBoxes(model).forEach((box, i) => {
    const id = 10 + i;
    ids.push(`#${id}`);
    const globalId = /^[0-9A-Za-z_$]{22}$/.test(box.externalId) ? toStepString(box.externalId) : gid(`${i}`);
    out.push(`#${id}=IFCBUILDINGELEMENTPROXY(${globalId},$,${toStepString(box.name)},$,$,$,$,$,$);`);
  });
  if (ids.length > 0) {
    out.push(`#4=IFCRELCONTAINEDINSPATIALSTRUCTURE(${gid("contains")},$,$,$,(${ids.join(",")}),#2);`);
  }
  out.push("ENDSEC;", "END-ISO-10303-21;");
  return encoder.encode(out.join("\n") + "\n");
}

/** A minimal STEP AP214 file: one PRODUCT per object with the corners of its box. */
export function exportStep(model: ParsedModel): Uint8Array {
  const out = stepHeader(model, "stp", "AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }");
  out.push("#1=APPLICATION_CONTEXT('automotive design');", "#2=PRODUCT_CONTEXT('',#1,'mechanical');");
  let id = 3;
  for (const box of exportBoxes(model)) {
    const name = toStepString(box.name);
    out.push(`#${id}=PRODUCT(${toStepString(box.externalId)},${name},'',(#2));`);
    out.push(`#${id + 1}=CARTESIAN_POINT('min',(${box.bounds.min.map(stepReal).join(",")}));`);
    out.push(`#${id + 2}=CARTESIAN_POINT('max',(${box.bounds.max.map(stepReal).join(",")}));`);
    id += 3;
  }
  out.push("ENDSEC;", "END-ISO-10303-21;");
  return encoder.encode(out.join("\n") + "\n");
}

function igesLine(data: string, section: string, seq: number): string {
  return data.padEnd(72).slice(0, 72) + section + String(seq).padStart(7);
}

function hollerith(s: string): string {
  return `${s.length}H${s}`;
}

/** An IGES 5.3 file with a point entity (type 116) at the centre of each object. */
export function exportIges(model: ParsedModel): Uint8Array {
  const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, "_");
  const start = [igesLine(ascii(`diazo sandbox IGES derivative of ${model.fileName}`), "S", 1)];
  const fileName = ascii(model.fileName.replace(/\.[^.]*$/, "") + ".iges");
  const stamp = "15H20240101.000000";
  const global = [
    "1H,",
    "1H;",
    hollerith("diazo"),
    hollerith(fileName),
    hollerith("diazo sandbox"),
    hollerith("1.0"),
    "32,38,6,308,15",
    hollerith("diazo"),
    "1.0,2,2HMM,1,1.0",
    stamp,
    "1.0E-6,1000.0",
    hollerith("diazo"),
    hollerith("diazo"),
    "11,0",
    stamp,
  ].join(",") + ";";
  const globalLines: string[] = [];
  for (let i = 0; i < global.length; i += 72) {
    globalLines.push(igesLine(global.slice(i, i + 72), "G", globalLines.length + 1));
  }
  const directory: string[] = [];
  const params: string[] = [];
  exportBoxes(model).forEach((box, i) => {
    const c = box.bounds.min.map((v, k) => (v + box.bounds.max[k]) / 2);
    const de = 2 * i + 1;
    const field = (v: string | number) => String(v).padStart(8);
    directory.push(igesLine(
      [116, params.length + 1, 0, 0, 0, 0, 0, 0, "00000000"].map(field).join(""),
      "D",
      de,
    ));
    directory.push(igesLine([116, 0, 0, 1, 0, "", "", "POINT", 0].map(field).join(""), "D", de + 1));
    const p = `116,${c.map(stepReal).join(",")},0;`;
    params.push(
      p.padEnd(64).slice(0, 64) + String(de).padStart(8) + "P" + String(params.length + 1).padStart(7),
    );
  });
  const terminate = igesLine(
    `S${String(start.length).padStart(7)}G${String(globalLines.length).padStart(7)}` +
      `D${String(directory.length).padStart(7)}P${String(params.length).padStart(7)}`,
    "T",
    1,
  );
  return encoder.encode([...start, ...globalLines, ...directory, ...params, terminate].join("\n") + "\n");
}

/** A DXF (R12) drawing with one layer per object and its box as 3DFACE entities. */
export function exportDxf(model: ParsedModel): Uint8Array {
  const boxes = exportBoxes(model);
  const layerName = (name: string, i: number) =>
    `${name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 200) || "L"}_${i}`;
  const out: (string | number)[] = [0, "SECTION", 2, "HEADER", 9, "$ACADVER", 1, "AC1009", 0, "ENDSEC"];
  out.push(0, "SECTION", 2, "TABLES", 0, "TABLE", 2, "LAYER", 70, boxes.length);
  boxes.forEach((b, i) =>
    out.push(0, "LAYER", 2, layerName(b.name, i), 70, 0, 62, (i % 255) + 1, 6, "CONTINUOUS")
  );
  out.push(0, "ENDTAB", 0, "ENDSEC", 0, "SECTION", 2, "ENTITIES");
  boxes.forEach((b, i) => {
    const c = corners(b.bounds);
    for (const { quad } of FACES) {
      out.push(0, "3DFACE", 8, layerName(b.name, i));
      quad.forEach((k, j) => out.push(10 + j, num(c[k][0]), 20 + j, num(c[k][1]), 30 + j, num(c[k][2])));
    }
  });
  out.push(0, "ENDSEC", 0, "EOF");
  return encoder.encode(out.join("\n") + "\n");
}

/** An ASCII FBX 7.4 file with a mesh model per object. */
export function exportFbx(model: ParsedModel): Uint8Array {
  const boxes = exportBoxes(model);
  const quote = (s: string) => `"${s.replace(/["\r\n]/g, "_")}"`;
  const out = [
    "; FBX 7.4.0 project file",
    `; Created by the diazo sandbox from ${oneLine(model.fileName)}`,
    "",
    "FBXHeaderExtension:  {",
    "\tFBXHeaderVersion: 1003",
    "\tFBXVersion: 7400",
    '\tCreator: "diazo sandbox"',
    "}",
    "Definitions:  {",
    "\tVersion: 100",
    `\tCount: ${boxes.length * 2}`,
    `\tObjectType: "Model" {\n\t\tCount: ${boxes.length}\n\t}`,
    `\tObjectType: "Geometry" {\n\t\tCount: ${boxes.length}\n\t}`,
    "}",
    "Objects:  {",
  ];
  const links: string[] = [];
  boxes.forEach((box, i) => {
    const modelId = 1_000_000 + i, geometryId = 2_000_000 + i;
    const vertices = corners(box.bounds).flat().map(num);
    const polygons = FACES.flatMap(({ quad }) => quad.map((k, j) => (j === 3 ? -k - 1 : k)));
    out.push(
      `\tGeometry: ${geometryId}, ${quote(`Geometry::${box.name}`)}, "Mesh" {`,
      `\t\tVertices: *${vertices.length} {\n\t\t\ta: ${vertices.join(",")}\n\t\t}`,
      `\t\tPolygonVertexIndex: *${polygons.length} {\n\t\t\ta: ${polygons.join(",")}\n\t\t}`,
      "\t\tGeometryVersion: 124",
      "\t}",
      `\tModel: ${modelId}, ${quote(`Model::${box.name}`)}, "Mesh" {`,
      "\t\tVersion: 232",
      "\t}",
    );
    links.push(`\tC: "OO",${modelId},0`, `\tC: "OO",${geometryId},${modelId}`);
  });
  out.push("}", "Connections:  {", ...links, "}");
  return encoder.encode(out.join("\n") + "\n");
}

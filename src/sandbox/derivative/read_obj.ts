/**
 * Wavefront OBJ reader: objects (`o`) and groups (`g`) with their vertex, face and line counts,
 * materials (`usemtl`) and bounding boxes, checking that faces refer to defined vertices.
 */

import { forEachLine } from "./lines.ts";
import {
  type Bounds,
  boundsText,
  CorruptModelError,
  derivedExternalId,
  emptyBounds,
  extendBounds,
  finiteBounds,
  MAX_OBJECTS,
  objectCollector,
  type ParsedModel,
} from "./model.ts";

/** Statements of the OBJ specification (geometry, free-form, grouping, display). */
const KNOWN = new Set(
  ("v vt vn vp cstype deg bmat step p l f fo curv curv2 surf parm trim hole scrv sp end con g s mg o " +
    "bevel c_interp d_interp lod usemtl mtllib maplib usemap shadow_obj trace_obj ctech stech call csh")
    .split(" "),
);
const KEYWORD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_MATERIALS_LISTED = 16;

interface GroupStats {
  vertices: number;
  faces: number;
  lines: number;
  materials: Set<string>;
  bounds: Bounds;
}

function corrupt(line: number, what: string): never {
  throw new CorruptModelError(`OBJ line ${line}: ${what}`);
}

function words(line: string): string[] {
  return line.trim().split(/\s+/);
}

const CODE_V = 118, CODE_F = 102, CODE_L = 108, CODE_SLASH = 47, CODE_MINUS = 45, CODE_0 = 48, CODE_9 = 57;

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

/** Reads up to three numbers of `line` from `from` into `out`; returns how many tokens there were (at most 3). */
function scanNumbers(line: string, from: number, out: number[]): number {
  let count = 0, i = from;
  const len = line.length;
  while (count < 3) {
    while (i < len && isBlank(line.charCodeAt(i))) i++;
    if (i >= len) break;
    const start = i;
    while (i < len && !isBlank(line.charCodeAt(i))) i++;
    out[count++] = Number(line.slice(start, i));
  }
  return count;
}

/**
 * Counts the vertex references of a face or line statement (`7`, `-1`, `3/1`, `3//2`, `3/1/2`),
 * checking each refers to one of the `vertices` defined so far; a bad one is returned as text.
 */
function scanRefs(line: string, from: number, vertices: number): number | string {
  let count = 0, i = from;
  const len = line.length;
  for (;;) {
    while (i < len && isBlank(line.charCodeAt(i))) i++;
    if (i >= len) return count;
    const start = i;
    const negative = line.charCodeAt(i) === CODE_MINUS;
    if (negative) i++;
    let value = 0, digits = 0;
    for (let c = line.charCodeAt(i); c >= CODE_0 && c <= CODE_9; c = line.charCodeAt(++i)) {
      value = value * 10 + (c - CODE_0);
      digits++;
    }
    const next = i < len ? line.charCodeAt(i) : 32;
    while (i < len && !isBlank(line.charCodeAt(i))) i++;
    const resolved = negative ? vertices - value + 1 : value;
    if (
      digits === 0 || value === 0 || (next !== CODE_SLASH && !isBlank(next)) || resolved < 1 ||
      resolved > vertices
    ) {
      return line.slice(start, i);
    }
    count++;
  }
}

/**
 * Reads an OBJ stream into a model summary; throws `CorruptModelError` on invalid input.
 * One function over 80 lines: a single streaming pass whose state (vertices seen, current group
 * and material, bounds) every statement updates; split, that state would travel between pieces.
 */
export async function readObj(stream: ReadableStream<Uint8Array>, fileName: string): Promise<ParsedModel> {
  // long: a single streaming pass whose group and vertex state is shared by every line
  const collector = objectCollector();
  const stats: GroupStats[] = [];
  const byKey = new Map<string, number>();
  let vertexCount = 0, faceCount = 0, lineCount = 0, normalCount = 0, uvCount = 0;
  const materials = new Set<string>();
  const bounds = emptyBounds();
  let currentObject: number | undefined; // index of the `o` in force
  let objectOrdinal = 0; // distinguishes objects of the same name
  let target: number | undefined; // where geometry counts go; -1: an object past the cap
  let material: string | undefined;
  let lastLineBad: string | undefined;
  let ignored = 0;
  const xyz = [0, 0, 0];

  const open = (kind: "Object" | "Group", name: string, parent: number | undefined, key: string) => {
    const known = byKey.get(key);
    if (known !== undefined) return known;
    const index = collector.add({
      name,
      kind,
      externalId: derivedExternalId("obj", key),
      ...(parent !== undefined ? { parent } : {}),
      properties: {},
    });
    if (index === undefined) return undefined;
    stats[index] = { vertices: 0, faces: 0, lines: 0, materials: new Set(), bounds: emptyBounds() };
    byKey.set(key, index);
    return index;
  };
  const current = () =>
    target ?? (target = open("Group", "default", currentObject, `${objectOrdinal}\0g\0default`) ?? -1);
  const noteMaterial = (s: GroupStats | undefined) => {
    if (material && s && s.materials.size < MAX_MATERIALS_LISTED) s.materials.add(material);
  };

  const vertex = (line: string, from: number, n: number) => {
    const found = scanNumbers(line, from, xyz);
    const [x, y, z] = xyz;
    if (found < 3 || !Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
      lastLineBad = `vertex needs three numbers, got '${line.slice(from).trim().slice(0, 60)}'`;
      if (found < 3) return;
      corrupt(n, lastLineBad);
    }
    vertexCount++;
    extendBounds(bounds, x, y, z);
    const s = stats[current()];
    if (s) {
      s.vertices++;
      extendBounds(s.bounds, x, y, z);
    }
  };
  const element = (isLine: boolean, line: string, from: number, n: number) => {
    const refs = scanRefs(line, from, vertexCount);
    if (typeof refs === "string") {
      corrupt(n, `refers to vertex '${refs}' but ${vertexCount} vertices are defined`);
    }
    const min = isLine ? 2 : 3;
    if (refs < min) {
      lastLineBad = `${isLine ? "line" : "face"} needs at least ${min} vertices`;
      return;
    }
    const s = stats[current()];
    if (isLine) {
      lineCount++;
      if (s) s.lines++;
    } else {
      faceCount++;
      if (s) s.faces++;
    }
    noteMaterial(s);
  };

  const onLine = (raw: string, n: number) => {
    // A short statement is only judged once we know whether it was the (cut-off) last line.
    if (lastLineBad !== undefined) corrupt(n - 1, lastLineBad);
    // Fast paths for the bulk of a file: "v ", "f " and "l " at the start of the line.
    const c0 = raw.charCodeAt(0);
    if (isBlank(raw.charCodeAt(1))) {
      if (c0 === CODE_V) return vertex(raw, 2, n);
      if (c0 === CODE_F || c0 === CODE_L) return element(c0 === CODE_L, raw, 2, n);
    }
    const line = raw.trimStart();
    if (line === "" || line.startsWith("#")) return;
    const space = line.search(/\s/);
    const keyword = space < 0 ? line : line.slice(0, space);
    const rest = space < 0 ? "" : line.slice(space + 1).trim();
    switch (keyword) {
      case "v":
        return vertex(line, 1, n);
      case "vn":
        normalCount++;
        return;
      case "vt":
        uvCount++;
        return;
      case "f":
      case "fo":
      case "l":
        return element(keyword === "l", line, keyword.length, n);
      case "o": {
        objectOrdinal++;
        const name = rest || `Object ${objectOrdinal}`;
        currentObject = open("Object", name, undefined, `${objectOrdinal}\0o`);
        target = currentObject ?? -1;
        return;
      }
      case "g": {
        const name = rest === "" ? "default" : words(rest).join(" ");
        target = open("Group", name, currentObject, `${objectOrdinal}\0g\0${name}`) ?? -1;
        return;
      }
      case "usemtl":
        material = rest || undefined;
        // Distinct names are counted up to a cap, keeping memory bounded.
        if (material && materials.size < MAX_OBJECTS) materials.add(material);
        return;
      default:
        if (!KEYWORD.test(keyword)) corrupt(n, `not an OBJ statement: '${line.slice(0, 40)}'`);
        if (!KNOWN.has(keyword)) ignored++;
    }
  };

  const { lines, endsWithNewline } = await forEachLine(stream, onLine, { rejectBinary: true });
  if (lastLineBad !== undefined) {
    corrupt(lines, endsWithNewline ? lastLineBad : `file ends in the middle of a statement (${lastLineBad})`);
  }
  if (vertexCount === 0) throw new CorruptModelError("OBJ file has no geometry (no vertices)");

  collector.objects.forEach((o, i) => {
    const s = stats[i];
    const b = finiteBounds(s.bounds);
    o.properties = {
      Name: o.name,
      Item: {
        Type: o.kind,
        ...(s.materials.size > 0 ? { Material: [...s.materials].join(", ") } : {}),
      },
      Geometry: {
        Vertices: s.vertices,
        Faces: s.faces,
        ...(s.lines > 0 ? { Lines: s.lines } : {}),
        ...(b ? { "Bounding Box": boundsText(b) } : {}),
      },
    };
    if (b) o.bounds = b;
  });
  const totals: Record<string, number> = { Vertices: vertexCount, Faces: faceCount };
  if (lineCount) totals.Lines = lineCount;
  if (normalCount) totals.Normals = normalCount;
  if (uvCount) totals["Texture Coordinates"] = uvCount;
  if (materials.size) totals.Materials = materials.size;
  if (ignored) totals["Ignored Statements"] = ignored;
  return {
    format: "obj",
    fileName,
    objects: collector.objects,
    truncated: collector.truncated,
    totals,
    bounds: finiteBounds(bounds),
  };
}

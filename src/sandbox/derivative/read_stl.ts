/**
 * STL reader: ASCII files (`solid <name>` ... `endsolid`) with their facets and bounding boxes,
 * and binary files (80-byte header, triangle count, 50 bytes per triangle) checked against the
 * file size.
 */

import { forEachLine, peekBytes } from "./lines.ts";
import {
  type Bounds,
  boundsText,
  CorruptModelError,
  derivedExternalId,
  emptyBounds,
  extendBounds,
  finiteBounds,
  type ModelObject,
  objectCollector,
  type ParsedModel,
} from "./model.ts";

const HEADER_BYTES = 84;
const TRIANGLE_BYTES = 50;

function solidObject(name: string, ordinal: number, facets: number, b: Bounds): ModelObject {
  const box = finiteBounds(b);
  return {
    name,
    kind: "Solid",
    externalId: derivedExternalId("stl", ordinal, name),
    properties: {
      Name: name,
      Item: { Type: "Solid" },
      Geometry: { Facets: facets, Vertices: facets * 3, ...(box ? { "Bounding Box": boundsText(box) } : {}) },
    },
    ...(box ? { bounds: box } : {}),
  };
}

function headerName(head: Uint8Array): string {
  const text = new TextDecoder("latin1").decode(head.subarray(0, 80));
  const printable = text.replace(/[^\x20-\x7e]/g, " ").replace(/^solid\b/i, "").trim();
  return printable.slice(0, 64);
}

async function readBinary(
  stream: ReadableStream<Uint8Array>,
  head: Uint8Array,
  count: number,
  fileName: string,
): Promise<ParsedModel> {
  const bounds = emptyBounds();
  let carry = new Uint8Array(0);
  let seen = 0;
  let skip = HEADER_BYTES;
  for await (const chunk of stream) {
    let data = chunk;
    if (skip > 0) {
      const cut = Math.min(skip, data.length);
      data = data.subarray(cut);
      skip -= cut;
    }
    if (carry.length > 0) {
      const joined = new Uint8Array(carry.length + data.length);
      joined.set(carry);
      joined.set(data, carry.length);
      data = joined;
    }
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let at = 0;
    for (; at + TRIANGLE_BYTES <= data.length; at += TRIANGLE_BYTES) {
      for (let v = 0; v < 3; v++) {
        const o = at + 12 + v * 12;
        const x = view.getFloat32(o, true),
          y = view.getFloat32(o + 4, true),
          z = view.getFloat32(o + 8, true);
        if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) extendBounds(bounds, x, y, z);
      }
      seen++;
    }
    carry = data.slice(at);
  }
  if (seen !== count || carry.length > 0) {
    throw new CorruptModelError(`binary STL declares ${count} triangles but holds ${seen}`);
  }
  const name = headerName(head) || fileName.replace(/\.[^.]*$/, "");
  return {
    format: "stl",
    fileName,
    objects: [solidObject(name, 1, count, bounds)],
    truncated: false,
    totals: { Solids: 1, Facets: count, Vertices: count * 3 },
    bounds: finiteBounds(bounds),
  };
}

async function readAscii(stream: ReadableStream<Uint8Array>, fileName: string): Promise<ParsedModel> {
  const collector = objectCollector();
  const bounds = emptyBounds();
  let solid: { name: string; facets: number; bounds: Bounds } | undefined;
  let solids = 0, facets = 0;
  let inFacet = false, loopVertices = 0;
  const fail = (n: number, what: string): never => {
    throw new CorruptModelError(`STL line ${n}: ${what}`);
  };
  const { lines } = await forEachLine(stream, (raw, n) => {
    const line = raw.trim();
    if (line === "") return;
    const w = line.split(/\s+/);
    const keyword = w[0].toLowerCase();
    if (!solid) {
      if (keyword !== "solid") fail(n, `expected 'solid', found '${w[0].slice(0, 20)}'`);
      solids++;
      solid = { name: w.slice(1).join(" ") || `Solid ${solids}`, facets: 0, bounds: emptyBounds() };
      return;
    }
    switch (keyword) {
      case "facet":
        if (inFacet) fail(n, "facet inside a facet");
        inFacet = true;
        loopVertices = 0;
        return;
      case "outer":
      case "endloop":
        if (!inFacet) fail(n, `'${keyword}' outside a facet`);
        return;
      case "vertex": {
        const x = Number(w[1]), y = Number(w[2]), z = Number(w[3]);
        if (!inFacet || ![x, y, z].every(Number.isFinite)) fail(n, "bad vertex");
        extendBounds(bounds, x, y, z);
        extendBounds(solid.bounds, x, y, z);
        loopVertices++;
        return;
      }
      case "endfacet":
        if (!inFacet || loopVertices < 3) fail(n, "facet without three vertices");
        inFacet = false;
        solid.facets++;
        facets++;
        return;
      case "endsolid":
        if (inFacet) fail(n, "endsolid inside a facet");
        collector.add(solidObject(solid.name, solids, solid.facets, solid.bounds));
        solid = undefined;
        return;
      default:
        fail(n, `unknown keyword '${w[0].slice(0, 20)}'`);
    }
  }, { rejectBinary: true });
  if (solid) {
    throw new CorruptModelError(`STL ends inside solid '${solid.name}' at line ${lines} (no endsolid)`);
  }
  if (solids === 0) throw new CorruptModelError("STL file holds no solid");
  return {
    format: "stl",
    fileName,
    objects: collector.objects,
    truncated: collector.truncated,
    totals: { Solids: solids, Facets: facets, Vertices: facets * 3 },
    bounds: finiteBounds(bounds),
  };
}

/** Reads an STL stream of `size` bytes into a model summary; throws `CorruptModelError` on invalid input. */
export async function readStl(
  input: ReadableStream<Uint8Array>,
  size: number,
  fileName: string,
): Promise<ParsedModel> {
  const { head, stream } = await peekBytes(input, HEADER_BYTES);
  const startsWithSolid = /^\s*solid\b/i.test(new TextDecoder("latin1").decode(head.subarray(0, 80)));
  if (head.length >= HEADER_BYTES) {
    const count = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(80, true);
    const expected = HEADER_BYTES + count * TRIANGLE_BYTES;
    // Binary headers may also begin with "solid"; the size settles which kind it is.
    if (expected === size) return await readBinary(stream, head, count, fileName);
    if (!startsWithSolid) {
      await stream.cancel();
      throw new CorruptModelError(
        `binary STL declares ${count} triangles (${expected} bytes) but the file has ${size} bytes`,
      );
    }
  }
  if (!startsWithSolid) {
    await stream.cancel();
    throw new CorruptModelError("not an STL file: too short for a binary header and no 'solid' line");
  }
  return await readAscii(stream, fileName);
}

/**
 * IFC4 in STEP physical file form (ISO 10303-21): a project, site, building and storey, one named
 * element per object (IFCBEAM, IFCCOLUMN, IFCSLAB, IFCWALL, ...) with a tessellated body, and the
 * relations that place the elements in the storey and give them materials. Bodies are triangulated
 * face sets of up to 17 boxes (one pass over an element's boxes); their ids have a fixed number of digits, so that a face set's text
 * is the same apart from its ids and its size is known in advance. Padding is `/* *\/` comments
 * between the HEADER and DATA sections.
 */
import {
  BOX_FACES,
  BOXES_PER_ELEMENT,
  corners,
  type Element,
  elementBoxes,
  guidFor,
  KINDS,
  MATERIALS,
  random,
} from "./layout.ts";
import type { FormatWriter } from "./plan.ts";
import { commentBlock, type CommentStyle, coord, minimumComment, type Piece } from "./text.ts";

/** Boxes in one face set: one pass over an element's boxes. */
const BOXES_PER_SET = BOXES_PER_ELEMENT;
/** Ids of the fixed entities of the prologue. */
const ID = { unit: 1, units: 2, origin: 3, axes: 4, context: 5, body: 6, project: 7, storey: 13 } as const;
/** First id of the per-element entities (4 per element). */
const ELEMENT_BASE = 100;
/** Id of the first material; one per entry of MATERIALS. */
const MATERIAL_BASE = 20;

const enc = new TextEncoder();

/** Local 1-based point indices of the triangles of `boxes` boxes, as STEP lists. */
function trianglesText(boxes: number): string {
  const out: string[] = [];
  for (let b = 0; b < boxes; b++) {
    for (const { quad } of BOX_FACES) {
      const [p, q, r, s] = quad.map((c) => b * 8 + c + 1);
      out.push(`(${p},${q},${r})`, `(${p},${r},${s})`);
    }
  }
  return out.join(",");
}

/** Offsets where the triangles of n boxes end, n = 0..BOXES_PER_SET. */
const TRIANGLES = trianglesText(BOXES_PER_SET);
const TRIANGLE_ENDS = Array.from({ length: BOXES_PER_SET + 1 }, (_, n) => trianglesText(n).length);
const TRIANGLE_BYTES = enc.encode(TRIANGLES);

function pointsText(e: Element): string {
  const out: string[] = [];
  for (const box of elementBoxes(e)) {
    for (const [x, y, z] of corners(box)) out.push(`(${coord(x)},${coord(y)},${coord(z)})`);
  }
  return out.join(",");
}

/** Bytes of the points of n boxes: 8 tuples of 25 characters each, comma-separated. */
function pointsLength(boxes: number): number {
  return boxes * 8 * 26 - 1;
}

/** Digits of every geometry id of a file of `size` bytes (enough for a face set per ~200 bytes). */
function geometryDigits(size: number): number {
  let d = 7;
  while (9 * 10 ** (d - 1) <= size / 200) d++;
  return d;
}

function header(): string {
  return "ISO-10303-21;\nHEADER;\n" +
    "FILE_DESCRIPTION(('ViewDefinition [ReferenceView]'),'2;1');\n" +
    "FILE_NAME('diazo-synthetic.ifc','2000-01-01T00:00:00',('diazo'),('diazo'),'diazo generate','diazo','');\n" +
    "FILE_SCHEMA(('IFC4'));\nENDSEC;\n";
}

function fixedEntities(guid: () => string): string {
  const lines = [
    `#1=IFCSIUNIT(*,.LENGTHUNIT.,$,.METRE.);`,
    `#2=IFCUNITASSIGNMENT((#1));`,
    `#3=IFCCARTESIANPOINT((0.,0.,0.));`,
    `#4=IFCAXIS2PLACEMENT3D(#3,$,$);`,
    `#5=IFCGEOMETRICREPRESENTATIONCONTEXT($,'Model',3,1.E-05,#4,$);`,
    `#6=IFCGEOMETRICREPRESENTATIONSUBCONTEXT('Body','Model',*,*,*,*,#5,$,.MODEL_VIEW.,$);`,
    `#7=IFCPROJECT('${guid()}',$,'diazo synthetic project',$,$,$,$,(#5),#2);`,
    `#8=IFCLOCALPLACEMENT($,#4);`,
    `#9=IFCSITE('${guid()}',$,'Site',$,$,#8,$,$,.ELEMENT.,$,$,$,$,$);`,
    `#10=IFCLOCALPLACEMENT(#8,#4);`,
    `#11=IFCBUILDING('${guid()}',$,'Building',$,$,#10,$,$,.ELEMENT.,$,$,$);`,
    `#12=IFCLOCALPLACEMENT(#10,#4);`,
    `#13=IFCBUILDINGSTOREY('${guid()}',$,'Level 1',$,$,#12,$,$,.ELEMENT.,0.);`,
    `#14=IFCRELAGGREGATES('${guid()}',$,$,$,#7,(#9));`,
    `#15=IFCRELAGGREGATES('${guid()}',$,$,$,#9,(#11));`,
    `#16=IFCRELAGGREGATES('${guid()}',$,$,$,#11,(#13));`,
    ...MATERIALS.map((m, k) => `#${MATERIAL_BASE + k}=IFCMATERIAL('${m}',$,$);`),
  ];
  return lines.join("\n") + "\n";
}

function elementId(index: number): number {
  return ELEMENT_BASE + index * 4 + 3;
}

/** The entities after an element's face sets: placement, representation, shape, the element. */
function elementTail(e: Element, items: string): string {
  const base = ELEMENT_BASE + e.index * 4;
  // IfcDoor and IfcWindow carry two overall sizes before their PredefinedType, and two after it.
  const openings = e.kind.ifc === "IFCDOOR" || e.kind.ifc === "IFCWINDOW";
  const typed = openings ? `$,$,$,.${e.kind.predefined}.,$,$` : `$,.${e.kind.predefined}.`;
  return `#${base}=IFCLOCALPLACEMENT(#${ID.storey},#${ID.axes});\n` +
    `#${base + 1}=IFCSHAPEREPRESENTATION(#${ID.body},'Body','Tessellation',(${items}));\n` +
    `#${base + 2}=IFCPRODUCTDEFINITIONSHAPE($,$,(#${base + 1}));\n` +
    `#${base + 3}=${e.kind.ifc}('${e.guid}',$,'${e.name}',$,$,#${base},#${base + 2},${typed});\n`;
}

function faceSetPieces(p: string, f: string, points: Uint8Array, boxes: number): Piece[] {
  return [
    `#${p}=IFCCARTESIANPOINTLIST3D((`,
    points.subarray(0, pointsLength(boxes)),
    `),$);\n#${f}=IFCTRIANGULATEDFACESET(#${p},$,.T.,(`,
    TRIANGLE_BYTES.subarray(0, TRIANGLE_ENDS[boxes]),
    `),$);\n`,
  ];
}

/** The IFC writer of one file of `size` bytes. */
export function ifcWriter(opts: { objects: number; seed: number; size: number }): FormatWriter {
  const { objects, seed } = opts;
  const digits = geometryDigits(opts.size);
  const sampleId = "1".padEnd(digits, "0");
  const style: CommentStyle = {
    open: "/* ",
    close: " */\n",
    lead: `diazo synthetic IFC4 model: ${objects} elements, seed ${seed}, units metres`,
  };
  // Bytes of a face set of n boxes, with its reference in the representation's item list.
  const setCost = [0];
  for (let n = 1; n <= BOXES_PER_SET; n++) {
    const sample = faceSetPieces(sampleId, sampleId, new Uint8Array(pointsLength(n)), n);
    setCost.push(sample.reduce((sum, piece) => sum + piece.length, 0) + digits + 2);
  }
  // An item list of k ids is k * (digits + 2) - 1 bytes: one byte less than the costs above add up to.
  const base = (e: Element) => elementTail(e, "").length - 1;
  // Fresh generators per call: the planner and the writer both build the prologue and epilogue.
  const guids = (salt: number) => {
    const rand = random((seed ^ salt) >>> 0);
    return () => guidFor(rand);
  };
  let nextId = 10 ** (digits - 1);
  return {
    minPad: minimumComment(style),
    prologue: (pad) => header() + commentBlock(pad, style) + "DATA;\n" + fixedEntities(guids(0x5bd1e995)),
    epilogue() {
      const guid = guids(0x27d4eb2f);
      const first = ELEMENT_BASE + objects * 4;
      const all = Array.from({ length: objects }, (_, i) => `#${elementId(i)}`).join(",");
      const lines = [
        `#${first}=IFCRELCONTAINEDINSPATIALSTRUCTURE('${guid()}',$,$,$,(${all}),#${ID.storey});`,
      ];
      MATERIALS.forEach((material, k) => {
        const ids: string[] = [];
        for (let i = 0; i < objects; i++) {
          if (KINDS[i % KINDS.length].material === material) ids.push(`#${elementId(i)}`);
        }
        if (ids.length === 0) return;
        lines.push(
          `#${first + 1 + k}=IFCRELASSOCIATESMATERIAL('${guid()}',$,$,$,(${ids.join(",")}),#${
            MATERIAL_BASE + k
          });`,
        );
      });
      return lines.join("\n") + "\nENDSEC;\nEND-ISO-10303-21;\n";
    },
    objectSize(e, boxes) {
      const full = Math.floor(boxes / BOXES_PER_SET), rest = boxes % BOXES_PER_SET;
      return base(e) + full * setCost[BOXES_PER_SET] + setCost[rest];
    },
    fit(e, budget) {
      const room = budget - base(e);
      if (room < setCost[1]) return 0;
      const full = Math.floor(room / setCost[BOXES_PER_SET]);
      let rest = 0;
      while (rest + 1 < BOXES_PER_SET && setCost[rest + 1] <= room - full * setCost[BOXES_PER_SET]) rest++;
      return full * BOXES_PER_SET + rest;
    },
    *objectPieces(e, boxes) {
      const points = enc.encode(pointsText(e));
      const items: string[] = [];
      for (let left = boxes; left > 0; left -= BOXES_PER_SET) {
        const p = String(nextId), f = String(nextId + 1);
        nextId += 2;
        items.push(`#${f}`);
        yield* faceSetPieces(p, f, points, Math.min(left, BOXES_PER_SET));
      }
      yield elementTail(e, items.join(","));
    },
  };
}

/**
 * Writes the files of a finished derivative job under the sandbox's data directory: SVF/SVF2
 * view resources (graphics, thumbnail, property database), thumbnails, and model exports.
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { storedZip } from "./binary.ts";
import {
  exportDxf,
  exportFbx,
  exportIfc,
  exportIges,
  exportObj,
  exportStep,
  exportStl,
} from "./exporters.ts";
import type { ParsedModel } from "./model.ts";
import type { DerivativeJob, OutputFile, Translation } from "./store.ts";
import { renderThumbnail } from "./thumbnail.ts";
import { propertyCollection } from "./tree.ts";
import { derivativeUrn } from "./urn.ts";

/** Role of the property database resource. */
export const PROPERTY_DB_ROLE = "Autodesk.CloudPlatform.PropertyDatabase";

/** A file to produce: where it sits under `output/` (none: not downloadable) and its content. */
interface PlannedFile {
  path?: string;
  role: string;
  mime: string;
  data: Uint8Array;
  resolution?: [number, number];
  inView?: boolean;
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function svfPackage(model: ParsedModel): Uint8Array {
  const b = model.bounds;
  return storedZip([
    {
      name: "manifest.json",
      data: json({ name: "LMV Manifest", manifestversion: 2, toc: [], assets: [{ id: "metadata.json" }] }),
    },
    {
      name: "metadata.json",
      data: json({
        metadata: {
          version: "1.0",
          source: model.fileName,
          stats: { num_fragments: model.objects.length },
          ...(b ? { worldBoundingBox: { minXYZ: b.min, maxXYZ: b.max } } : {}),
        },
      }),
    },
  ]);
}

function viewResources(model: ParsedModel, svf2: boolean): PlannedFile[] {
  const thumbnail = renderThumbnail(model, 200);
  const database = json(propertyCollection(model));
  return svf2
    ? [
      { role: "graphics", mime: "application/autodesk-svf2", data: new Uint8Array(0), inView: true },
      {
        path: "Resource/3D View/3D/3D1.png",
        role: "thumbnail",
        mime: "image/png",
        data: thumbnail,
        resolution: [200, 200],
        inView: true,
      },
      { path: "Resource/model.sdb", role: PROPERTY_DB_ROLE, mime: "application/autodesk-db", data: database },
    ]
    : [
      {
        path: "1/model.svf",
        role: "graphics",
        mime: "application/autodesk-svf",
        data: svfPackage(model),
        inView: true,
      },
      {
        path: "1/model.png",
        role: "thumbnail",
        mime: "image/png",
        data: thumbnail,
        resolution: [200, 200],
        inView: true,
      },
      { path: "1/properties.db", role: PROPERTY_DB_ROLE, mime: "application/autodesk-db", data: database },
    ];
}

function plan(job: DerivativeJob, model: ParsedModel): PlannedFile[] {
  const base = model.fileName.replace(/^.*\//, "").replace(/\.[^.]*$/, "") || "model";
  const file = (ext: string, data: Uint8Array): PlannedFile[] => [
    { path: `${base}.${ext}`, role: job.outputType, mime: "application/octet-stream", data },
  ];
  switch (job.outputType) {
    case "svf":
      return viewResources(model, false);
    case "svf2":
      return viewResources(model, true);
    case "thumbnail":
      return ([[100, 1], [200, 2], [400, 4]] as const).map(([size, n]) => ({
        path: `preview${n}.png`,
        role: "thumbnail",
        mime: "image/png",
        data: renderThumbnail(model, size),
        resolution: [size, size],
      }));
    case "obj":
      return file("obj", exportObj(model));
    case "stl":
      return file("stl", exportStl(model, job.advanced?.format === "ascii" ? "ascii" : "binary"));
    case "ifc":
      return file("ifc", exportIfc(model));
    case "step":
      return file("stp", exportStep(model));
    case "iges":
      return file("iges", exportIges(model));
    case "dwg":
      // DWG is a closed binary format: the sandbox's DWG derivative holds DXF text.
      return file("dwg", exportDxf(model));
    case "fbx":
      return file("fbx", exportFbx(model));
  }
}

/** Produces and writes the files of `job` for the design of `tr`; returns them in manifest order. */
export async function writeOutputs(
  tr: Translation,
  job: DerivativeJob,
  model: ParsedModel,
): Promise<OutputFile[]> {
  await Deno.mkdir(tr.dir, { recursive: true });
  const files: OutputFile[] = [];
  for (const p of plan(job, model)) {
    const id = crypto.randomUUID();
    const file: OutputFile = {
      id,
      role: p.role,
      mime: p.mime,
      guid: crypto.randomUUID(),
      size: p.data.length,
      etag: createHash("sha1").update(p.data).digest("hex"),
      ...(p.resolution ? { resolution: p.resolution } : {}),
      ...(p.inView ? { inView: true } : {}),
    };
    if (p.path !== undefined) {
      file.urn = derivativeUrn(tr.urn, p.path);
      file.path = join(tr.dir, id);
      await Deno.writeFile(file.path, p.data);
    }
    files.push(file);
  }
  return files;
}

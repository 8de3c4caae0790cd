/**
 * The manifest of a source design as the platform shows it at a moment: overall and per-derivative
 * status and progress, SVF/SVF2 geometry nodes with their resources, files of other outputs, and
 * error messages of failed derivatives.
 */

import { derivativeState, manifestState } from "./jobs.ts";
import type { ParsedModel } from "./model.ts";
import type { DerivativeJob, OutputFile, Translation } from "./store.ts";

/** Name of the (single) 3D model view. */
export const VIEW_NAME = "{3D}";

function resource(f: OutputFile): Record<string, unknown> {
  return {
    ...(f.urn ? { urn: f.urn } : {}),
    role: f.role,
    mime: f.mime,
    guid: f.guid,
    type: "resource",
    ...(f.resolution ? { resolution: f.resolution } : {}),
    status: "success",
  };
}

/** A camera looking at the model's box from the front-right-top (the platform's 13-number form). */
function camera(model: ParsedModel | undefined): number[] {
  const b = model?.bounds ?? { min: [0, 0, 0], max: [1, 1, 1] };
  const c = b.min.map((v, i) => (v + b.max[i]) / 2);
  const r = Math.max(...b.max.map((v, i) => v - b.min[i]), 1);
  return [c[0] + r * 1.5, c[1] - r * 1.5, c[2] + r * 1.2, c[0], c[1], c[2], 0, 0, 1, 1, 45, r, 1];
}

function viewChildren(tr: Translation, job: DerivativeJob, files: OutputFile[]): Record<string, unknown>[] {
  const model = tr.parse.state === "done" ? tr.parse.model : undefined;
  const inView = files.filter((f) => f.inView);
  return [
    {
      guid: job.guid,
      type: "geometry",
      role: "3d",
      name: VIEW_NAME,
      progress: "complete",
      status: "success",
      hasThumbnail: inView.some((f) => f.role === "thumbnail") ? "true" : "false",
      viewableID: `${job.guid}-00000001`,
      children: [
        {
          guid: `${job.guid.slice(0, -4)}${job.guid.endsWith("0001") ? "0002" : "0001"}`,
          type: "view",
          role: "3d",
          name: VIEW_NAME,
          // ManifestResources requires a status on every node, views included.
          status: "success",
          camera: camera(model),
        },
        ...inView.map(resource),
      ],
    },
    ...files.filter((f) => !f.inView).map(resource),
  ];
}

/** True when a finished derivative carries a thumbnail. */
export function hasThumbnail(job: DerivativeJob): boolean {
  return job.outcome?.ok === true && job.outcome.files.some((f) => f.role === "thumbnail");
}

function derivativeBody(tr: Translation, job: DerivativeJob, now: number): Record<string, unknown> {
  const state = derivativeState(job, now);
  const done = state.status === "success" || state.status === "failed";
  const body: Record<string, unknown> = {
    name: tr.source.fileName,
    hasThumbnail: done && hasThumbnail(job) ? "true" : "false",
    progress: state.progress,
    outputType: job.outputType,
    status: state.status,
  };
  if (done && job.outcome && !job.outcome.ok) {
    body.messages = [{ type: "error", code: job.outcome.code, message: job.outcome.message }];
  }
  if (state.status === "success" && job.outcome?.ok) {
    const files = job.outcome.files;
    body.children = job.outputType === "svf" || job.outputType === "svf2"
      ? viewChildren(tr, job, files)
      : files.map(resource);
  }
  return body;
}

/** The manifest body of `tr` at sandbox time `now`. */
export function manifestBody(tr: Translation, now: number): Record<string, unknown> {
  const overall = manifestState(tr, now);
  const derivatives = tr.derivatives.map((d) => derivativeBody(tr, d, now));
  return {
    type: "manifest",
    hasThumbnail: derivatives.some((d) => d.hasThumbnail === "true") ? "true" : "false",
    status: overall.status,
    progress: overall.progress,
    region: tr.region,
    urn: tr.urn,
    version: "1.0",
    derivatives,
  };
}

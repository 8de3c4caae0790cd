/**
 * What the Reality Capture (Photo to 3D) emulator knows: photoscenes per app, the
 * photos added to them (their bytes on disk under the data dir) and where each one is in its
 * lifecycle: created -> processing (progress on the sandbox clock) -> done, with a result file per
 * requested format. A reset forgets every scene and removes its files.
 */

import { join } from "node:path";
import { nowMs } from "../clock.ts";
import type { Clock } from "../clock.ts";
import type { ServiceStore } from "../store.ts";

/** One photo of a scene: uploaded bytes on disk, or a URL the platform would fetch itself. */
export interface ScenePhoto {
  fileid: string;
  filename: string;
  filesize: number;
  /** On disk, for uploaded bytes. */
  path?: string;
  /** For a photo given as a public URL (not fetched by the sandbox). */
  url?: string;
}

/** A photoscene. */
export interface Photoscene {
  id: string;
  /** The app (client id) that created it; other apps do not see it. */
  owner: string;
  name: string;
  formats: string[];
  sceneType: "object" | "aerial";
  photos: ScenePhoto[];
  /** Set when processing started (sandbox clock), with how long it takes. */
  processing?: { startedMs: number; durationMs: number };
  cancelled?: boolean;
}

/** Scenes by id, and where their files live. */
export interface RealityStore extends ServiceStore {
  scenes: Map<string, Photoscene>;
  /** Directory of uploaded photos (one folder per scene). */
  dir: string;
}

/** Output formats a scene may ask for. */
export const RC_FORMATS = ["rcm", "rcs", "obj", "fbx", "ortho", "report"] as const;

/** Fewest photos a scene is processed with. */
export const MIN_PHOTOS = 3;

/** Most files one `POST /file` request may carry. */
export const MAX_FILES_PER_REQUEST = 20;

/** A store with no scenes; photos go under `dataDir/reality`. */
export function createRealityStore(dataDir: string): RealityStore {
  const scenes = new Map<string, Photoscene>();
  const dir = join(dataDir, "reality");
  return {
    scenes,
    dir,
    kept: ["scenes"],
    async reset() {
      scenes.clear();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
    // Like Design Automation's per-app data, scenes are not part of the state dump.
    snapshot: () => ({}),
  };
}

/** Where a scene is: `progress` 0-100 and the platform's `progressmsg`. */
export function sceneProgress(scene: Photoscene, clock: Pick<Clock, "offsetMs">): {
  progress: number;
  progressmsg: string;
} {
  if (scene.cancelled) return { progress: 0, progressmsg: "Cancelled" };
  const p = scene.processing;
  if (!p) return { progress: 0, progressmsg: "Created" };
  const elapsed = nowMs(clock) - p.startedMs;
  if (p.durationMs <= 0 || elapsed >= p.durationMs) return { progress: 100, progressmsg: "DONE" };
  // The platform's intermediate messages are not documented; the sandbox says "Processing".
  return {
    progress: Math.max(0, Math.min(99, Math.floor((elapsed / p.durationMs) * 100))),
    progressmsg: "Processing",
  };
}

/** The bytes of a finished scene's result in `format`: a small, valid file of that kind. */
export function resultBytes(scene: Photoscene, format: string): Uint8Array {
  const enc = new TextEncoder();
  if (format === "obj") {
    // One quad per photo, side by side: a mesh whose size follows the input.
    const lines = [`# ${scene.name}: reconstructed by the diazo sandbox from ${scene.photos.length} photos`];
    scene.photos.forEach((_, i) => {
      lines.push(`v ${i} 0 0`, `v ${i + 1} 0 0`, `v ${i + 1} 1 0`, `v ${i} 1 0`);
      const b = i * 4;
      lines.push(`f ${b + 1} ${b + 2} ${b + 3} ${b + 4}`);
    });
    return enc.encode(lines.join("\n") + "\n");
  }
  const manifest = {
    generator: "diazo sandbox",
    format,
    photosceneid: scene.id,
    scenename: scene.name,
    photos: scene.photos.map((p) => p.filename),
  };
  return enc.encode(JSON.stringify(manifest, null, 2) + "\n");
}

/**
 * What the Model Derivative emulator keeps: one manifest (translation record) per source design,
 * its derivative jobs and their output files, and the key that signs download cookies.
 */

import { join } from "node:path";
import type { ServiceStore } from "../store.ts";
import type { OutputType } from "./formats.ts";
import type { ParsedModel } from "./model.ts";

/** A file a derivative job produced. */
export interface OutputFile {
  /** Opaque id used in the download URL. */
  id: string;
  /** The derivative URN; absent when the platform does not let it be downloaded (SVF2 graphics). */
  urn?: string;
  role: string;
  mime: string;
  guid: string;
  /** Where it lives on disk; absent for files that are not downloadable. */
  path?: string;
  size: number;
  /** SHA-1 of the content, hex. */
  etag: string;
  resolution?: [number, number];
  /** Part of the 3D view (the geometry node) rather than of the derivative itself. */
  inView?: boolean;
}

/** How a derivative job ended. */
export type JobOutcome =
  | { ok: true; files: OutputFile[] }
  | { ok: false; code: string; message: string };

/** One requested output of a source design. */
export interface DerivativeJob {
  outputType: OutputType;
  /** For SVF/SVF2 also the guid of its 3D view (geometry node, metadata model view). */
  guid: string;
  /** Sandbox clock, ms. */
  createdMs: number;
  durationMs: number;
  views?: string[];
  advanced?: Record<string, unknown>;
  /** Set once the work is done (the manifest shows it only when the job's time is up). */
  outcome?: JobOutcome;
}

/** Where the reading of the source design stands. */
export type ParseState =
  | { state: "reading" }
  | { state: "done"; model: ParsedModel }
  | { state: "failed"; message: string };

/** The source design of a manifest. */
export interface SourceDesign {
  bucketKey: string;
  objectKey: string;
  objectId: string;
  /** The design's file name (the root file of a compressed design). */
  fileName: string;
  size: number;
  sha1: string;
}

/** The manifest of one source design and everything derived from it. */
export interface Translation {
  /** Canonical URL-safe base64 URN. */
  urn: string;
  source: SourceDesign;
  region: string;
  createdMs: number;
  parse: ParseState;
  /** Settles when reading ends (with the model, or undefined when it failed); never rejects. */
  parsed: Promise<ParsedModel | undefined>;
  derivatives: DerivativeJob[];
  /** Metadata reads already answered 202 ("extracting"), by `tree:<guid>` / `props:<guid>`. */
  extracted: Set<string>;
  /** Directory of its output files. */
  dir: string;
  workflow?: string;
}

/** What Model Derivative keeps. */
export interface DerivativeStore extends ServiceStore {
  /** By canonical source URN. */
  manifests: Map<string, Translation>;
  /** Downloadable output files by their opaque id. */
  files: Map<string, OutputFile>;
  /** Referenced files recorded by `POST .../references`, by canonical source URN. */
  references: Map<string, unknown>;
  /** Signs the download cookies (`CloudFront-Key-Pair-Id` names it); a reset draws a new one. */
  cookieKey: { id: string; secret: Uint8Array };
  /** Where output files live: one subdirectory per manifest. */
  dir: string;
}

function newCookieKey(): DerivativeStore["cookieKey"] {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(7)), (b) => b.toString(36).toUpperCase())
    .join("").slice(0, 14).padEnd(14, "K");
  return { id: `K${id}`, secret: crypto.getRandomValues(new Uint8Array(32)) };
}

/**
 * A translation put back: its reading (a promise shared with the copy it came from, or none when read
 * from disk) now settles this one's parse state; a reading the sandbox stopped during failed.
 */
function reviveTranslation(tr: Translation): void {
  const reading = tr.parsed instanceof Promise ? tr.parsed : Promise.resolve(undefined);
  tr.parsed = reading.then((model) => {
    if (tr.parse.state === "reading") {
      tr.parse = model
        ? { state: "done", model }
        : { state: "failed", message: "The design could not be read: the sandbox stopped while reading it" };
    }
    return tr.parse.state === "done" ? tr.parse.model : undefined;
  });
}

/** An empty store with a fresh cookie key, keeping output files under `dataDir`. */
export function createDerivativeStore(dataDir = ""): DerivativeStore {
  const store: DerivativeStore = {
    manifests: new Map(),
    files: new Map(),
    references: new Map(),
    cookieKey: newCookieKey(),
    dir: join(dataDir, "derivatives"),
    kept: ["manifests", "files", "references", "cookieKey"],
    revive: () => store.manifests.forEach(reviveTranslation),
    async reset() {
      store.manifests.clear();
      store.files.clear();
      store.references.clear();
      store.cookieKey = newCookieKey();
      await Deno.remove(store.dir, { recursive: true }).catch(() => {});
    },
    snapshot: () => ({ derivative_manifests: store.manifests.size }),
  };
  return store;
}
